// The positions of a game's earlier plies, for browsing the move list. The server sends the
// position after every move (its X-FEN and the checked king's square), so nothing is rebuilt
// here: the rules live in the Rust core only.

import type { Key } from '@lichess-org/chessground/types';
import type { CastlingRooks, Color, GameView } from '../types';

export interface PlyPosition {
  /** X-FEN of the position. */
  fen: string;
  /** The move's UCI squares (a castle: king's square to rook's square), as the live view shows. */
  lastMove: [Key, Key] | null;
  turn: Color;
  check: boolean;
  /** The rooks that may still castle, as the server gave them. */
  castling: CastlingRooks | null;
}

/** An empty board: what stands for a start that is not known yet. */
export const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';

function turnOf(fen: string): Color {
  return fen.trim().split(/\s+/)[1] === 'b' ? 'black' : 'white';
}

/** Positions after 0, 1, …, n plies, as the server gave them. */
export function plyPositions(view: GameView): PlyPosition[] {
  // No start FEN until the players have placed the start (Northam's placement): an empty board.
  const start = view.start_fen ?? EMPTY_FEN;
  const positions: PlyPosition[] = [
    { fen: start, lastMove: null, turn: turnOf(start), check: false, castling: view.start_castling ?? null },
  ];
  for (const move of view.moves) {
    positions.push({
      fen: move.fen,
      lastMove: [move.uci.slice(0, 2) as Key, move.uci.slice(2, 4) as Key],
      turn: turnOf(move.fen),
      check: move.check !== null,
      castling: move.castling ?? null,
    });
  }
  return positions;
}

/** The full-move number and side of the first ply, from the start FEN's last two fields. */
export function firstMoveNumber(startFen: string | null): { number: number; black: boolean } {
  const fields = (startFen ?? EMPTY_FEN).trim().split(/\s+/);
  const number = Number.parseInt(fields[5] ?? '1', 10);
  return { number: Number.isFinite(number) && number > 0 ? number : 1, black: fields[1] === 'b' };
}
