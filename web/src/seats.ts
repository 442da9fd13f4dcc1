// The seat tokens of the games this browser created. The server gives a game's token once, in
// its answer to the new-game request; every action on the game must carry it (the key alone
// only lets one watch). They are kept in this browser's local storage, which no other site can
// read, so only this browser can play its games.

const STORAGE_KEY = 'chess960.seats';
/** The most tokens kept; the oldest go first (their games can still be watched). */
const MAX_SEATS = 5000;

function load(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') return parsed as Record<string, string>;
  } catch {
    // unreadable: start afresh
  }
  return {};
}

/** The seat token of the game `key`, if this browser created it. */
export function seatOf(key: string): string | undefined {
  const token = load()[key];
  return typeof token === 'string' ? token : undefined;
}

/** Remembers the seat token of a game this browser just created. */
export function rememberSeat(key: string, token: string): void {
  const seats = load();
  delete seats[key];
  seats[key] = token; // insertion order: newest last
  const keys = Object.keys(seats);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_SEATS))) delete seats[old];
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(seats));
  } catch {
    // storage full or disabled: the game can still be played until the page is left
  }
}
