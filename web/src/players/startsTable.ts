// A player's results per start position (`GET /api/players/{name}/starts`): a table sortable by
// games or score, the best and worst positions marked (in words, not by colour alone), each
// start linking to the explorer of that position restricted to the player's games; and their
// score by the way they castled (short, long, not at all).

import { fill, h } from '../dom';
import { figurines } from '../backRank';
import type { PlayerStarts, ResultCount, StartResults } from '../types';

type SortKey = 'games' | 'score';

/** Points scored out of games, "1.5 / 3 (50%)". */
export function scoreText(r: ResultCount): string {
  if (r.games === 0) return '–';
  return `${points(r.score)} / ${r.games} (${Math.round((100 * r.score) / r.games)}%)`;
}

/** "1.5", "2", "½". */
function points(score: number): string {
  if (score === 0.5) return '½';
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}

const share = (r: ResultCount): number => (r.games === 0 ? 0 : r.score / r.games);

export function startsView(starts: PlayerStarts): HTMLElement {
  if (starts.starts.length === 0) return h('p', { class: 'muted', 'data-testid': 'starts-empty' }, 'No finished game yet.');
  let sort: SortKey = 'games';
  const table = h('table', { class: 'starts-table card-table', 'data-testid': 'starts-table' });
  const best = new Set(starts.best);
  const worst = new Set(starts.worst);

  // The sort is chosen above the table, where a phone shows it too (its rows are cards there).
  const sorter = h('div', { class: 'sorter', role: 'group', 'aria-label': 'Sort the start positions' });
  const header = (key: SortKey, label: string): HTMLTableCellElement =>
    h('th', { scope: 'col', class: 'num', 'aria-sort': sort === key ? 'descending' : null }, label, sort === key ? ' ▼' : '');

  const row = (s: StartResults): HTMLTableRowElement => {
    const mark = best.has(s.start_id) ? 'best' : worst.has(s.start_id) ? 'worst' : null;
    const explorer = `/positions/${s.start_id}?${new URLSearchParams({ account: starts.name }).toString()}`;
    return h(
      'tr',
      { 'data-testid': 'start-row', 'data-start': s.start_id, class: mark },
      h(
        'td',
        { 'data-label': 'Start' },
        h('a', { href: explorer, title: `The explorer of start position ${s.start_id}, ${starts.name}'s games only` }, `#${s.start_id}`),
        mark ? h('span', { class: `start-mark ${mark}`, 'data-testid': `start-${mark}` }, mark === 'best' ? 'best' : 'worst') : null,
      ),
      h(
        'td',
        { 'data-label': 'Back rank' },
        // One piece of text, so that on a phone the figurines wrap under the letters.
        h('span', {}, h('span', { class: 'back-rank-letters' }, s.back_rank), ' ', h('span', { class: 'back-rank-figurines', 'aria-hidden': 'true' }, figurines(s.back_rank))),
      ),
      h('td', { class: 'num', 'data-label': 'Games' }, s.games),
      h('td', { class: 'num', 'data-label': 'Won / drawn / lost' }, `${s.wins} / ${s.draws} / ${s.losses}`),
      h('td', { class: 'num', 'data-label': 'Score' }, scoreText(s)),
      h('td', { class: 'num', 'data-label': 'Performance', title: 'Performance rating over the rated games from this start' }, s.performance ?? '–'),
    );
  };

  const draw = (): void => {
    fill(
      sorter,
      'Sort by ',
      ([['games', 'most games'], ['score', 'best score']] as const).map(([key, label]) =>
        h('button', { type: 'button', 'aria-pressed': sort === key ? 'true' : 'false', 'data-testid': `sort-${key}`, onclick: () => ((sort = key), draw()) }, label),
      ),
    );
    const sorted = [...starts.starts].sort((a, b) =>
      sort === 'games' ? b.games - a.games || share(b) - share(a) : share(b) - share(a) || b.games - a.games || a.start_id - b.start_id,
    );
    fill(
      table,
      h('caption', {}, `${starts.games} finished game${starts.games === 1 ? '' : 's'} from ${starts.starts.length} start position${starts.starts.length === 1 ? '' : 's'}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Start'),
          h('th', { scope: 'col' }, 'Back rank'),
          header('games', 'Games'),
          h('th', { scope: 'col', class: 'num' }, 'W / D / L'),
          header('score', 'Score'),
          h('th', { scope: 'col', class: 'num' }, 'Perf.'),
        ),
      ),
      h('tbody', {}, sorted.map(row)),
    );
  };
  draw();

  const castling = ([['short', 'Castled short (O-O)'], ['long', 'Castled long (O-O-O)'], ['none', 'Did not castle']] as const).map(([key, label]) => {
    const r = starts.castling[key];
    return h(
      'tr',
      { 'data-testid': `castling-${key}` },
      h('th', { scope: 'row' }, label),
      h('td', { class: 'num', 'data-label': 'Games' }, r.games),
      h('td', { class: 'num', 'data-label': 'Won / drawn / lost' }, `${r.wins} / ${r.draws} / ${r.losses}`),
      h('td', { class: 'num', 'data-label': 'Score' }, scoreText(r)),
    );
  });

  return h(
    'div',
    { class: 'player-starts' },
    h(
      'p',
      { class: 'muted' },
      'Score is in points (a win 1, a draw ½). ',
      starts.best.length > 0 ? 'Marked: the best and worst start positions by score. ' : '',
      'A start opens the explorer of that position with these games only.',
    ),
    sorter,
    table,
    h('h3', {}, 'By castling'),
    h(
      'table',
      { class: 'castling-table card-table', 'data-testid': 'castling-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), h('th', { scope: 'col', class: 'num' }, 'Games'), h('th', { scope: 'col', class: 'num' }, 'W / D / L'), h('th', { scope: 'col', class: 'num' }, 'Score'))),
      h('tbody', {}, castling),
    ),
  );
}
