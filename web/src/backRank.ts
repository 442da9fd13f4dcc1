// How a start position is shown everywhere: its number and White's back rank, as letters and figurines.

import { h } from './dom';

const FIGURINES: Record<string, string> = {
  K: '♔',
  Q: '♕',
  R: '♖',
  B: '♗',
  N: '♘',
};

/** `RNBQKBNR` → `♖♘♗♕♔♗♘♖`. */
export function figurines(backRank: string): string {
  return [...backRank].map(letter => FIGURINES[letter] ?? letter).join('');
}

/** The start position's number and back rank, e.g. "#518 RNBQKBNR ♖♘♗♕♔♗♘♖". */
export function startLabel(id: number | null, backRank: string | null, className = 'start-label'): HTMLElement {
  if (backRank === null) {
    return h('span', { class: className }, h('span', { class: 'start-id' }, 'a set-up position'), ', not one of the 960 Chess960 starts');
  }
  return h(
    'span',
    { class: className, title: id === null ? 'set-up position' : `start position ${id}` },
    h('span', { class: 'start-id' }, id === null ? 'set-up' : `#${id}`),
    ' ',
    h('span', { class: 'back-rank-letters' }, backRank),
    ' ',
    h('span', { class: 'back-rank-figurines', 'aria-hidden': 'true' }, figurines(backRank)),
  );
}

/** The placement part of a start FEN for a back rank, for drawing a start position on a board. */
export function startPlacement(backRank: string): string {
  return `${backRank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${backRank}`;
}
