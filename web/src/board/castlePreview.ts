// While the king is picked up (dragged or selected), show where king and rook end up for each
// castle it can make: ghost pieces on the final squares and arrows for both. Over a castling
// target square only that castle is shown, so the user sees what the drop will do.

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import type { Color, LegalMove } from '../types';

/** The square that castles when the king is dropped on it: its rook, or its destination (§4). */
export function castleTargets(move: LegalMove): string[] {
  const castle = move.castle;
  if (!castle) return [];
  return castle.king_destination_move ? [move.to, castle.king_to] : [move.to];
}

export function castlePreview(legal: LegalMove[], kingSquare: string, color: Color, hovered: string | null): DrawShape[] {
  const all = legal.filter(move => move.castle !== null && move.from === kingSquare);
  const aimed = all.filter(move => hovered !== null && castleTargets(move).includes(hovered));
  const shown = aimed.length > 0 ? aimed : all;
  const shapes: DrawShape[] = [];
  for (const move of shown) {
    const castle = move.castle;
    if (!castle) continue;
    const strong = aimed.length > 0;
    shapes.push({ orig: move.to as Key, brush: strong ? 'green' : 'paleGreen' });
    if (castle.king_to !== move.from) {
      shapes.push({ orig: move.from as Key, dest: castle.king_to as Key, brush: strong ? 'green' : 'paleGreen' });
    }
    if (castle.rook_to !== castle.rook_from) {
      shapes.push({ orig: castle.rook_from as Key, dest: castle.rook_to as Key, brush: strong ? 'blue' : 'paleBlue' });
    }
    shapes.push({ orig: castle.king_to as Key, piece: { role: 'king', color, scale: 0.7 } });
    shapes.push({ orig: castle.rook_to as Key, piece: { role: 'rook', color, scale: 0.7 } });
  }
  return shapes;
}
