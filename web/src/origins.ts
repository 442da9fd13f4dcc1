// How each game this browser created was asked for: the new-game request and how its start was
// chosen (a number, at random, drawn by a method, from a PGN/FEN). The game's page uses it for
// "new game with the same settings". Kept in local storage beside the seat tokens.

import type { NewGame } from './types';

const STORAGE_KEY = 'chess960.origins';
/** The most kept; the oldest go first. */
const MAX_ORIGINS = 500;

/** How a start was chosen on the new-game page. */
export type StartKind = 'id' | 'random' | 'random-not-518' | 'draw' | 'import';

export interface GameOrigin {
  /** The request as sent. */
  spec?: NewGame;
  /** How the start was chosen, when known. */
  startKind?: StartKind;
  /** The drawing method, for a start drawn by hand. */
  method?: string;
}

function load(): Record<string, GameOrigin> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') return parsed as Record<string, GameOrigin>;
  } catch {
    // unreadable: start afresh
  }
  return {};
}

/** How the game `key` was created in this browser, if it was. */
export function originOf(key: string): GameOrigin | undefined {
  return load()[key];
}

/** Remembers how the game `key` was created. */
export function rememberOrigin(key: string, origin: GameOrigin): void {
  const all = load();
  delete all[key];
  all[key] = origin;
  const keys = Object.keys(all);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ORIGINS))) delete all[old];
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // storage full or disabled: the game page offers the new-game form instead
  }
}
