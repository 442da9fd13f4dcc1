// The seat tokens of the games this browser created. The server gives a game's token once, in
// its answer to the new-game request; every action on the game must carry it (the key alone
// only lets one watch). They are kept in this browser's local storage, which no other site can
// read, so only this browser can play its games. When storage is full or disabled the game can
// still be played until the page is left.
//
// A logged-in player's seat is also bound to their account: from any browser where they are
// logged in, the server takes their actions by the session cookie alone and names their colour
// in the game view's `X-Seat-Color` header. Such a seat is kept in memory only (the cookie is
// what counts, and it may end at any time): it is learnt again with each view.

import { keptRecord } from './keptRecord';
import type { Color } from './types';

/** The most tokens kept; the oldest go first (their games can still be watched). */
const MAX_SEATS = 5000;

const seats = keptRecord('chess960.seats', MAX_SEATS, (v): v is string => typeof v === 'string');
/** The colour each seat plays (games between people: the view does not say whose seat this
 * browser holds). */
const colors = keptRecord('chess960.seatColors', MAX_SEATS, (v): v is Color => v === 'white' || v === 'black');

/** The colour of the games this browser plays through the account logged in, without a token. */
const accountSeats = new Map<string, Color>();

/** The seat token of the game `key`, if this browser created or joined it. */
export function seatOf(key: string): string | undefined {
  return seats.get(key);
}

/** The colour this browser plays in the game `key`, if it holds a seat and knows its colour. */
export function seatColorOf(key: string): Color | undefined {
  return seats.get(key) !== undefined ? colors.get(key) : accountSeats.get(key);
}

/** Whether this browser plays the game `key`: by its seat token, or by the account logged in. */
export function holdsSeat(key: string): boolean {
  return seats.get(key) !== undefined || accountSeats.has(key);
}

/** Forgets the seats of the account that was logged in (it logged out, or another did in). */
export function forgetAccountSeats(): void {
  accountSeats.clear();
}

/** Takes what a game view's answer says of the account's seat (`X-Seat-Color`, or none): only
 * for a game this browser holds no token of, where the cookie alone makes it the player. */
export function noteAccountSeat(key: string, color: string | null): void {
  if (seats.get(key) !== undefined) return;
  if (color === 'white' || color === 'black') accountSeats.set(key, color);
  else accountSeats.delete(key);
}

/** Remembers the seat token (and its colour) of a game this browser just created or joined. */
export function rememberSeat(key: string, token: string, color?: Color): void {
  seats.set(key, token);
  if (color) colors.set(key, color);
}

/** Carries this browser's seat over to the rematch `next` of the game `key`: the server binds the
 * rematch's seats to the same tokens, colours swapped. */
export function followRematch(key: string, next: string): void {
  const token = seats.get(key);
  if (token === undefined) return;
  const color = colors.get(key);
  rememberSeat(next, token, color === 'white' ? 'black' : color === 'black' ? 'white' : undefined);
}
