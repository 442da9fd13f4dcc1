// The explorer's table of moves (`GET /api/explorer`), shared by the page of a start position and
// the analysis board: each move played from the position in the stored games with its count,
// share, White / draw / Black bar and White's score; a click on a move plays it.

import { request } from '../api';
import { h } from '../dom';
import type { Explorer, ExplorerResults } from '../types';

export const percent = (n: number, of: number): string => (of > 0 ? `${Math.round((100 * n) / of)}%` : '–');
export const score = (s: number | null): string => (s === null ? '–' : s.toFixed(2));

/** A White / draw / Black bar for finished games, with the percentages written where they fit. */
export function resultBar(r: ExplorerResults): HTMLElement {
  const finished = r.white + r.draws + r.black;
  const part = (cls: string, n: number, label: string): HTMLElement | null =>
    n === 0
      ? null
      : h(
          'span',
          { class: `part ${cls}`, style: `flex-grow:${n}`, title: `${label}: ${n} (${percent(n, finished)})` },
          (100 * n) / finished >= 12 ? percent(n, finished) : '',
        );
  if (finished === 0) return h('span', { class: 'result-bar empty' }, 'no result yet');
  return h(
    'span',
    { class: 'result-bar', role: 'img', 'aria-label': `White ${percent(r.white, finished)}, draws ${percent(r.draws, finished)}, Black ${percent(r.black, finished)}` },
    part('white', r.white, 'White wins'),
    part('draw', r.draws, 'Draws'),
    part('black', r.black, 'Black wins'),
  );
}

/** The moves of the position as a table (or a line saying that no stored game reached it). */
export function movesView(e: Explorer, play: (uci: string, san: string) => void): HTMLElement {
  const row = (label: HTMLElement | string, r: ExplorerResults, testid: string): HTMLElement =>
    h(
      'tr',
      { 'data-testid': testid },
      h('th', { scope: 'row' }, label),
      h('td', { class: 'num games' }, r.games),
      h('td', { class: 'num' }, percent(r.games, e.total.games)),
      h('td', { class: 'bar-cell' }, resultBar(r)),
      h('td', { class: 'num', title: "White's average score over the finished games" }, score(r.score)),
    );
  if (e.total.games === 0) {
    return h('p', { class: 'muted', 'data-testid': 'explorer-empty' }, 'No stored game reached this position yet. Play one, or import a PGN with ', h('code', {}, 'chess960 db import'), '.');
  }
  return h(
    'table',
    { class: 'explorer-moves', 'data-testid': 'explorer-moves' },
    h('thead', {}, h('tr', {}, ['Move', 'Games', '%', 'White / draw / Black', 'Score'].map(t => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      e.moves.map(m =>
        row(
          h('button', { type: 'button', class: 'link move-san', 'data-uci': m.uci, onclick: () => play(m.uci, m.san), title: `Play ${m.san}` }, m.san),
          m,
          `move-${m.uci}`,
        ),
      ),
      e.ended.games > 0 ? row(h('span', { class: 'muted' }, 'game ended'), e.ended, 'ended') : null,
    ),
    h('tfoot', {}, row('Total', e.total, 'explorer-total')),
  );
}

/** The explorer of any position: `fen` (a start's or any other) followed by `moves`. */
export function explorerOfFen(fen: string, moves: string[], games = 0): Promise<Explorer> {
  const query = new URLSearchParams({ fen, games: String(games) });
  if (moves.length > 0) query.set('moves', moves.join(','));
  return request<Explorer>('GET', `/api/explorer?${query.toString()}`);
}
