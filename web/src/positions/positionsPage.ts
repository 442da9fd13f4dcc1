// The positions page (/positions): all 960 start positions (searchable by number or back rank),
// the two-table form of the numbering, and the fairness table of the drawing methods.

import { api, describeError } from '../api';
import { figurines } from '../backRank';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import type { Fairness, Position, Tables } from '../types';

/** Matches a number exactly, or a back-rank pattern where '?' or '.' stands for any piece. */
export function matches(position: Position, query: string): boolean {
  const q = query.trim().toUpperCase();
  if (q === '') return true;
  if (/^\d+$/.test(q)) return position.id === Number.parseInt(q, 10);
  if (/[?.]/.test(q)) {
    const pattern = new RegExp(q.replace(/[^KQRBN?.]/g, '').replace(/\?/g, '.'));
    return pattern.test(position.back_rank);
  }
  return position.back_rank.includes(q);
}

function positionsList(
  positions: Position[],
  search: HTMLInputElement,
  count: HTMLElement,
  list: HTMLElement,
): void {
  const shown = positions.filter(p => matches(p, search.value));
  count.textContent = `${shown.length} of ${positions.length}`;
  fill(
    list,
    shown.map(p =>
      h(
        'li',
        { 'data-id': p.id },
        h('a', { class: 'start-id', href: `/positions/${p.id}`, title: `Start position ${p.id}: statistics and explorer` }, `#${p.id}`),
        h('span', { class: 'back-rank-letters' }, p.back_rank),
        h('span', { class: 'back-rank-figurines', 'aria-hidden': 'true' }, figurines(p.back_rank)),
        h('a', { class: 'play-link', href: `/?start=${p.id}`, 'aria-label': `Play start position ${p.id}` }, 'Play'),
      ),
    ),
  );
}

function tablesView(tables: Tables): HTMLElement {
  const ex = tables.example;
  return h(
    'div',
    { class: 'tables' },
    h(
      'p',
      {},
      `A start position's number is the sum of its row in the king table (the placement of Q, N, N, R, K, R on the six squares the bishops leave free) and its row in the bishop table. Example: ${ex.back_rank} is ${ex.king_row} + ${ex.bishop_row} = ${ex.id}.`,
    ),
    h(
      'div',
      { class: 'two-tables' },
      h(
        'table',
        { class: 'king-table' },
        h('caption', {}, 'King table'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Row'), h('th', { scope: 'col' }, 'Q, N, R, K on the free squares'))),
        h('tbody', {}, tables.king_table.map(r => h('tr', {}, h('td', { class: 'num' }, r.row), h('td', { class: 'mono' }, r.pieces)))),
      ),
      h(
        'table',
        { class: 'bishop-table' },
        h('caption', {}, 'Bishop table'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Row'), h('th', { scope: 'col' }, 'Bishops on'))),
        h('tbody', {}, tables.bishop_table.map(r => h('tr', {}, h('td', { class: 'num' }, r.row), h('td', {}, r.squares.join(', '))))),
      ),
    ),
  );
}

function fairnessView(fairness: Fairness): HTMLElement {
  return h(
    'table',
    { class: 'fairness' },
    h('caption', {}, 'How likely each start position is under each drawing method (1 = the fair 1/960)'),
    h(
      'thead',
      {},
      h('tr', {}, ['Method', 'Fair', 'P × 960', 'Positions', 'Which'].map(t => h('th', { scope: 'col' }, t))),
    ),
    h(
      'tbody',
      {},
      fairness.methods.flatMap(method =>
        method.classes.map((c, i) =>
          h(
            'tr',
            {},
            i === 0 ? h('th', { scope: 'row', rowspan: method.classes.length }, method.method) : null,
            i === 0 ? h('td', { rowspan: method.classes.length }, method.uniform ? 'yes' : 'no') : null,
            h('td', { class: 'num' }, c.times_960),
            h('td', { class: 'num' }, c.positions),
            h('td', {}, c.description),
          ),
        ),
      ),
    ),
  );
}

export function positionsPage(navigate: Navigate): Page {
  const search = h('input', {
    type: 'search',
    placeholder: 'Number, or back rank like RNBQKBNR, BB, or R?K?R',
    'aria-label': 'Search start positions',
    'data-testid': 'position-search',
  });
  const count = h('span', { class: 'muted', 'aria-live': 'polite' });
  const list = h('ol', { class: 'positions-list', 'data-testid': 'positions' });
  const tablesBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const fairnessBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const message = h('p', { class: 'message', role: 'alert' });
  let positions: Position[] = [];
  const show = (): void => positionsList(positions, search, count, list);

  search.addEventListener('input', show);
  api.positions().then(
    all => {
      positions = all;
      show();
    },
    error => (message.textContent = describeError(error)),
  );
  api.tables().then(
    tables => fill(tablesBox, tablesView(tables)),
    error => fill(tablesBox, describeError(error)),
  );
  api.fairness().then(
    fairness => fill(fairnessBox, fairnessView(fairness)),
    error => fill(fairnessBox, describeError(error)),
  );

  const el = h(
    'section',
    { class: 'positions-page' },
    h('h1', {}, 'Start positions'),
    h(
      'p',
      {},
      'All 960, numbered 0 to 959 (518 is the classical start). Black mirrors White. ',
      h(
        'a',
        {
          href: '/projector',
          onclick: (event: Event) => {
            event.preventDefault();
            navigate('/projector');
          },
        },
        'Projector view for the arbiter',
      ),
    ),
    message,
    h('div', { class: 'search-row' }, search, ' ', count),
    list,
    h('h2', {}, 'The two tables'),
    tablesBox,
    h('h2', {}, 'Fairness of the drawing methods'),
    fairnessBox,
  );
  return { el, title: 'Positions' };
}
