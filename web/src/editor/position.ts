// The board editor's position (/editor): the pieces, the side to move, the castling rights
// derived from where the kings and rooks stand, the en-passant square, and the FEN written from
// them in both castling dialects (X-FEN and Shredder-FEN, docs spec §3). Whether the position is
// legal is the server's word (GET /api/fen, the rules library's reader); this file only writes
// what the editor holds, and reads a FEN leniently into the editor.

export type Color = 'white' | 'black';
export type Role = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';
export interface EditorPiece {
  color: Color;
  role: Role;
}
/** Pieces by square (`e1`). */
export type Pieces = Map<string, EditorPiece>;
/** `h`: towards the h-file (O-O); `a`: towards the a-file (O-O-O). */
export type Side = 'h' | 'a';

export interface EditorPosition {
  pieces: Pieces;
  turn: Color;
  /** The square of the rook that may castle, per colour and side (null: no right). */
  castling: Record<Color, Record<Side, string | null>>;
  /** The en-passant square (`d6`), or null. */
  ep: string | null;
  halfmoves: number;
  fullmoves: number;
}

export type Dialect = 'xfen' | 'shredder';

export const FILES = 'abcdefgh';
export const COLORS: Color[] = ['white', 'black'];
const LETTER: Record<Role, string> = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const ROLE_OF: Record<string, Role> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

export function noCastling(): Record<Color, Record<Side, string | null>> {
  return { white: { h: null, a: null }, black: { h: null, a: null } };
}

export function emptyPosition(): EditorPosition {
  return { pieces: new Map(), turn: 'white', castling: noCastling(), ep: null, halfmoves: 0, fullmoves: 1 };
}

const backRank = (color: Color): string => (color === 'white' ? '1' : '8');

/** True for `a1`..`h8`. */
export function isSquare(key: string): boolean {
  return /^[a-h][1-8]$/.test(key);
}

/** The rooks that may hold a castling right: the colour's rooks on its back rank on either side
 * of its king, when it has exactly one king and that king stands on its back rank, not in a
 * corner. Ordered from the king outwards. (When both colours keep rights, the rules also want the
 * kings, and the rooks of a side, on the same files: the server says so.) */
export function castlingCandidates(pieces: Pieces, color: Color): Record<Side, string[]> {
  const out: Record<Side, string[]> = { h: [], a: [] };
  const kings = [...pieces].filter(([, p]) => p.color === color && p.role === 'king').map(([sq]) => sq);
  const king = kings[0];
  if (kings.length !== 1 || king === undefined || king[1] !== backRank(color)) return out;
  const kingFile = FILES.indexOf(king[0] ?? '');
  // A king in a corner never stood between its rooks: it has no right to castle.
  if (kingFile === 0 || kingFile === 7) return out;
  for (let f = kingFile + 1; f < 8; f++) {
    const sq = `${FILES[f]}${backRank(color)}`;
    const p = pieces.get(sq);
    if (p?.color === color && p.role === 'rook') out.h.push(sq);
  }
  for (let f = kingFile - 1; f >= 0; f--) {
    const sq = `${FILES[f]}${backRank(color)}`;
    const p = pieces.get(sq);
    if (p?.color === color && p.role === 'rook') out.a.push(sq);
  }
  return out;
}

/** The squares where a pawn of the side not to move may just have arrived by a double push with
 * a pawn of the side to move beside it to take it: the en-passant squares worth offering. */
export function epCandidates(pieces: Pieces, turn: Color): string[] {
  const them: Color = turn === 'white' ? 'black' : 'white';
  const [pushedRank, epRank, fromRank] = turn === 'white' ? ['5', '6', '7'] : ['4', '3', '2'];
  const out: string[] = [];
  for (let f = 0; f < 8; f++) {
    const file = FILES[f] ?? '';
    const pushed = pieces.get(`${file}${pushedRank}`);
    if (pushed?.color !== them || pushed.role !== 'pawn') continue;
    if (pieces.has(`${file}${epRank}`) || pieces.has(`${file}${fromRank}`)) continue;
    const beside = [f - 1, f + 1]
      .filter(g => g >= 0 && g < 8)
      .map(g => pieces.get(`${FILES[g]}${pushedRank}`))
      .some(p => p?.color === turn && p.role === 'pawn');
    if (beside) out.push(`${file}${epRank}`);
  }
  return out;
}

/** The position with the rights and the en-passant square that no longer fit its pieces taken
 * away (a rook moved off, the king left its back rank, the pawn was taken...). */
export function sanitize(pos: EditorPosition): EditorPosition {
  const castling = noCastling();
  for (const color of COLORS) {
    const candidates = castlingCandidates(pos.pieces, color);
    for (const side of ['h', 'a'] as Side[]) {
      const rook = pos.castling[color][side];
      castling[color][side] = rook !== null && candidates[side].includes(rook) ? rook : null;
    }
  }
  const ep = pos.ep !== null && epCandidates(pos.pieces, pos.turn).includes(pos.ep) ? pos.ep : null;
  return { ...pos, castling, ep };
}

/** The piece placement field. */
export function placementField(pieces: Pieces): string {
  const ranks: string[] = [];
  for (let r = 8; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (const file of FILES) {
      const p = pieces.get(`${file}${r}`);
      if (!p) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      const letter = LETTER[p.role];
      row += p.color === 'white' ? letter.toUpperCase() : letter;
    }
    if (empty > 0) row += String(empty);
    ranks.push(row);
  }
  return ranks.join('/');
}

/** The castling field as the rules library writes it: per colour, White first, the h-side right
 * before the a-side one. Shredder-FEN: the rook's file letter. X-FEN: `K`/`Q` for the outermost
 * rook on its side, the file letter for an inner rook (another rook of the colour stands beyond
 * it on its back rank). Lower case for Black. */
export function castlingField(pos: EditorPosition, dialect: Dialect): string {
  let out = '';
  for (const color of COLORS) {
    const rank = backRank(color);
    const rookFiles = FILES.split('').filter(f => {
      const p = pos.pieces.get(`${f}${rank}`);
      return p?.color === color && p.role === 'rook';
    });
    for (const side of ['h', 'a'] as Side[]) {
      const rook = pos.castling[color][side];
      if (rook === null) continue;
      const file = rook[0] ?? '';
      const beyond = rookFiles.some(f => (side === 'h' ? f > file : f < file));
      let letter = file.toUpperCase();
      if (dialect === 'xfen' && !beyond) letter = side === 'h' ? 'K' : 'Q';
      out += color === 'white' ? letter : letter.toLowerCase();
    }
  }
  return out || '-';
}

/** The whole FEN in `dialect`. */
export function writeFen(pos: EditorPosition, dialect: Dialect): string {
  return [
    placementField(pos.pieces),
    pos.turn === 'white' ? 'w' : 'b',
    castlingField(pos, dialect),
    pos.ep ?? '-',
    String(pos.halfmoves),
    String(pos.fullmoves),
  ].join(' ');
}

/** Reads a FEN into the editor, leniently: a placement of 8 ranks is needed; the other fields
 * are taken where they make sense (any castling dialect: `K`/`Q` name the outermost rook on that
 * side of the king, a letter the rook on that file) and otherwise left out. Whether the FEN is
 * legal is for the server to say. */
export function readFen(text: string): EditorPosition | { error: string } {
  const fields = text.trim().split(/\s+/);
  const ranks = (fields[0] ?? '').split('/');
  if (ranks.length !== 8) return { error: `the piece placement needs 8 ranks separated by '/', found ${ranks.length}` };
  const pos = emptyPosition();
  for (let i = 0; i < 8; i++) {
    const rank = 8 - i;
    let file = 0;
    for (const c of ranks[i] ?? '') {
      if (/[1-8]/.test(c)) {
        file += Number(c);
      } else {
        const role = ROLE_OF[c.toLowerCase()];
        if (!role) return { error: `rank ${rank}: '${c}' is no piece` };
        if (file > 7) return { error: `rank ${rank} has more than 8 squares` };
        pos.pieces.set(`${FILES[file]}${rank}`, { color: c === c.toUpperCase() ? 'white' : 'black', role });
        file += 1;
      }
      if (file > 8) return { error: `rank ${rank} has more than 8 squares` };
    }
    if (file !== 8) return { error: `rank ${rank} has ${file} squares, not 8` };
  }
  pos.turn = fields[1] === 'b' ? 'black' : 'white';
  for (const c of fields[2] ?? '-') {
    if (!/[a-hkqA-HKQ]/.test(c)) continue;
    const color: Color = c === c.toUpperCase() ? 'white' : 'black';
    const candidates = castlingCandidates(pos.pieces, color);
    const upper = c.toUpperCase();
    let side: Side;
    let rook: string | undefined;
    if (upper === 'K' || upper === 'Q') {
      side = upper === 'K' ? 'h' : 'a';
      rook = candidates[side][candidates[side].length - 1];
    } else {
      const sq = `${c.toLowerCase()}${backRank(color)}`;
      side = candidates.h.includes(sq) ? 'h' : 'a';
      rook = candidates[side].includes(sq) ? sq : undefined;
    }
    if (rook !== undefined && pos.castling[color][side] === null) pos.castling[color][side] = rook;
  }
  const ep = fields[3] ?? '-';
  if (/^[a-h][36]$/.test(ep)) pos.ep = ep;
  const half = Number(fields[4]);
  const full = Number(fields[5]);
  if (Number.isSafeInteger(half) && half >= 0 && fields[4] !== undefined) pos.halfmoves = half;
  if (Number.isSafeInteger(full) && full >= 1) pos.fullmoves = full;
  return sanitize(pos);
}

/** The pieces as chessground holds them (keys outside the board, as its new-piece drag uses,
 * left out). */
export function piecesOf(map: Map<string, { color: Color; role: string }>): Pieces {
  const out: Pieces = new Map();
  for (const [key, p] of map) {
    if (isSquare(key) && p.role in LETTER) out.set(key, { color: p.color, role: p.role as Role });
  }
  return out;
}
