// The games page (/games): the autosaved games from the store, newest first, filtered by start
// position and result, a page of 50 at a time. A game opens on its own page to replay or go on.

import { api, describeError } from '../api';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';

const PAGE_SIZE = 50;

export function gamesPage(navigate: Navigate): Page {
  let offset = 0;
  const startInput = h('input', {
    type: 'number',
    min: 0,
    max: 959,
    name: 'start_id',
    placeholder: 'any',
    inputmode: 'numeric',
    'data-testid': 'filter-start',
  });
  const resultSelect = h(
    'select',
    { name: 'result', 'data-testid': 'filter-result' },
    h('option', { value: '' }, 'any'),
    h('option', { value: '1-0' }, '1-0 (White won)'),
    h('option', { value: '0-1' }, '0-1 (Black won)'),
    h('option', { value: '1/2-1/2' }, '½-½ (draw)'),
    h('option', { value: '*' }, '* (unfinished)'),
  );
  const message = h('p', { class: 'message', role: 'alert' });
  const table = h('div', { class: 'games-table', 'data-testid': 'games' });
  const pager = h('div', { class: 'pager' });

  async function load(): Promise<void> {
    message.textContent = '';
    const start = startInput.value.trim();
    try {
      const list = await api.games({
        start_id: start === '' ? undefined : Number.parseInt(start, 10),
        result: resultSelect.value || undefined,
        limit: PAGE_SIZE,
        offset,
      });
      fill(
        table,
        list.games.length === 0
          ? h('p', { class: 'muted' }, 'No saved games match.')
          : h(
              'table',
              {},
              h(
                'thead',
                {},
                h('tr', {}, ['Date', 'Start', 'White', 'Black', 'Result', 'Reason', 'Plies', ''].map(t => h('th', { scope: 'col' }, t))),
              ),
              h(
                'tbody',
                {},
                list.games.map(game => {
                  const href = `/game/${game.key}`;
                  return h(
                    'tr',
                    {},
                    h('td', {}, game.date),
                    h('td', {}, game.start_id === null ? 'set-up' : `#${game.start_id}`),
                    h('td', {}, game.white),
                    h('td', {}, game.black),
                    h('td', {}, game.result),
                    h('td', {}, game.reason ?? ''),
                    h('td', { class: 'num' }, game.plies),
                    h(
                      'td',
                      {},
                      h(
                        'a',
                        {
                          href,
                          'data-link': true,
                          onclick: (event: Event) => {
                            event.preventDefault();
                            navigate(href);
                          },
                        },
                        game.result === '*' ? 'Continue' : 'Replay',
                      ),
                    ),
                  );
                }),
              ),
            ),
      );
      const last = Math.min(offset + PAGE_SIZE, list.total);
      fill(
        pager,
        h('button', { type: 'button', disabled: offset === 0, onclick: () => ((offset = Math.max(0, offset - PAGE_SIZE)), void load()) }, '← Newer'),
        h('span', {}, list.total === 0 ? '0 games' : `${offset + 1}–${last} of ${list.total}`),
        h('button', { type: 'button', disabled: last >= list.total, onclick: () => ((offset += PAGE_SIZE), void load()) }, 'Older →'),
      );
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  const filters = h(
    'form',
    {
      class: 'filters',
      onsubmit: (event: Event) => {
        event.preventDefault();
        offset = 0;
        void load();
      },
    },
    h('label', {}, 'Start position ', startInput),
    h('label', {}, 'Result ', resultSelect),
    h('button', { type: 'submit' }, 'Filter'),
  );
  resultSelect.addEventListener('change', () => {
    offset = 0;
    void load();
  });
  void load();
  return { el: h('section', { class: 'games-page' }, h('h1', {}, 'Saved games'), filters, message, table, pager), title: 'Games' };
}
