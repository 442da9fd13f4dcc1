// Browser tests of the board editor (/editor, issue 40): a position built by clicking and
// dragging from the palettes; castling rights in an inner-rook case written right in X-FEN and
// Shredder-FEN, as python-chess reads them; an illegal position refused with the server's reason
// and play disabled; play from here against the engine and a friend; the analysis link; the
// address following the position; start positions by number; no sideways scroll on a phone.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/editor.test.mjs

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, PHONE, boardPieces, eventually, fenPieces, nextFrames, piecesAre, shot, squareCenter, start } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

const CLASSICAL = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

async function open(size, query = '') {
  const page = await env.newPage();
  await page.setViewportSize(size);
  await page.goto(`/editor${query}`);
  await page.locator('[data-testid=board] cg-board').waitFor();
  return page;
}

/** Waits for the server's verdict on the position shown: 'legal' or 'illegal'; with `fen`, on
 * that position (chessground reports a drop a moment after it). */
async function verdict(page, fen) {
  return eventually(async () => {
    if (fen !== undefined && (await xfen(page)) !== fen) return null;
    const state = await page.locator('[data-testid=editor-status]').getAttribute('data-state');
    return state === 'legal' || state === 'illegal' ? state : null;
  }, `the verdict on ${fen ?? 'the position'}`);
}

const xfen = page => page.locator('[data-testid=editor-xfen]').inputValue();
const shredder = page => page.locator('[data-testid=editor-shredder]').inputValue();

async function clickSquare(page, square) {
  const c = await squareCenter(page, square);
  await page.mouse.click(c.x, c.y);
}

/** Drags a palette piece (`white-king`) onto `square` with the mouse. */
async function dragSpare(page, tool, square) {
  const color = tool.split('-')[0];
  const box = await page.locator(`[data-testid=spares-${color}] [data-tool=${tool}]`).boundingBox();
  const to = await squareCenter(page, square);
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await nextFrames(page);
  await page.mouse.up();
}

async function dragOnBoard(page, from, to) {
  const a = await squareCenter(page, from);
  const b = typeof to === 'string' ? await squareCenter(page, to) : to;
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await nextFrames(page);
  await page.mouse.up();
}

async function tool(page, name, color = 'white') {
  await page.locator(`[data-testid=spares-${color}] [data-tool=${name}]`).click();
}

/** What python-chess (chess960=True) makes of a FEN: its castling rook squares, X-FEN and
 * Shredder-FEN castling fields. */
function pythonChess(fen) {
  const script = [
    'import chess, json, sys',
    'b = chess.Board(sys.argv[1], chess960=True)',
    'print(json.dumps({"rooks": sorted(chess.square_name(s) for s in chess.SquareSet(b.castling_rights)), "xfen": b.castling_xfen(), "shredder": b.castling_shredder_fen(), "valid": b.is_valid()}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, fen], { encoding: 'utf8' }));
}

async function noSidewaysScroll(page) {
  const { doc, win } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
  assert.ok(doc <= win, `the page is ${doc} px wide in a ${win} px window`);
}

describe('the board editor', () => {
  test('a position built by clicking and dragging: palettes, pointer moves, off the board, eraser; the address follows', async () => {
    const page = await open(DESKTOP);
    assert.equal(await verdict(page), 'legal');
    assert.equal(await xfen(page), CLASSICAL);
    assert.match(await page.locator('[data-testid=editor-status]').innerText(), /Chess960 start position #518/);
    await shot(page, 'editor-desktop-start');

    await page.locator('[data-testid=editor-empty]').click();
    await piecesAre(page, {});
    assert.equal(await verdict(page), 'illegal');
    assert.match(await page.locator('[data-testid=editor-reason]').innerText(), /^White has no king\.$/);
    assert.equal(await page.locator('[data-testid=editor-play]').isDisabled(), true);

    // Click a palette piece, then squares.
    await tool(page, 'white-king');
    assert.equal(await page.locator('[data-testid=spares-white] [data-tool=white-king]').getAttribute('aria-pressed'), 'true');
    await clickSquare(page, 'e1');
    await tool(page, 'white-rook');
    await clickSquare(page, 'a1');
    await clickSquare(page, 'h1');
    await tool(page, 'white-pawn');
    await clickSquare(page, 'e2');
    // Drag from a palette.
    await dragSpare(page, 'black-king', 'e8');
    await dragSpare(page, 'black-knight', 'b8');
    await piecesAre(page, {
      a1: 'white rook',
      b8: 'black knight',
      e1: 'white king',
      e2: 'white pawn',
      e8: 'black king',
      h1: 'white rook',
    });
    // The rooks beside the king may castle; no right is given until it is chosen.
    assert.deepEqual(await page.locator('[data-testid=castle-white-h] option').evaluateAll(os => os.map(o => o.value)), ['', 'h1']);
    assert.equal(await page.locator('[data-testid=castle-black-h]').isDisabled(), true);

    // The pointer: moves (e2-e4), off the board removes (the knight).
    await tool(page, 'pointer');
    await dragOnBoard(page, 'e2', 'e4');
    const board = await page.locator('[data-testid=board]').boundingBox();
    await dragOnBoard(page, 'b8', { x: board.x + board.width + 150, y: board.y + 40 });
    // The eraser: a click empties a square.
    await tool(page, 'trash', 'black');
    await clickSquare(page, 'a1');
    // A piece clicked onto its own square again takes it off.
    await tool(page, 'white-rook');
    await clickSquare(page, 'h1');
    await piecesAre(page, { e1: 'white king', e4: 'white pawn', e8: 'black king' });
    assert.equal(await verdict(page, '4k3/8/8/8/4P3/8/8/4K3 w - - 0 1'), 'legal');
    assert.match(await page.locator('[data-testid=editor-facts]').innerText(), /White to move · \d+ legal moves/);

    // Black to move after e2-e4: en passant offered only where a pawn can take.
    await page.locator('[data-testid=editor-turn]').selectOption('black');
    assert.equal(await page.locator('[data-testid=editor-ep]').isDisabled(), true);
    await tool(page, 'black-pawn', 'black');
    await clickSquare(page, 'd4');
    assert.deepEqual(await page.locator('[data-testid=editor-ep] option').evaluateAll(os => os.map(o => o.value)), ['', 'e3']);
    await page.locator('[data-testid=editor-ep]').selectOption('e3');
    assert.equal(await verdict(page), 'legal');
    const withEp = '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1';
    assert.equal(await xfen(page), withEp);
    assert.equal(await shredder(page), withEp);

    // The address follows the position, and opens it again.
    assert.equal(new URL(page.url()).searchParams.get('fen'), withEp);
    await page.reload();
    assert.equal(await verdict(page), 'legal');
    assert.equal(await xfen(page), withEp);
    await piecesAre(page, fenPieces(withEp));

    // Start positions by number (960 is 0), flipping the board swaps the palettes.
    await page.locator('[data-testid=editor-start-id]').fill('960');
    await page.locator('[data-testid=editor-start-set]').click();
    await eventually(async () => (await xfen(page)).startsWith('bbqnnrkr/'), 'start position 0');
    assert.equal(await verdict(page), 'legal');
    assert.equal(await xfen(page), 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1');
    assert.equal(await shredder(page), 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1');
    assert.match(await page.locator('[data-testid=editor-status]').innerText(), /#0\b/);
    await page.locator('[data-testid=editor-random]').click();
    await eventually(async () => /Chess960 start position #\d+/.test(await page.locator('[data-testid=editor-status]').innerText()), 'a random start');
    assert.equal(await page.locator('.editor-spares').first().getAttribute('data-testid'), 'spares-black');
    await page.locator('[data-testid=editor-flip]').click();
    assert.equal(await page.locator('.editor-spares').first().getAttribute('data-testid'), 'spares-white');
    assert.equal(await page.locator('[data-testid=board]').evaluate(el => el.classList.contains('orientation-black')), true);
    assert.deepEqual(env.pageErrors, []);
    await page.close();
  });

  test('inner-rook castling rights are written right in X-FEN and Shredder-FEN, as python-chess reads them', async () => {
    // Both sides: king on the b-file, rooks on the a-, c- and h-files (the c-rook has an outer
    // rook beyond it on the h-side).
    const placement = 'rkr4r/8/8/8/8/8/8/RKR4R';
    const page = await open(DESKTOP, `?fen=${encodeURIComponent(`${placement} w - - 0 1`)}`);
    assert.equal(await verdict(page), 'legal');
    const options = async which => page.locator(`[data-testid=castle-${which}] option`).evaluateAll(os => os.map(o => o.value));
    assert.deepEqual(await options('white-h'), ['', 'c1', 'h1']);
    assert.deepEqual(await options('white-a'), ['', 'a1']);
    assert.deepEqual(await options('black-h'), ['', 'c8', 'h8']);
    assert.deepEqual(await options('black-a'), ['', 'a8']);

    const cases = [
      // [white h-side, white a-side, black h-side, black a-side, X-FEN, Shredder-FEN, rooks]
      ['c1', 'a1', 'c8', '', 'CQc', 'CAc', ['a1', 'c1', 'c8']],
      ['c1', '', '', '', 'C', 'C', ['c1']],
      ['h1', '', '', '', 'K', 'H', ['h1']],
      ['h1', 'a1', 'h8', 'a8', 'KQkq', 'HAha', ['a1', 'a8', 'h1', 'h8']],
      ['', '', 'c8', 'a8', 'cq', 'ca', ['a8', 'c8']],
      ['c1', 'a1', 'c8', 'a8', 'CQcq', 'CAca', ['a1', 'a8', 'c1', 'c8']],
    ];
    for (const [wh, wa, bh, ba, xfield, sfield, rooks] of cases) {
      await page.locator('[data-testid=castle-white-h]').selectOption(wh);
      await page.locator('[data-testid=castle-white-a]').selectOption(wa);
      await page.locator('[data-testid=castle-black-h]').selectOption(bh);
      await page.locator('[data-testid=castle-black-a]').selectOption(ba);
      const x = `${placement} w ${xfield} - 0 1`;
      const s = `${placement} w ${sfield} - 0 1`;
      assert.equal(await verdict(page, x), 'legal', `${xfield}: ${await page.locator('[data-testid=editor-status]').innerText()}`);
      // The status is the server's verdict and the FENs shown are its writer's: the same as the
      // editor's.
      assert.equal(await xfen(page), x);
      assert.equal(await shredder(page), s);
      // python-chess reads both dialects to the same rights and writes them alike.
      for (const fen of [x, s]) {
        const py = pythonChess(fen);
        assert.deepEqual(py.rooks, rooks, fen);
        assert.equal(py.xfen, xfield, fen);
        assert.equal(py.shredder, sfield, fen);
        assert.equal(py.valid, true, fen);
      }
    }
    await shot(page, 'editor-desktop-castling');

    // The rules want the castling rooks of a side on one file when both colours keep rights:
    // the server says so, and play waits.
    await page.locator('[data-testid=castle-black-h]').selectOption('h8');
    assert.equal(await verdict(page, `${placement} w CQkq - 0 1`), 'illegal');
    assert.match(await page.locator('[data-testid=editor-reason]').innerText(), /^Castling field 'CQkq': the h-side \(O-O\) castling rooks stand on different files \(c1, h8\)/);
    assert.equal(await page.locator('[data-testid=editor-play]').isDisabled(), true);

    // A rook that moves off loses its right; the king off its back rank loses both.
    await page.locator('[data-testid=castle-black-h]').selectOption('');
    await page.locator('[data-testid=castle-black-a]').selectOption('');
    await dragOnBoard(page, 'c1', 'c3');
    assert.equal(await verdict(page, 'rkr4r/8/8/8/8/2R5/8/RK5R w Q - 0 1'), 'legal');
    await dragOnBoard(page, 'b1', 'b2');
    assert.equal(await verdict(page, 'rkr4r/8/8/8/8/2R5/1K6/R6R w - - 0 1'), 'legal');
    assert.equal(await page.locator('[data-testid=castle-white-a]').isDisabled(), true);

    // Loading a FEN in any dialect gives the same rights.
    for (const fen of [`${placement} w CAc - 0 1`, `${placement} w CQc - 0 1`, `${placement} w QcC - 0 1`]) {
      await page.locator('[data-testid=editor-fen-input]').fill(fen);
      await page.locator('[data-testid=editor-fen-load]').click();
      await eventually(async () => (await page.locator('[data-testid=editor-load-message]').innerText()) === 'Loaded.', `${fen} loaded`);
      assert.equal(await verdict(page, `${placement} w CQc - 0 1`), 'legal');
      assert.equal(await shredder(page), `${placement} w CAc - 0 1`);
      assert.equal(await page.locator('[data-testid=castle-white-h]').inputValue(), 'c1');
    }
    await page.locator('[data-testid=editor-fen-input]').fill(CLASSICAL.replace('KQkq', 'HAha'));
    await page.locator('[data-testid=editor-fen-load]').click();
    assert.equal(await verdict(page, CLASSICAL), 'legal');
    assert.deepEqual(env.pageErrors, []);
    await page.close();
  });

  test("an illegal position is refused with the server's reason, and play and analysis wait", async () => {
    const page = await open(DESKTOP);
    assert.equal(await verdict(page), 'legal');
    // A pawn on the first rank, placed on a1 over the rook.
    await tool(page, 'white-pawn');
    await clickSquare(page, 'a1');
    assert.equal(await verdict(page), 'illegal');
    const fen = await xfen(page);
    assert.equal(fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR w Kkq - 0 1');
    const response = await fetch(`${env.base}/api/fen?fen=${encodeURIComponent(fen)}`);
    assert.equal(response.status, 422);
    const body = await response.json();
    assert.equal(body.field, 'fen');
    const reason = body.error.replace(/^fen: /, '');
    assert.equal(reason, 'pawn on a1: pawns cannot stand on rank 1 or 8');
    assert.equal(await page.locator('[data-testid=editor-reason]').innerText(), 'Pawn on a1: pawns cannot stand on rank 1 or 8.');
    assert.equal(await page.locator('[data-testid=editor-play]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid=editor-analyse]').getAttribute('aria-disabled'), 'true');
    assert.equal(await page.locator('[data-testid=editor-analyse]').getAttribute('href'), null);
    await shot(page, 'editor-desktop-illegal');

    // The side not to move in check, loaded from the FEN box: refused as written, and shown.
    await page.locator('[data-testid=editor-fen-input]').fill('4k3/8/8/8/8/8/8/4RK2 w - - 0 1');
    await page.locator('[data-testid=editor-fen-load]').click();
    assert.equal(await verdict(page, '4k3/8/8/8/8/8/8/4RK2 w - - 0 1'), 'illegal');
    assert.equal(await page.locator('[data-testid=editor-reason]').innerText(), "Black is in check but it is not black's move: the side that just moved cannot be in check.");
    await eventually(async () => /refused/.test(await page.locator('[data-testid=editor-load-message]').innerText()), 'the load message');
    // Black to move makes it legal, and play comes back.
    await page.locator('[data-testid=editor-turn]').selectOption('black');
    assert.equal(await verdict(page), 'legal');
    assert.match(await page.locator('[data-testid=editor-facts]').innerText(), /black is in check/);
    assert.equal(await page.locator('[data-testid=editor-play]').isDisabled(), false);

    // Two black kings; a FEN that cannot be read at all.
    await tool(page, 'black-king', 'black');
    await clickSquare(page, 'a8');
    assert.equal(await verdict(page), 'illegal');
    assert.equal(await page.locator('[data-testid=editor-reason]').innerText(), 'Black has more than one king.');
    await page.locator('[data-testid=editor-fen-input]').fill('rnbqkbnr/pppppppp/8/8 w');
    await page.locator('[data-testid=editor-fen-load]').click();
    assert.match(await page.locator('[data-testid=editor-load-message]').innerText(), /cannot be loaded: the piece placement needs 8 ranks/);
    // Mate: legal, but nothing to play.
    await page.locator('[data-testid=editor-fen-input]').fill('R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1');
    await page.locator('[data-testid=editor-fen-load]').click();
    await eventually(async () => (await xfen(page)) === 'R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1', 'the mate');
    assert.equal(await verdict(page), 'legal');
    assert.match(await page.locator('[data-testid=editor-facts]').innerText(), /checkmate: White wins/);
    assert.equal(await page.locator('[data-testid=editor-play]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid=editor-analyse]').getAttribute('aria-disabled'), null);
    assert.deepEqual(env.pageErrors, []);
    await page.close();
  });

  test('play from here: against the engine and a friend from the same FEN; analyse opens the position', async () => {
    const fen = 'rkr4r/pp3ppp/8/8/8/8/PP3PPP/RKR4R w CQc - 0 1';
    const page = await open(DESKTOP, `?fen=${encodeURIComponent(fen)}`);
    assert.equal(await verdict(page), 'legal');
    assert.equal(await xfen(page), fen);
    await page.locator('[data-testid=editor-opponent]').selectOption('engine');
    await page.locator('[data-testid=editor-level]').selectOption('1110');
    await page.locator('[data-testid=editor-play]').click();
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    const key = new URL(page.url()).pathname.split('/')[2];
    const game = await env.api('GET', `/api/games/${key}`);
    assert.equal(game.start_fen, fen);
    assert.equal(game.fen, fen);
    assert.equal(game.sides?.white?.kind ?? 'human', 'human');
    await page.locator('[data-testid=board] cg-board').waitFor();
    await piecesAre(page, fenPieces(fen));

    // A friend: a challenge from the same position.
    await page.goto(`/editor?fen=${encodeURIComponent(fen)}`);
    assert.equal(await verdict(page), 'legal');
    await page.locator('[data-testid=editor-opponent]').selectOption('human');
    await page.locator('[data-testid=editor-play]').click();
    await page.waitForURL(url => /\/game\/[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(key));
    const friend = await env.api('GET', `/api/games/${new URL(page.url()).pathname.split('/')[2]}`);
    assert.equal(friend.start_fen, fen);
    assert.equal(friend.status, 'waiting');

    // Analyse: the analysis board opens on the position.
    await page.goto(`/editor?fen=${encodeURIComponent(fen)}`);
    assert.equal(await verdict(page), 'legal');
    await page.locator('[data-testid=editor-analyse]').click();
    await page.waitForURL(/\/analysis\?fen=/);
    assert.equal(new URL(page.url()).searchParams.get('fen'), fen);
    await page.locator('[data-testid=board] cg-board piece').first().waitFor();
    const sorted = o => JSON.stringify(Object.entries(o).sort());
    await eventually(async () => sorted(await boardPieces(page)) === sorted(fenPieces(fen)), 'the position on the analysis board');
    assert.deepEqual(env.pageErrors, []);
    await page.close();
  });

  test('on a phone: full-width board, palettes usable, no sideways scroll', async () => {
    const page = await open(PHONE);
    assert.equal(await verdict(page), 'legal');
    await noSidewaysScroll(page);
    const board = await page.locator('[data-testid=board]').boundingBox();
    assert.ok(board.width >= PHONE.width - 40, `the board is ${board.width} px wide`);
    for (const color of ['white', 'black']) {
      const cells = await page.locator(`[data-testid=spares-${color}] .spare`).evaluateAll(els => els.map(e => e.getBoundingClientRect().toJSON()));
      assert.equal(cells.length, 8);
      for (const cell of cells) {
        assert.ok(cell.width >= 36 && cell.height >= 36, `a palette cell is ${cell.width}×${cell.height}`);
        assert.ok(cell.right <= PHONE.width, `a palette cell ends at ${cell.right}`);
      }
    }
    await page.locator('[data-testid=editor-empty]').click();
    await tool(page, 'white-king');
    await clickSquare(page, 'g1');
    await dragSpare(page, 'black-king', 'g8');
    await tool(page, 'white-queen');
    await clickSquare(page, 'd4');
    assert.equal(await verdict(page, '6k1/8/8/8/3Q4/8/8/6K1 w - - 0 1'), 'legal');
    await noSidewaysScroll(page);
    await shot(page, 'editor-phone');
    // Illegal on a phone too: the reason in view, play disabled, still no sideways scroll.
    await page.locator('[data-testid=editor-fen-input]').fill('4k3/8/8/8/8/8/8/P3K3 w - - 0 1');
    await page.locator('[data-testid=editor-fen-load]').click();
    assert.equal(await verdict(page, '4k3/8/8/8/8/8/8/P3K3 w - - 0 1'), 'illegal');
    await noSidewaysScroll(page);
    await shot(page, 'editor-phone-illegal');

    const wide = await open(DESKTOP, `?fen=${encodeURIComponent('rkr4r/pp3ppp/8/8/8/8/PP3PPP/RKR4R w CQc - 0 1')}`);
    assert.equal(await verdict(wide), 'legal');
    await noSidewaysScroll(wide);
    await shot(wide, 'editor-desktop');
    assert.deepEqual(env.pageErrors, []);
    await page.close();
    await wide.close();
  });
});
