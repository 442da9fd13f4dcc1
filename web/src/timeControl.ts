// One way to write a time control everywhere in the UI, in lichess's forms: minutes + seconds of
// increment, "3+2", "1+0", "½+0", "1.5+0"; a start that is no whole quarter of a minute in
// seconds, "12s+0", "100s+0". The server (TimeControl::label) and `chess960 play` write the same forms.

import type { TimeControl } from './types';

const QUARTERS: Record<number, string> = { 1: '¼', 2: '½', 3: '¾' };

/** "3+2", "½+0", "1.5+0", "12s+0", "0.5s+1.5". */
export function formatTimeControl(tc: TimeControl): string {
  return `${initialPart(tc.initial_ms)}+${decimal(tc.increment_ms / 1000)}`;
}

function initialPart(ms: number): string {
  if (ms % 60_000 === 0) return String(ms / 60_000);
  if (ms % 15_000 === 0) {
    const quarters = ms / 15_000;
    return quarters < 4 ? (QUARTERS[quarters] ?? '') : decimal(quarters / 4);
  }
  return `${decimal(ms / 1000)}s`;
}

/** A number with at most three decimals and no trailing zeros. */
function decimal(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
