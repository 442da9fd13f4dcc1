// Browser tests of issue 40 §2 "An explorer you can play on": moves made on the board of a start
// position's page walk the explorer (illegal ones refused); the analysis board shows the explorer
// of the position shown beside the engine lines (a click plays the move), and an evaluation bar
// beside the board while the engine runs. Needs the server started here (not CHESS960_URL), since
// games are imported into its database.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/explorer-board.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boardPieces, DESKTOP, drag, eventually, PHONE, shot, sideways, start, importPgn } from './harness.mjs';

let env;

// Four games of the classical start (518): 1. e4 in three, 1. d4 in one; after 1. e4, e5 twice
// and c5 once; after 1. e4 e5, Nf3 twice.
const game = (round, result, moves) =>
  `[Event "explorer board"]\n[Round "${round}"]\n[White "W${round}"]\n[Black "B${round}"]\n[Result "${result}"]\n\n${moves} ${result}\n`;
const PGN = [
  game(1, '1-0', '1. e4 e5 2. Nf3 Nc6'),
  game(2, '1/2-1/2', '1. e4 e5 2. Nf3 Nf6'),
  game(3, '0-1', '1. e4 c5'),
  game(4, '1-0', '1. d4 d5'),
].join('\n');

const CLASSICAL = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** Black without its queen. */
const QUEEN_UP = 'rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** White mates in one (Ra8#). */
const MATE_IN_ONE = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1';
/** Black is checkmated. */
const MATED = 'R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1';

before(async () => {
  env = await start();
  importPgn(env, PGN);
});

after(async () => {
  await env?.close();
});

const games = (page, testid) => page.locator(`[data-testid="${testid}"] td.games`).first().innerText();
const explorer = (query) => env.api('GET', `/api/explorer?${query}`);

/** The board is ready to be played on: its legal moves are known. */
async function playable(page) {
  await eventually(async () => Number(await page.locator('[data-testid=board]').getAttribute('data-legal')) > 0, 'the legal moves');
}

test('a move dragged on the board of /positions/N walks the explorer; an illegal one is refused', async () => {
  const page = await env.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto('/positions/518');
  await page.locator('[data-testid=explorer-total]').waitFor();
  await playable(page);
  assert.equal(await games(page, 'explorer-total'), '4');

  // An illegal drag: the pawn stays, the explorer does not move.
  await drag(page, 'e2', 'e5');
  await page.waitForTimeout(400);
  assert.equal((await boardPieces(page)).e2, 'white pawn');
  assert.equal((await boardPieces(page)).e5, undefined);
  assert.equal(await games(page, 'explorer-total'), '4');
  assert.match(page.url(), /\/positions\/518$/);

  // 1. e4 on the board: the explorer of the position after it, as the API counts it.
  await drag(page, 'e2', 'e4');
  const afterE4 = await explorer('start=518&moves=e2e4');
  await eventually(async () => (await games(page, 'explorer-total')) === String(afterE4.total.games), 'the explorer after 1. e4');
  assert.equal(afterE4.total.games, 3);
  assert.match(page.url(), /\?moves=e2e4$/);
  for (const m of afterE4.moves) assert.equal(await games(page, `move-${m.uci}`), String(m.games));
  assert.equal((await boardPieces(page)).e4, 'white pawn');

  // 1… e5 by Black on the board, then 2. Nf3.
  await playable(page);
  await drag(page, 'e7', 'e5');
  const afterE5 = await explorer('start=518&moves=e2e4,e7e5');
  await eventually(async () => (await games(page, 'explorer-total')) === String(afterE5.total.games), 'the explorer after 1. e4 e5');
  assert.equal(await games(page, 'move-g1f3'), String(afterE5.moves.find(m => m.uci === 'g1f3').games));
  assert.match(await page.locator('[data-testid=explorer-line]').innerText(), /1\. e4\s+e5/);
  await shot(page, 'explorer-board-positions-desktop');

  // Back and the trail stay in step with the board.
  await page.locator('[data-testid=explorer-back]').click();
  await eventually(async () => (await games(page, 'explorer-total')) === '3', 'back to 1. e4');
  await eventually(async () => (await boardPieces(page)).e7 === 'black pawn', 'the board back at 1. e4');
  await playable(page);
  await drag(page, 'c7', 'c5');
  await eventually(async () => /\?moves=e2e4,c7c5$/.test(page.url()), 'the line 1. e4 c5');
  assert.match(await page.locator('[data-testid=explorer-line]').innerText(), /1\. e4\s+c5/);
  await page.close();
});

test('castling on /positions/N by the king onto its rook walks the explorer', async () => {
  const page = await env.newPage();
  await page.setViewportSize(DESKTOP);
  // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5: White may castle short.
  await page.goto('/positions/518?moves=e2e4,e7e5,g1f3,b8c6,f1c4,f8c5');
  await page.locator('[data-testid=explorer-summary]').waitFor();
  await playable(page);
  await drag(page, 'e1', 'h1');
  await eventually(async () => /moves=e2e4,e7e5,g1f3,b8c6,f1c4,f8c5,e1h1$/.test(page.url()), 'the castle in the line');
  await eventually(async () => (await boardPieces(page)).g1 === 'white king' && (await boardPieces(page)).f1 === 'white rook', 'the castled king and rook');
  assert.match(await page.locator('[data-testid=explorer-line]').innerText(), /O-O/);
  await page.close();
});

test('the analysis board shows the explorer of the position shown; a click plays its move', async () => {
  const page = await env.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto('/analysis?start=518');
  const panel = page.locator('[data-testid=analysis-explorer]');
  await panel.locator('[data-testid=explorer-total]').waitFor();
  const atStart = await explorer('start=518');
  assert.equal(await panel.locator('[data-testid=explorer-total] td.games').innerText(), String(atStart.total.games));
  for (const m of atStart.moves) assert.equal(await panel.locator(`[data-testid=move-${m.uci}] td.games`).innerText(), String(m.games));
  await panel.locator('[data-testid=move-e2e4] button').click();
  await page.locator('[data-testid=analysis-moves] button.move[aria-current]', { hasText: 'e4' }).waitFor();
  await eventually(async () => (await boardPieces(page)).e4 === 'white pawn', 'e4 on the board');
  const afterE4 = await explorer('start=518&moves=e2e4');
  await eventually(async () => (await panel.locator('[data-testid=explorer-total] td.games').innerText()) === String(afterE4.total.games), 'the explorer after 1. e4');
  assert.equal(await panel.locator('[data-testid=move-e7e5] td.games').innerText(), String(afterE4.moves.find(m => m.uci === 'e7e5').games));
  // A move played on the board walks it too.
  await drag(page, 'c7', 'c5');
  const afterC5 = await explorer('start=518&moves=e2e4,c7c5');
  assert.equal(afterC5.total.games, 1);
  await eventually(async () => (await panel.locator('[data-testid=explorer-total] td.games').innerText()) === '1', 'the explorer after 1. e4 c5');
  assert.equal(await panel.locator('[data-testid=explorer-moves] tbody tr').count(), afterC5.moves.length + (afterC5.ended.games > 0 ? 1 : 0));
  // Then a move no stored game played: the explorer says so.
  await drag(page, 'g1', 'f3');
  await panel.locator('[data-testid=explorer-empty]').waitFor();
  await shot(page, 'explorer-board-analysis-explorer-desktop');
  await page.close();
});

async function engineShare(page) {
  const bar = page.locator('[data-testid=eval-bar]');
  await bar.waitFor({ state: 'visible', timeout: 30_000 });
  await eventually(async () => (await page.locator('[data-testid=engine-info]').innerText()).includes('Depth'), 'the engine lines');
  await page.waitForTimeout(800);
  return Number(await bar.getAttribute('data-white'));
}

test('the evaluation bar: hidden with the engine off, White\'s share from the score, full at a mate', async () => {
  const page = await env.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto(`/analysis?fen=${encodeURIComponent(CLASSICAL)}`);
  await page.locator('[data-testid=board] cg-board piece').first().waitFor();
  assert.equal(await page.locator('[data-testid=eval-bar]').isVisible(), false);
  await page.locator('[data-testid=engine-toggle]').click();
  const equal = await engineShare(page);
  assert.ok(equal > 35 && equal < 70, `the start position: ${equal}`);
  await shot(page, 'explorer-board-analysis-desktop');
  await page.locator('[data-testid=engine-toggle]').click();
  await eventually(async () => !(await page.locator('[data-testid=eval-bar]').isVisible()), 'the bar hidden with the engine off');

  await page.goto(`/analysis?fen=${encodeURIComponent(QUEEN_UP)}`);
  await page.locator('[data-testid=engine-toggle]').click();
  const queenUp = await engineShare(page);
  assert.ok(queenUp > equal + 20 && queenUp > 85, `a queen up: ${queenUp} (equal: ${equal})`);

  await page.goto(`/analysis?fen=${encodeURIComponent(MATE_IN_ONE)}`);
  await page.locator('[data-testid=engine-toggle]').click();
  assert.equal(await engineShare(page), 100);
  const [white, inside] = await page.locator('[data-testid=eval-bar]').evaluate(bar => [bar.querySelector('.eval-bar-white').getBoundingClientRect().height, bar.clientHeight]);
  assert.ok(inside > 100 && Math.abs(white - inside) < 1, `full: ${white} of ${inside}`);

  await page.goto(`/analysis?fen=${encodeURIComponent(MATED)}`);
  await page.locator('[data-testid=engine-toggle]').click();
  assert.equal(await engineShare(page), 100);
  await page.close();
});

test('on a phone: no sideways scroll, the bar beside a board as wide as it can be', async () => {
  const page = await env.newPage();
  await page.setViewportSize(PHONE);
  await page.goto('/positions/518?moves=e2e4');
  await page.locator('[data-testid=explorer-total]').waitFor();
  await playable(page);
  assert.equal(await sideways(page), false, 'the position page scrolls sideways');
  await shot(page, 'explorer-board-positions-phone');
  await page.goto('/analysis?start=518');
  await page.locator('[data-testid=analysis-explorer] [data-testid=explorer-total]').waitFor();
  await page.locator('[data-testid=engine-toggle]').click();
  await engineShare(page);
  assert.equal(await sideways(page), false, 'the analysis page scrolls sideways');
  const bar = await page.locator('[data-testid=eval-bar]').boundingBox();
  const board = await page.locator('[data-testid=board]').boundingBox();
  assert.ok(bar.x >= 0 && bar.x + bar.width <= board.x, JSON.stringify({ bar, board }));
  assert.ok(board.width > 320 && board.x + board.width <= 390, JSON.stringify(board));
  await shot(page, 'explorer-board-analysis-phone');
  await page.close();
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
