// The game's WebSocket (`/api/games/{key}/ws`): live states, engine thinking and clock ticks.
// Reconnects after a drop (e.g. a server restart); the server sends the full state on connect,
// so nothing is lost in between.

import type { SocketMessage } from '../types';

export class GameSocket {
  private socket: WebSocket | null = null;
  private closed = false;
  private retryMs = 500;
  private retryTimer: number | undefined;

  constructor(
    private url: string,
    private readonly onMessage: (message: SocketMessage) => void,
    private readonly onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  /** Connects again at `url` (after joining a game: the new address carries the seat). */
  reconnect(url: string): void {
    this.url = url;
    const old = this.socket;
    this.socket = null;
    if (old) {
      old.onclose = null;
      old.close();
    }
    window.clearTimeout(this.retryTimer);
    this.open();
  }

  /** Sends `message` (protocol 2: `{"type": "state"}` asks for the whole state) if connected. */
  send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.retryTimer);
    this.socket?.close();
  }

  private open(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      this.onStatus(true);
    };
    socket.onmessage = event => {
      if (typeof event.data !== 'string') return;
      try {
        this.onMessage(JSON.parse(event.data) as SocketMessage);
      } catch {
        // a message we cannot read: ignore it rather than break the page
      }
    };
    socket.onclose = () => {
      if (this.closed) return;
      this.onStatus(false);
      this.retryTimer = window.setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 5000);
    };
  }
}
