// The player's name: set once on the new-game page, remembered in this browser's local storage,
// and sent as the human's name with every new game (the server's default is "Player").

const STORAGE_KEY = 'chess960.playerName';
/** The server's limit (docs/api.md). */
export const MAX_NAME = 100;

/** The remembered name, or '' when none was set. */
export function playerName(): string {
  try {
    return (localStorage.getItem(STORAGE_KEY) ?? '').trim().slice(0, MAX_NAME);
  } catch {
    return '';
  }
}

/** Remembers the name ('' forgets it). */
export function setPlayerName(name: string): void {
  const clean = name.replace(/\p{Cc}/gu, '').trim().slice(0, MAX_NAME);
  try {
    if (clean) localStorage.setItem(STORAGE_KEY, clean);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage disabled: the name is used for this game only
  }
}
