// The single-page app: picks the page for the URL (the server answers index.html for /, /games,
// /positions, /positions/<id>, /projector, /analysis, /events, /events/<key> (and its /projector
// and /print), /game/<key>, /players, /@/<name>, /login, /register, /account, /settings and /editor) and navigates
// between pages without reloading.

import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';

import { h } from './dom';
import { accountNav } from './accounts/accountNav';
import { accountPage } from './accounts/accountPage';
import { loginPage } from './accounts/loginPage';
import { registerPage } from './accounts/registerPage';
import { analysisPage } from './analysis/analysisPage';
import { editorPage } from './editor/editorPage';
import { eventPage } from './events/eventPage';
import { eventPrint } from './events/eventPrint';
import { eventProjector } from './events/eventProjector';
import { eventsPage } from './events/eventsPage';
import { gamePage } from './game/gamePage';
import { gamesPage } from './games/gamesPage';
import { newGamePage } from './home/newGamePage';
import type { Page } from './page';
import { leaderboardPage } from './players/leaderboardPage';
import { playerPage } from './players/playerPage';
import { positionPage } from './positions/positionPage';
import { positionsPage } from './positions/positionsPage';
import { projectorPage } from './positions/projectorPage';
import { rememberSeat } from './seats';
import { applySettings, onSettings, saveSettings, settings } from './settings/settings';
import { settingsPage } from './settings/settingsPage';

const main = h('main', { id: 'main' });
let current: Page | null = null;

const NAV: [string, string][] = [
  ['/', 'New game'],
  ['/games', 'Games'],
  ['/positions', 'Positions'],
  ['/projector', 'Projector'],
  ['/analysis', 'Analyse'],
  ['/editor', 'Editor'],
  ['/events', 'Events'],
  ['/players', 'Players'],
];

/** Opens the page at `path` (with its query) as a new history entry, from its top. Back and
 * forward (popstate) only route: the browser restores their scroll positions itself. */
function navigate(path: string): void {
  if (path !== location.pathname + location.search + location.hash) history.pushState(null, '', path);
  route();
  window.scrollTo(0, 0);
}

function pageFor(path: string): Page {
  // Any key: the game page says "No such game" for one that names none.
  const game = /^\/game\/([^/]{1,100})\/?$/.exec(path);
  if (game?.[1]) {
    // A player's link from an event (`#seat=<token>&color=white`): the seat is this browser's
    // from now on, and the token leaves the address bar.
    const seat = /^#seat=([0-9a-f]{32})(?:&color=(white|black))?$/.exec(location.hash);
    if (seat?.[1]) {
      rememberSeat(game[1], seat[1], seat[2] === 'white' || seat[2] === 'black' ? seat[2] : undefined);
      history.replaceState(null, '', location.pathname + location.search);
    }
    return gamePage(game[1]);
  }
  const event = /^\/events\/([0-9a-f]{32})(\/projector|\/print)?\/?$/.exec(path);
  if (event?.[1]) {
    if (event[2] === '/projector') return eventProjector(event[1]);
    if (event[2] === '/print') return eventPrint(event[1], Number(new URLSearchParams(location.search).get('round') ?? '1'));
    return eventPage(event[1]);
  }
  // An account name is 2 to 20 letters, digits, _ and -; the page says when there is none.
  const player = /^\/@\/([^/]{1,60})\/?$/.exec(path);
  if (player?.[1]) return playerPage(decodePath(player[1]));
  const position = /^\/positions\/(\d{1,3})\/?$/.exec(path);
  if (position?.[1]) {
    const n = Number(position[1]);
    // 960 is 0, as everywhere else (the CLI, the API, the new-game form): the address says 0.
    if (n === 960) {
      history.replaceState(null, '', `/positions/0${location.search}${location.hash}`);
      return positionPage(0, navigate);
    }
    if (n <= 959) return positionPage(n, navigate);
  }
  switch (path.replace(/\/$/, '') || '/') {
    case '/':
      return newGamePage(navigate);
    case '/games':
      return gamesPage(navigate);
    case '/positions':
      return positionsPage(navigate);
    case '/projector':
      return projectorPage();
    case '/events':
      return eventsPage(navigate);
    case '/analysis':
      return analysisPage(new URLSearchParams(location.search));
    case '/editor':
      return editorPage(new URLSearchParams(location.search), navigate);
    case '/players':
      return leaderboardPage();
    case '/login':
      return loginPage(navigate);
    case '/register':
      return registerPage(navigate);
    case '/account':
      return accountPage(navigate);
    case '/settings':
      return settingsPage();
    default:
      return {
        el: h('section', {}, h('h1', {}, 'Not found'), h('p', {}, `There is no page at ${path}.`)),
        title: 'Not found',
      };
  }
}

/** A part of the path as typed (`%41` is `A`); one that is no valid escape stays as it is. */
function decodePath(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function route(): void {
  current?.dispose?.();
  current = pageFor(location.pathname);
  document.title = `${current.title} · chess960`;
  document.body.classList.toggle('projector', location.pathname.startsWith('/projector') || location.pathname.endsWith('/projector'));
  document.body.classList.toggle('print-page', location.pathname.endsWith('/print'));
  accounts.update();
  for (const link of document.querySelectorAll<HTMLAnchorElement>('header nav a, header a.settings-link')) {
    if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  main.replaceChildren(current.el);
}

applySettings();

/** A speaker, with waves when sound is on and crossed out when off: drawn, since not every
 * system has a font with the emoji. */
function speakerIcon(on: boolean): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d: string, fill: boolean): void => {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', fill ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    p.setAttribute('stroke-linejoin', 'round');
    svg.append(p);
  };
  path('M4 9h4l5-4v14l-5-4H4z', true);
  if (on) path('M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11', false);
  else path('M16 9l5 6M21 9l-5 6', false);
  return svg;
}

/** The header's mute switch: sound on or off on every page at once (the setting of /settings). */
function soundToggle(): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'sound-toggle', 'data-testid': 'sound-toggle', onclick: () => saveSettings({ sound: !settings().sound }) });
  const show = (): void => {
    const on = settings().sound;
    button.replaceChildren(speakerIcon(on));
    button.title = on ? 'Sound is on: click to mute' : 'Sound is off: click to hear moves, captures, checks and the end';
    // A toggle named for what pressing does: "Mute", pressed while muted.
    button.setAttribute('aria-label', 'Mute');
    button.setAttribute('aria-pressed', on ? 'false' : 'true');
  };
  show();
  onSettings(show);
  return button;
}

const accounts = accountNav();
const header = h(
  'header',
  { class: 'site-header' },
  h('a', { class: 'brand', href: '/' }, 'chess960'),
  h(
    'nav',
    { 'aria-label': 'Main' },
    NAV.map(([path, label]) => h('a', { href: path }, label)),
  ),
  accounts.el,
  soundToggle(),
  h('a', { class: 'settings-link', href: '/settings', title: 'Settings: board, pieces, sound, dark pages', 'aria-label': 'Settings', 'data-testid': 'nav-settings' }, '⚙'),
);
// Plain left clicks on same-site links stay in the app; others (new tab, download) go to the browser.
document.addEventListener('click', event => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest('a');
  if (!link || link.origin !== location.origin || link.hasAttribute('download') || link.target) return;
  if (link.pathname.startsWith('/api/')) return;
  event.preventDefault();
  navigate(link.pathname + link.search + link.hash);
});
window.addEventListener('popstate', route);
document.body.append(header, main);
route();
