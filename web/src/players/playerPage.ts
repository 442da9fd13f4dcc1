// A player's page (/@/<name>), as lichess has one: their rating in each speed class with its
// history as a chart, their games (newest first, a page at a time), and their results per start
// position and by castling. An unknown name is "No such player".

import { api, ApiError, describeError } from '../api';
import { knownUser, onAccount, sameName } from '../account';
import { fill, h } from '../dom';
import { dateAndTime } from '../games/gamesPage';
import type { Page } from '../page';
import { ratingText, speedLabel } from '../rating';
import type { GameSummary, Player, PlayerRating } from '../types';
import { ratingChart } from './ratingChart';
import { startsView } from './startsTable';
import './players.css';

const PAGE_SIZE = 20;

function ratingCard(r: PlayerRating, index: number): HTMLElement {
  return h(
    'article',
    { class: 'rating-card', 'data-testid': `rating-${r.speed}` },
    h('h3', {}, speedLabel(r.speed)),
    h(
      'p',
      { class: 'rating-now' },
      h('strong', { class: 'rating-big', 'data-testid': 'rating-value' }, ratingText(r)),
      ' ',
      h('span', { class: 'muted', title: 'Rating deviation: how sure the rating is (lower is surer)' }, `±${r.deviation}`),
      ' · ',
      h('span', { class: 'muted' }, `${r.games} rated game${r.games === 1 ? '' : 's'}`),
      r.provisional ? h('span', { class: 'muted' }, ' · provisional') : null,
    ),
    r.history.length > 0 ? ratingChart(r.speed, r.history, `chart-${index}`) : null,
  );
}

/** The player's result in a game: "won", "lost", "drawn", or the game's state. */
function outcome(game: GameSummary, name: string): string {
  const white = sameName(game.white, name);
  const black = sameName(game.black, name);
  if (game.result === '1/2-1/2') return 'drawn';
  if (game.result === '*') return game.reason === 'aborted' ? 'aborted' : 'playing';
  if (!white && !black) return game.result;
  return (game.result === '1-0') === white ? 'won' : 'lost';
}

export function playerPage(name: string): Page {
  let disposed = false;
  let offset = 0;
  /** The name as its owner wrote it, once the server has said. */
  let canonical = name;
  const title = h('h1', {}, name);
  const about = h('p', { class: 'muted', 'data-testid': 'player-about' });
  const own = h('p', {});
  const ratings = h('div', { class: 'rating-cards', 'data-testid': 'ratings' });
  const games = h('div', { class: 'games-table', 'data-testid': 'player-games' });
  // The games can be narrowed to a result and a start position, as the games page's list.
  const resultFilter = h(
    'select',
    { 'aria-label': 'Result', 'data-testid': 'player-games-result', onchange: () => ((offset = 0), void loadGames()) },
    h('option', { value: '' }, 'Any result'),
    h('option', { value: '1-0' }, 'White won (1-0)'),
    h('option', { value: '0-1' }, 'Black won (0-1)'),
    h('option', { value: '1/2-1/2' }, 'Drawn (½-½)'),
    h('option', { value: '*' }, 'Not finished'),
  );
  const startFilter = h('input', {
    type: 'number',
    min: 0,
    max: 959,
    placeholder: 'start no.',
    'aria-label': 'Start position number',
    'data-testid': 'player-games-start',
    onchange: () => ((offset = 0), void loadGames()),
  });
  const gamesFilter = h('div', { class: 'games-filter' }, resultFilter, ' ', startFilter);
  const gamesNote = h('p', { class: 'message', role: 'alert' });
  const pager = h('div', { class: 'pager' });
  const starts = h('div', { 'data-testid': 'player-starts' }, h('p', { class: 'muted' }, 'Loading…'));
  const body = h(
    'div',
    {},
    own,
    h('h2', {}, 'Ratings'),
    ratings,
    h('h2', {}, 'Games'),
    gamesFilter,
    gamesNote,
    games,
    pager,
    h('h2', {}, 'Results by start position'),
    starts,
  );
  const el = h('section', { class: 'player-page', 'data-testid': 'player-page' }, title, about, body);

  const showOwn = (): void => {
    const me = knownUser();
    fill(own, me && sameName(me.name, name) ? ['This is your page. ', h('a', { href: '/account' }, 'Your account'), ': sessions and password.'] : []);
  };
  const stopAccount = onAccount(showOwn);

  const loadGames = async (): Promise<void> => {
    try {
      const start = startFilter.value.trim() === '' ? undefined : Number(startFilter.value) % 960;
      const list = await api.games({ account: canonical, result: resultFilter.value || undefined, start_id: start, limit: PAGE_SIZE, offset });
      if (disposed) return;
      gamesNote.textContent = '';
      fill(games, list.games.length === 0 ? h('p', { class: 'muted' }, 'No games yet.') : gamesTable(list.games, canonical));
      const last = Math.min(offset + PAGE_SIZE, list.total);
      fill(
        pager,
        h('button', { type: 'button', disabled: offset === 0, onclick: () => ((offset = Math.max(0, offset - PAGE_SIZE)), void loadGames()) }, '← Newer'),
        h('span', { 'data-testid': 'player-games-count' }, list.total === 0 ? '0 games' : `${offset + 1}–${last} of ${list.total}`),
        h('button', { type: 'button', disabled: last >= list.total, onclick: () => ((offset += PAGE_SIZE), void loadGames()) }, 'Older →'),
      );
    } catch (error) {
      if (!disposed) gamesNote.textContent = describeError(error);
    }
  };

  const show = (player: Player): void => {
    canonical = player.name;
    fill(title, player.name);
    document.title = `${player.name} · chess960`;
    const since = new Date(player.created_ms).toLocaleDateString([], { year: 'numeric', month: 'long', day: 'numeric' });
    fill(about, `Player since ${since}.`, player.disabled ? ' This account is disabled.' : '');
    fill(
      ratings,
      player.ratings.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'no-ratings' }, 'No rated game yet.')
        : player.ratings.map((r, i) => ratingCard(r, i)),
    );
    void loadGames();
    api.playerStarts(player.name).then(
      s => !disposed && fill(starts, startsView(s)),
      error => !disposed && fill(starts, h('p', { class: 'message', role: 'alert' }, describeError(error))),
    );
  };

  api.player(name).then(
    player => !disposed && show(player),
    error => {
      if (disposed) return;
      if (error instanceof ApiError && error.status === 404) {
        fill(title, 'No such player');
        fill(about, `There is no player named “${name}” on this server.`);
        fill(body, h('p', {}, h('a', { href: '/players' }, 'The players'), ' by rating.'));
        document.title = 'No such player · chess960';
        return;
      }
      fill(about);
      fill(body, h('p', { class: 'message', role: 'alert' }, describeError(error)));
    },
  );
  return {
    el,
    title: name,
    dispose: () => {
      disposed = true;
      stopAccount();
    },
  };
}

/** The player's games as the games page lists them, with their own result. */
function gamesTable(list: GameSummary[], name: string): HTMLElement {
  const cell = (label: string, ...content: (string | number | Node)[]): HTMLTableCellElement => h('td', { 'data-label': label }, ...content);
  // The list does not say which names are accounts (a guest may be called anything): only the
  // player's own is marked.
  const who = (player: string): Node | string => (sameName(player, name) ? h('strong', {}, player) : player);
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ['Date', 'Start', 'White', 'Black', 'Result', 'Reason', 'Moves', ''].map(t => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      list.map(game => {
        const href = `/game/${game.key}`;
        const { date, time } = dateAndTime(game);
        const mine = outcome(game, name);
        return h(
          'tr',
          { 'data-testid': 'player-game', 'data-key': game.key },
          cell('Date', date, time ? h('span', { class: 'time' }, time) : ''),
          cell('Start', game.start_id === null ? 'set-up' : `#${game.start_id}`),
          cell('White', who(game.white)),
          cell('Black', who(game.black)),
          cell('Result', `${game.result} `, h('span', { class: `outcome ${mine}` }, `(${mine})`)),
          cell('Reason', game.reason ?? ''),
          cell('Moves', Math.ceil(game.plies / 2)),
          h('td', { class: 'actions-cell' }, h('a', { href }, game.result === '*' && game.reason !== 'aborted' ? 'Open' : 'Replay')),
        );
      }),
    ),
  );
}
