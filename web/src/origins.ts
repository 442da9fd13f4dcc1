// How each game this browser created was asked for: the new-game request and how its start was
// chosen (a number, at random, drawn by a method, from a PGN/FEN). The game's page uses it for
// "new game with the same settings". Kept in local storage beside the seat tokens.

import { keptRecord } from './keptRecord';
import type { NewGame } from './types';

/** The most kept; the oldest go first. */
const MAX_ORIGINS = 500;

/** How a start was chosen on the new-game page. */
export type StartKind = 'id' | 'random' | 'random-not-518' | 'draw' | 'import' | 'chosen';

export interface GameOrigin {
  /** The request as sent. */
  spec?: NewGame;
  /** How the start was chosen, when known. */
  startKind?: StartKind;
  /** The drawing method, for a start drawn by hand. */
  method?: string;
}

const origins = keptRecord(
  'chess960.origins',
  MAX_ORIGINS,
  (v): v is GameOrigin => typeof v === 'object' && v !== null,
);

/** How the game `key` was created in this browser, if it was. */
export function originOf(key: string): GameOrigin | undefined {
  return origins.get(key);
}

/** Remembers how the game `key` was created (storage full or disabled: the game page offers the
 * new-game form instead). */
export function rememberOrigin(key: string, origin: GameOrigin): void {
  origins.set(key, origin);
}
