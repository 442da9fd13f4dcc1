// The lobby on the home page: the open challenges anyone may accept, live from the server's
// `/api/lobby/ws` (the whole list on each change). Accepting one joins it, as its link does.
// Each says whether it is rated and its creator's rating; a rating range (remembered in this
// browser) hides the challenges of players outside it. A rated challenge needs an account.

import { account, knownUser, loginHref, onAccount, sameName } from '../account';
import { api, ApiError, describeError, sentence } from '../api';
import { startLabel } from '../backRank';
import { fill, h } from '../dom';
import { playerName } from '../playerName';
import { ratingText } from '../rating';
import { seatOf } from '../seats';
import { formatTimeControl } from '../timeControl';
import type * as edge from '../generated/api';

/** One challenge as the server lists it. */
export type LobbyEntry = edge.LobbyEntry;

const RANGE_KEY = 'chess960.lobbyRange';

/** The creator ratings shown: either end may be open. */
interface Range {
  min: number | null;
  max: number | null;
}

export function loadRange(): Range {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(RANGE_KEY) ?? '{}');
    const end = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    return stored && typeof stored === 'object' ? { min: end((stored as Range).min), max: end((stored as Range).max) } : { min: null, max: null };
  } catch {
    return { min: null, max: null };
  }
}

function saveRange(range: Range): void {
  try {
    if (range.min === null && range.max === null) localStorage.removeItem(RANGE_KEY);
    else localStorage.setItem(RANGE_KEY, JSON.stringify(range));
  } catch {
    // storage disabled: the range holds for this page
  }
}

/** Whether a challenge shows under the range: while one is set, only creators rated within it. */
export function inRange(entry: LobbyEntry, range: Range): boolean {
  if (range.min === null && range.max === null) return true;
  const rating = entry.rating?.rating;
  if (rating === undefined) return false;
  return (range.min === null || rating >= range.min) && (range.max === null || rating <= range.max);
}

/** The lobby's panel and its socket; `dispose` closes the socket. */
export function lobbyPanel(navigate: (path: string) => void): { el: HTMLElement; dispose: () => void } {
  const list = h('ul', { class: 'lobby-list' });
  const note = h('p', { class: 'muted', 'aria-live': 'polite', 'data-testid': 'lobby-note' }, 'Connecting…');
  let socket: WebSocket | null = null;
  let closed = false;
  let retry: number | undefined;
  let retryMs = 500;
  let challenges: LobbyEntry[] | null = null;
  const range = loadRange();

  const needAccount = (key: string, text = 'A rated game needs an account.'): void =>
    fill(note, text, ' ', h('a', { href: loginHref(`/game/${key}`), 'data-testid': 'lobby-login' }, 'Log in'), ' or ', h('a', { href: loginHref(`/game/${key}`, 'register') }, 'register'), ' to play it.');

  const accept = async (entry: LobbyEntry): Promise<void> => {
    if (entry.rated) {
      // A guest is told at once; the server refuses them anyway (403 rated_needs_account).
      const user = await account().then(a => a.user, () => null);
      if (!user) {
        needAccount(entry.key);
        return;
      }
    }
    try {
      await api.join(entry.key, playerName() || undefined);
      navigate(`/game/${entry.key}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rated_needs_account') needAccount(entry.key, sentence(error.message));
      else note.textContent = describeError(error);
    }
  };

  const show = (): void => {
    if (challenges === null) return;
    const shown = challenges.filter(c => inRange(c, range));
    const hidden = challenges.length - shown.length;
    note.textContent =
      challenges.length === 0
        ? 'No open challenges yet. To open one, choose “A friend” as your opponent and tick “List it in the lobby too”.'
        : hidden > 0
          ? `${hidden} challenge${hidden === 1 ? '' : 's'} outside your rating range ${hidden === 1 ? 'is' : 'are'} hidden (unrated players’ too, while a range is set).`
          : '';
    const me = knownUser();
    fill(
      list,
      shown.map(c => {
        const mine = seatOf(c.key) !== undefined || sameName(c.account, me?.name);
        const other = c.color === 'white' ? 'Black' : 'White';
        // The parts are apart by the layout's gaps, each kept whole: a part that wraps to the
        // next line never leaves a separator dangling. The " · " stay in the text (copied,
        // read by a program) but are not drawn.
        const sep = (): HTMLElement => h('span', { class: 'lobby-sep', 'aria-hidden': 'true' }, ' · ');
        return h(
          'li',
          { 'data-key': c.key, 'data-testid': 'lobby-entry', 'data-rated': c.rated ? 'true' : 'false' },
          h(
            'span',
            { class: 'lobby-parts' },
            h(
              'span',
              { class: 'lobby-name lobby-part' },
              c.account ? h('a', { href: `/@/${encodeURIComponent(c.account)}` }, c.name) : c.name,
              c.rating ? h('span', { class: 'rating-value', 'data-testid': 'lobby-rating', title: c.rating.provisional ? 'Provisional rating' : 'Rating' }, ` ${ratingText(c.rating)}`) : null,
            ),
            sep(),
            h('span', { class: 'lobby-part lobby-start' }, startLabel(c.start_id, c.back_rank)),
            sep(),
            h('span', { class: 'lobby-part lobby-clock' }, c.time_control ? formatTimeControl(c.time_control) : 'no clock'),
            sep(),
            h('span', { class: `lobby-part ${c.rated ? 'rated-mark' : 'casual-mark'}`, 'data-testid': 'lobby-kind' }, c.rated ? 'Rated' : 'Casual'),
          ),
          h('span', { class: 'lobby-sep', 'aria-hidden': 'true' }, ' · '),
          mine
            ? h('a', { class: 'lobby-action', href: `/game/${c.key}` }, 'your challenge')
            : h('button', { type: 'button', class: 'primary lobby-action', 'data-testid': 'lobby-accept', onclick: () => void accept(c) }, `Play as ${other}`),
        );
      }),
    );
  };

  const rangeInput = (end: 'min' | 'max', label: string): HTMLInputElement => {
    const input = h('input', {
      type: 'number',
      min: 0,
      max: 4000,
      step: 50,
      inputmode: 'numeric',
      placeholder: 'any',
      value: range[end] ?? '',
      'aria-label': label,
      'data-testid': `lobby-${end}`,
    });
    input.addEventListener('input', () => {
      const n = Number.parseInt(input.value, 10);
      range[end] = input.value.trim() === '' || !Number.isFinite(n) ? null : n;
      saveRange(range);
      show();
    });
    return input;
  };
  const filter = h(
    'div',
    { class: 'lobby-range', role: 'group', 'aria-label': 'Rating range of the challenges shown', title: 'Empty: any. With a range set, unrated players’ challenges are hidden.' },
    h('span', {}, 'Creators rated'),
    rangeInput('min', 'Lowest creator rating shown'),
    h('span', {}, 'to'),
    rangeInput('max', 'Highest creator rating shown'),
  );

  const open = (): void => {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/api/lobby/ws`);
    socket = ws;
    ws.onopen = () => {
      retryMs = 500;
    };
    ws.onmessage = event => {
      if (typeof event.data !== 'string') return;
      try {
        const message = JSON.parse(event.data) as { type?: string; challenges?: LobbyEntry[] };
        if (message.type === 'lobby' && Array.isArray(message.challenges)) {
          challenges = message.challenges;
          show();
        }
      } catch {
        // a message we cannot read: keep the list shown
      }
    };
    ws.onclose = () => {
      if (closed) return;
      note.textContent = 'Reconnecting to the server…';
      retry = window.setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  open();
  // Logging in elsewhere on the page changes which challenges are one's own.
  const stopAccount = onAccount(show);

  const el = h(
    'section',
    { class: 'lobby', 'aria-label': 'Open challenges', 'data-testid': 'lobby' },
    h('div', { class: 'lobby-head' }, h('h2', {}, 'Open challenges'), filter),
    list,
    note,
  );
  return {
    el,
    dispose: () => {
      closed = true;
      window.clearTimeout(retry);
      socket?.close();
      stopAccount();
    },
  };
}
