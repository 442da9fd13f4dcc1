// The analysis WebSocket (`/api/analysis/ws`): messages out are queued until the socket is open;
// a dropped socket is opened again after a pause, and the page is told so that it can ask for its
// engine lines again (a whole-game analysis does not survive a drop: the server stops it).

import type { ServerMessage } from './types';

export class AnalysisSocket {
  private socket: WebSocket | null = null;
  private closed = false;
  private retryMs = 500;
  private retryTimer: number | undefined;
  private readonly queue: string[] = [];

  constructor(
    private readonly onMessage: (message: ServerMessage) => void,
    private readonly onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  send(message: object): void {
    const text = JSON.stringify(message);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.retryTimer);
    this.socket?.close();
  }

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/analysis/ws`);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      for (const text of this.queue.splice(0)) socket.send(text);
      this.onStatus(true);
    };
    socket.onmessage = event => {
      if (typeof event.data !== 'string') return;
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return; // a message we cannot read: ignore it rather than break the page
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.closed) return;
      this.onStatus(false);
      this.retryTimer = window.setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 5000);
    };
  }
}
