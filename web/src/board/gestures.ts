// From a gesture on the board to one of the server's legal moves (spec §4, castling in a user
// interface): the king dropped onto its own rook castles toward that rook; the king dropped on its
// castling destination castles only when that is at least two files away (the server says so in
// `king_destination_move`); otherwise a one-square king move is an ordinary king move, and when a
// castle would look the same on the board (`looks_like_king_step`) the user is asked which one.

import type { Key } from '@lichess-org/chessground/types';
import type { LegalMove } from '../types';

export type Resolution =
  | { kind: 'none' }
  | { kind: 'move'; move: LegalMove }
  | { kind: 'promotion'; moves: LegalMove[] }
  | { kind: 'ambiguous'; step: LegalMove; castle: LegalMove };

/** Destination squares per origin square for chessground, castling gestures included. */
export function destinations(legal: LegalMove[]): Map<Key, Key[]> {
  const dests = new Map<Key, Key[]>();
  const add = (from: string, to: string): void => {
    const list = dests.get(from as Key) ?? [];
    if (!list.includes(to as Key)) list.push(to as Key);
    dests.set(from as Key, list);
  };
  for (const move of legal) {
    add(move.from, move.to);
    if (move.castle?.king_destination_move) add(move.from, move.castle.king_to);
  }
  return dests;
}

/** Which legal move the user meant by moving the piece on `orig` to `dest`. */
export function resolveDrop(legal: LegalMove[], orig: string, dest: string): Resolution {
  const direct = legal.filter(move => move.from === orig && move.to === dest);
  const promotions = direct.filter(move => move.promotion !== null);
  if (promotions.length > 0) return { kind: 'promotion', moves: promotions };

  const castleOntoRook = direct.find(move => move.castle !== null);
  if (castleOntoRook) return { kind: 'move', move: castleOntoRook };

  const step = direct[0];
  const castleToDestination = legal.find(
    move => move.from === orig && move.castle !== null && move.castle.king_to === dest,
  );
  if (step && castleToDestination?.castle?.looks_like_king_step) {
    return { kind: 'ambiguous', step, castle: castleToDestination };
  }
  if (step) return { kind: 'move', move: step };
  if (castleToDestination?.castle?.king_destination_move) return { kind: 'move', move: castleToDestination };
  return { kind: 'none' };
}

/** The legal castles, h-side (O-O) first. */
export function castles(legal: LegalMove[]): LegalMove[] {
  return legal
    .filter(move => move.castle !== null)
    .sort((a, b) => (a.castle?.side === 'king' ? 0 : 1) - (b.castle?.side === 'king' ? 0 : 1));
}

/** "O-O (h-side)" / "O-O-O (a-side)": the spec asks programs to explain the a-side/h-side naming. */
export function castleLabel(move: LegalMove): string {
  return move.castle?.side === 'king' ? 'O-O (h-side)' : 'O-O-O (a-side)';
}
