// The file name of the analysis board's PGN download, as the game page's PGN is named by the
// server (crates/server/src/pgn.rs, `file_name`): players, date and start position, e.g.
// `Alice-vs-chess960-engine-1500_2026-11-23_SP518_analysis.pgn`; `chess960-analysis_…` when
// no player is named (a position analysed on the board), `setup` for a start that is none of
// the 960. Only ASCII letters, digits and `-` within each part, `_` between them.

/** A player's name in a file name: runs of other characters become one `-`, at most 40 kept;
 * empty or unknown (`?`) gives `null`. */
export function namePart(name: string | undefined): string | null {
  if (name === undefined) return null;
  let out = '';
  for (const c of name) {
    if (/^[A-Za-z0-9]$/.test(c)) out += c;
    else if (out !== '' && !out.endsWith('-')) out += '-';
    if (out.length >= 40) break;
  }
  out = out.replace(/^-+|-+$/g, '');
  return out === '' ? null : out;
}

/** The Chess960 number (0..959) of White's back rank, `null` for none of the 960
 * (Scharnagl's numbering, as `chess960 position` gives it: 518 is RNBQKBNR). */
export function startIdOf(backRank: string): number | null {
  if (!/^[RNBQK]{8}$/.test(backRank)) return null;
  const files = [...backRank];
  const at = (piece: string): number[] => files.flatMap((p, i) => (p === piece ? [i] : []));
  const bishops = at('B');
  const light = bishops.find(i => i % 2 === 1);
  const dark = bishops.find(i => i % 2 === 0);
  if (bishops.length !== 2 || light === undefined || dark === undefined) return null;
  if (at('Q').length !== 1 || at('N').length !== 2 || at('R').length !== 2 || at('K').length !== 1) return null;
  const [rook1 = -1, rook2 = -1] = at('R');
  const king = at('K')[0] ?? -1;
  if (!(rook1 < king && king < rook2)) return null;
  const free1 = files.map((_, i) => i).filter(i => i !== light && i !== dark);
  const queen = free1.indexOf(at('Q')[0] ?? -1);
  const free2 = free1.filter(i => files[i] !== 'Q');
  const knights = at('N').map(i => free2.indexOf(i));
  const pairs = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]];
  const knight = pairs.findIndex(([a, b]) => a === knights[0] && b === knights[1]);
  if (queen < 0 || knight < 0) return null;
  return ((knight * 6 + queen) * 4 + dark / 2) * 4 + (light - 1) / 2;
}

/** The start position of a FEN as a file name part: `SP518` when it is one of the 960 start
 * positions, else `setup`. */
export function startPart(fen: string): string {
  const [placement = '', turn = 'w'] = fen.trim().split(/\s+/);
  const ranks = placement.split('/');
  const white = ranks[7] ?? '';
  const id = startIdOf(white);
  const start =
    id !== null &&
    turn === 'w' &&
    ranks.length === 8 &&
    ranks[0] === white.toLowerCase() &&
    ranks[1] === 'pppppppp' &&
    ranks[6] === 'PPPPPPPP' &&
    ranks.slice(2, 6).every(r => r === '8');
  return start ? `SP${id}` : 'setup';
}

/** The value of a PGN tag in the text's header, if present. */
export function pgnTag(pgn: string, name: string): string | undefined {
  const escaped = name.replace(/[^A-Za-z0-9_]/g, '');
  const m = new RegExp(`^\\[${escaped}\\s+"((?:[^"\\\\]|\\\\.)*)"\\]`, 'm').exec(pgn);
  return m?.[1]?.replace(/\\(.)/g, '$1');
}

/** `YYYY-MM-DD` of a PGN date `YYYY.MM.DD` (none for a partial date such as `2026.??.??`). */
function datePart(date: string | undefined): string | null {
  return date && /^\d{4}\.\d\d\.\d\d$/.test(date) ? date.replace(/\./g, '-') : null;
}

/** Today in the browser's calendar, `YYYY-MM-DD`. */
function today(): string {
  const d = new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The download's name for the analysed PGN `pgn` of the game that started at `startFen`. */
export function analysisFileName(pgn: string, startFen: string): string {
  const white = namePart(pgnTag(pgn, 'White'));
  const black = namePart(pgnTag(pgn, 'Black'));
  const players = white || black ? `${white ?? 'unknown'}-vs-${black ?? 'unknown'}` : 'chess960-analysis';
  const date = datePart(pgnTag(pgn, 'Date')) ?? today();
  const suffix = white || black ? '_analysis' : '';
  return `${players}_${date}_${startPart(pgnTag(pgn, 'FEN') ?? startFen)}${suffix}.pgn`;
}
