// The moves in SAN, numbered in pairs; each is a button that shows the position after it.

import { h } from '../dom';
import type { PlayedMove } from '../types';

export function moveList(
  moves: PlayedMove[],
  first: { number: number; black: boolean },
  shownPly: number,
  select: (ply: number) => void,
): HTMLElement {
  const list = h('ol', { class: 'moves', 'aria-label': 'Moves' });
  let row: HTMLElement | null = null;
  moves.forEach((move, index) => {
    const ply = index + 1;
    const black = (index + (first.black ? 1 : 0)) % 2 === 1;
    const number = first.number + Math.floor((index + (first.black ? 1 : 0)) / 2);
    if (!row || !black) {
      row = h('li', {}, h('span', { class: 'move-number' }, `${number}.`));
      if (black) row.append(h('span', { class: 'move-blank' }, '…'));
      list.append(row);
    }
    row.append(
      h(
        'button',
        {
          type: 'button',
          class: 'move',
          'data-ply': ply,
          'aria-current': ply === shownPly ? 'step' : null,
          onclick: () => select(ply),
        },
        move.san,
      ),
    );
  });
  return list;
}
