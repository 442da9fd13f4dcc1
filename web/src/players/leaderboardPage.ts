// The players by rating (/players?speed=blitz): one tab per speed class, the best first, each
// name a link to the player's page. Provisional ratings are marked "?" as everywhere.

import { api, describeError } from '../api';
import { fill, h } from '../dom';
import type { Page } from '../page';
import { isSpeed, ratingText, SPEEDS, speedLabel } from '../rating';
import type { Leaderboard, Speed } from '../types';
import './players.css';

export function leaderboardPage(): Page {
  const asked = new URLSearchParams(location.search).get('speed');
  let speed: Speed = isSpeed(asked) ? asked : 'blitz';
  let disposed = false;
  let request = 0;
  const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Speed class' });
  const panel = h('div', { role: 'tabpanel', id: 'leaderboard-panel', 'data-testid': 'leaderboard' });

  const table = (board: Leaderboard): HTMLElement =>
    board.players.length === 0
      ? h('p', { class: 'muted', 'data-testid': 'leaderboard-empty' }, `No ${board.speed} game has been rated yet.`)
      : h(
          'table',
          { class: 'leaderboard-table' },
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Rating'), h('th', { scope: 'col', class: 'num' }, 'Games')),
          ),
          h(
            'tbody',
            {},
            board.players.map((p, i) =>
              h(
                'tr',
                { 'data-testid': 'leader' },
                h('td', { class: 'num' }, i + 1),
                h('td', {}, h('a', { href: `/@/${encodeURIComponent(p.name)}` }, p.name)),
                h('td', { class: 'num', title: `±${p.deviation}${p.provisional ? ', provisional' : ''}` }, ratingText(p)),
                h('td', { class: 'num' }, p.games),
              ),
            ),
          ),
        );

  const load = (): void => {
    const mine = ++request;
    fill(
      tabs,
      SPEEDS.map(s =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            'aria-selected': s === speed ? 'true' : 'false',
            'aria-controls': 'leaderboard-panel',
            'data-testid': `tab-${s}`,
            onclick: () => {
              if (s === speed) return;
              speed = s;
              history.replaceState(null, '', `/players?speed=${s}`);
              load();
            },
          },
          speedLabel(s),
        ),
      ),
    );
    fill(panel, h('p', { class: 'muted' }, 'Loading…'));
    api.leaderboard(speed).then(
      board => !disposed && mine === request && fill(panel, table(board)),
      error => !disposed && mine === request && fill(panel, h('p', { class: 'message', role: 'alert' }, describeError(error))),
    );
  };
  load();
  return {
    el: h(
      'section',
      { class: 'players-page' },
      h('h1', {}, 'Players'),
      h('p', { class: 'muted' }, 'The best rated players of each speed class (by the estimated duration of a game: initial time + 40 × increment). A rating with ? is provisional.'),
      tabs,
      panel,
    ),
    title: 'Players',
    dispose: () => {
      disposed = true;
    },
  };
}
