// The two clocks. The server keeps the time; between its updates (every move, and once a second
// on the WebSocket) the running clock counts down locally so that it does not jump.

import type { Color } from '../types';

export interface ClockReading {
  white_ms: number;
  black_ms: number;
  running: Color | null;
}

export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const totalSeconds = Math.floor(clamped / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const ss = String(seconds).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${ss}`;
  // Tenths in the last ten seconds, when they matter.
  if (clamped < 10_000) return `${minutes}:${ss}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${ss}`;
}

export class Clocks {
  private reading: ClockReading = { white_ms: 0, black_ms: 0, running: null };
  private at = performance.now();
  private timer: number | undefined;

  constructor(private readonly render: (white_ms: number, black_ms: number, running: Color | null) => void) {}

  /** A fresh reading from the server (null: the game has no clocks). */
  update(reading: ClockReading | null): void {
    if (!reading) {
      this.stop();
      return;
    }
    this.reading = { ...reading };
    this.at = performance.now();
    this.tick();
    if (reading.running && this.timer === undefined) {
      this.timer = window.setInterval(() => this.tick(), 100);
    } else if (!reading.running && this.timer !== undefined) {
      window.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  stop(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const elapsed = performance.now() - this.at;
    const { white_ms, black_ms, running } = this.reading;
    this.render(
      running === 'white' ? white_ms - elapsed : white_ms,
      running === 'black' ? black_ms - elapsed : black_ms,
      running,
    );
  }
}
