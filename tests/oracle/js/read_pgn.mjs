// Reads a PGN file with chessops (the rules and PGN library of lichess.org) and prints, for each
// game, the placement and side to move of the final position after the mainline, or
// "ERROR <reason>". Used by crates/pgn/tests/lichess.rs.
import { readFileSync } from 'node:fs';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeFen } from 'chessops/fen';

const text = readFileSync(process.argv[2], 'utf8');
for (const game of parsePgn(text)) {
  const start = startingPosition(game.headers);
  if (start.isErr) {
    console.log(`ERROR start: ${start.error.message}`);
    continue;
  }
  const pos = start.value;
  let error = null;
  let ply = 0;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) {
      error = `illegal or unreadable SAN '${node.san}' at ply ${ply + 1}`;
      break;
    }
    pos.play(move);
    ply++;
  }
  if (error) {
    console.log(`ERROR ${error}`);
  } else {
    const fen = makeFen(pos.toSetup()).split(' ');
    console.log(`${fen[0]} ${fen[1]} ${ply}`);
  }
}
