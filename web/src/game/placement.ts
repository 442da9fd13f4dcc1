// Northam's placement as a game's start (the server's `placing.rs`): the two players place
// bishops, knights and queen on the back rank in turn, Black first; the king and the rooks then
// take the three squares left. This panel shows the rank so far, whose turn it is with the time
// left, and (for the player to place) the pieces and the files they may go on: every rule comes
// from the server's view (`legal`), nothing here knows them.

import { h } from '../dom';
import type { Color, Placement } from '../types';

const NAMES: Record<string, string> = { B: 'Bishop', N: 'Knight', Q: 'Queen' };
const SYMBOL: Record<string, string> = { B: '♗', N: '♘', Q: '♕', R: '♖', K: '♔' };

/** The position shown on the board while placing: the pieces placed so far, pawns in place. */
export function placementFen(rank: string): string {
  const row = (upper: boolean): string =>
    rank
      .replace(/\.+/g, dots => String(dots.length))
      .split('')
      .map(c => (/\d/.test(c) ? c : upper ? c.toUpperCase() : c.toLowerCase()))
      .join('');
  return `${row(false)}/pppppppp/8/8/8/8/PPPPPPPP/${row(true)} w - - 0 1`;
}

/** The panel; `place` sends a placement. `chosen` is the piece picked, kept by the page. */
export function placementPanel(
  placement: Placement,
  me: Color | null,
  chosen: string | null,
  since: number,
  actions: { pick: (piece: string | null) => void; place: (piece: string, file: string) => void },
): HTMLElement {
  const mine = me !== null && placement.to_place === me;
  const left = placement.ms_left === null ? null : Math.max(0, placement.ms_left - (performance.now() - since));
  const who = placement.to_place === null ? '' : placement.to_place === 'white' ? 'White' : 'Black';
  const turn = placement.to_place === null
    ? 'All pieces placed.'
    : `${mine ? 'Your turn' : `${who} places`}${left === null ? ' once both players are here' : `: ${Math.ceil(left / 1000)} s left`}.`;
  const pieces = [...new Set(placement.remaining)];
  const picked = chosen && pieces.includes(chosen) ? chosen : null;
  const files = picked ? placement.legal[picked] ?? [] : [];
  return h(
    'div',
    { class: 'placement', 'data-testid': 'placement' },
    h(
      'p',
      {},
      'Northam\'s placement: Black first, each player puts a bishop, knight or queen on a free square of the back rank ',
      '(the second bishop on the other colour); the king and the rooks then take the three squares left.',
    ),
    h(
      'ol',
      { class: 'placement-rank', 'aria-label': 'The back rank so far, a to h' },
      placement.rank.split('').map((c, i) =>
        h('li', { 'data-file': 'abcdefgh'[i] }, h('span', { class: 'file' }, 'abcdefgh'[i]), c === '.' ? '·' : (SYMBOL[c] ?? c)),
      ),
    ),
    h('p', { class: 'placement-turn', 'data-testid': 'placement-turn', 'aria-live': 'polite' }, turn),
    mine
      ? h(
          'div',
          { class: 'placement-choose' },
          h(
            'div',
            { role: 'group', 'aria-label': 'Piece to place' },
            pieces.map(p =>
              h(
                'button',
                {
                  type: 'button',
                  'data-testid': `place-piece-${p}`,
                  'aria-pressed': String(p === picked),
                  onclick: () => actions.pick(p === picked ? null : p),
                },
                `${SYMBOL[p] ?? ''} ${NAMES[p] ?? p}`,
              ),
            ),
          ),
          picked
            ? h(
                'div',
                { role: 'group', 'aria-label': 'File to place it on' },
                'on ',
                'abcdefgh'.split('').map(f =>
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-testid': `place-file-${f}`,
                      disabled: !files.includes(f),
                      onclick: () => actions.place(picked, f),
                    },
                    f,
                  ),
                ),
              )
            : h('p', { class: 'muted' }, 'Pick a piece, then its file.'),
        )
      : null,
    placement.placed.length > 0
      ? h(
          'ol',
          { class: 'placement-log', 'data-testid': 'placement-log' },
          placement.placed.map(p =>
            // White's piece goes on rank 1, Black's on the same file of rank 8.
            h('li', {}, `${p.player === 'white' ? 'White' : 'Black'}: ${NAMES[p.piece] ?? p.piece} → ${p.file}${p.player === 'white' ? '1' : '8'}`, p.auto ? ' (time ran out: placed by the server)' : ''),
          ),
        )
      : null,
  );
}

