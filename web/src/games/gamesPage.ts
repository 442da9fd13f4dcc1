// The games page (/games): the games being played now (to watch), refreshed every few seconds;
// then the autosaved games from the store, newest first, filtered by start
// position and result, a page of 50 at a time. A game opens on its own page to replay or go on,
// or is deleted (after a confirmation). Aborted games are left out unless the filter asks. On a
// phone each game is a card (style.css), so no field hides in a sideways-scrolling box.

import { api, describeError } from '../api';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import type { GameSummary, NowPlaying } from '../types';

const PAGE_SIZE = 50;
/** How often the list of games being played now is asked for again. */
const NOW_REFRESH_MS = 5000;

/** One game being played now: the players, the start, whose move, and a link to watch it. */
function nowLine(game: NowPlaying, navigate: Navigate): HTMLLIElement {
  const href = `/game/${game.key}`;
  const engine = (side: NowPlaying['sides']['white']): boolean => side.type === 'engine' || (side.type === 'outside' && side.program);
  const who = (name: string, side: NowPlaying['sides']['white']): string => (engine(side) ? `${name} (engine)` : name);
  return h(
    'li',
    { 'data-testid': 'now-playing', 'data-key': game.key },
    h(
      'a',
      {
        href,
        onclick: (event: Event) => {
          event.preventDefault();
          navigate(href);
        },
      },
      `${who(game.white, game.sides.white)} – ${who(game.black, game.sides.black)}`,
    ),
    h(
      'span',
      { class: 'muted' },
      ` · ${game.start_id === null ? 'set-up' : `#${game.start_id}`} · move ${Math.floor(game.plies / 2) + 1}, ${game.turn} to play`,
    ),
  );
}

/** The game's date, and the time of day it was stored when that was on the same date (a game
 * played here; an imported game's date is its PGN date, and its storing time says nothing). */
export function dateAndTime(game: GameSummary): { date: string; time: string } {
  if (game.created_ms === undefined) return { date: game.date, time: '' };
  const created = new Date(game.created_ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const local = `${created.getFullYear()}.${pad(created.getMonth() + 1)}.${pad(created.getDate())}`;
  const utc = `${created.getUTCFullYear()}.${pad(created.getUTCMonth() + 1)}.${pad(created.getUTCDate())}`;
  const time = game.date === local || game.date === utc ? `${pad(created.getHours())}:${pad(created.getMinutes())}` : '';
  return { date: game.date, time };
}

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
    h('option', { value: 'aborted' }, 'aborted'),
  );
  const message = h('p', { class: 'message', role: 'alert' });
  const now = h('div', { class: 'games-now', 'data-testid': 'games-now' });
  const table = h('div', { class: 'games-table', 'data-testid': 'games' });

  async function loadNow(): Promise<void> {
    try {
      const { games } = await api.gamesNow();
      fill(
        now,
        h('h2', {}, 'Being played now'),
        games.length === 0 ? h('p', { class: 'muted' }, 'No game is being played on this server now.') : h('ul', {}, games.map(g => nowLine(g, navigate))),
      );
    } catch {
      // the saved games below still show; the next refresh tries again
    }
  }
  void loadNow();
  const nowTimer = window.setInterval(() => void loadNow(), NOW_REFRESH_MS);
  const pager = h('div', { class: 'pager' });

  async function load(): Promise<void> {
    message.textContent = '';
    const start = startInput.value.trim();
    try {
      const aborted = resultSelect.value === 'aborted';
      const list = await api.games({
        start_id: start === '' ? undefined : Number.parseInt(start, 10),
        result: aborted ? undefined : resultSelect.value || undefined,
        aborted: aborted ? 'only' : undefined,
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
                  const { date, time } = dateAndTime(game);
                  const cell = (label: string, ...content: (string | number | Node)[]): HTMLTableCellElement =>
                    h('td', { 'data-label': label }, ...content);
                  return h(
                    'tr',
                    { 'data-testid': 'game-row', 'data-key': game.key },
                    cell('Date', date, time ? h('span', { class: 'time', 'data-testid': 'game-time' }, time) : ''),
                    cell('Start', game.start_id === null ? 'set-up' : `#${game.start_id}`),
                    cell('White', game.white),
                    cell('Black', game.black),
                    cell('Result', game.result),
                    cell('Reason', game.reason ?? ''),
                    cell('Plies', game.plies),
                    h(
                      'td',
                      { class: 'actions-cell' },
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
                        game.result === '*' && game.reason !== 'aborted' ? 'Continue' : 'Replay',
                      ),
                      h('a', { href: `/analysis?game=${game.key}`, 'data-testid': 'analyse-game' }, 'Analyse'),
                      h(
                        'button',
                        {
                          type: 'button',
                          class: 'link danger',
                          'data-testid': 'delete-game',
                          onclick: () => void remove(game),
                        },
                        'Delete',
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

  async function remove(game: GameSummary): Promise<void> {
    const who = `${game.white} – ${game.black}, ${game.date}${game.start_id === null ? '' : `, #${game.start_id}`}`;
    if (!window.confirm(`Delete this game for good?\n${who}`)) return;
    try {
      await api.deleteGame(game.key);
      await load();
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
  return {
    el: h('section', { class: 'games-page' }, now, h('h1', {}, 'Saved games'), filters, message, table, pager),
    title: 'Games',
    dispose: () => window.clearInterval(nowTimer),
  };
}
