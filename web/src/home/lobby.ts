// The lobby on the home page: the open challenges anyone may accept, live from the server's
// `/api/lobby/ws` (the whole list on each change). Accepting one joins it, as its link does.

import { api, describeError } from '../api';
import { startLabel } from '../backRank';
import { fill, h } from '../dom';
import { playerName } from '../playerName';
import { seatOf } from '../seats';
import { formatTimeControl } from '../timeControl';
import type * as edge from '../generated/api';

/** One challenge as the server lists it. */
export type LobbyEntry = edge.LobbyEntry;

/** The lobby's panel and its socket; `dispose` closes the socket. */
export function lobbyPanel(navigate: (path: string) => void): { el: HTMLElement; dispose: () => void } {
  const list = h('ul', { class: 'lobby-list' });
  const note = h('p', { class: 'muted', 'aria-live': 'polite' }, 'Connecting…');
  let socket: WebSocket | null = null;
  let closed = false;
  let retry: number | undefined;
  let retryMs = 500;

  const accept = async (key: string): Promise<void> => {
    try {
      await api.join(key, playerName() || undefined);
      navigate(`/game/${key}`);
    } catch (error) {
      note.textContent = describeError(error);
    }
  };

  const show = (challenges: LobbyEntry[]): void => {
    note.textContent = challenges.length === 0 ? 'No open challenges. Create one below and tick "List it in the lobby".' : '';
    fill(
      list,
      challenges.map(c => {
        const mine = seatOf(c.key) !== undefined;
        const other = c.color === 'white' ? 'Black' : 'White';
        return h(
          'li',
          { 'data-key': c.key, 'data-testid': 'lobby-entry' },
          h('span', { class: 'lobby-name' }, c.name),
          ' · ',
          startLabel(c.start_id, c.back_rank),
          ' · ',
          c.time_control ? formatTimeControl(c.time_control) : 'no clock',
          ' · ',
          mine
            ? h('a', { href: `/game/${c.key}` }, 'your challenge')
            : h('button', { type: 'button', class: 'primary', 'data-testid': 'lobby-accept', onclick: () => void accept(c.key) }, `Play as ${other}`),
        );
      }),
    );
  };

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
        if (message.type === 'lobby' && Array.isArray(message.challenges)) show(message.challenges);
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

  const el = h('section', { class: 'lobby', 'aria-label': 'Open challenges', 'data-testid': 'lobby' }, h('h2', {}, 'Open challenges'), list, note);
  return {
    el,
    dispose: () => {
      closed = true;
      window.clearTimeout(retry);
      socket?.close();
    },
  };
}
