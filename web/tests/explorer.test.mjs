// Browser tests of the page of a start position (/positions/<id>): the explorer over games
// imported with `chess960 db import`, its statistics chart, the games that reached a position,
// and the links to play and analyse. Needs the server started here (not CHESS960_URL), since the
// games are imported into its database.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boardPieces, eventually, shot, start, importPgn } from './harness.mjs';

let env;

// Five games of the classical start (518) and one of #0. At the start: 5 games, White 2,
// draws 1, Black 1, one unfinished; 1. e4 in 4 of them, 1. d4 in 1. After 1. e4: e5 3, c5 1.
// After 1. e4 e5: Nf3 2, and one game ended there.
const PGN = `[Event "explorer test"]
[Round "1"]
[White "Anna"]
[Black "Ben"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "explorer test"]
[Round "2"]
[White "Cleo"]
[Black "Dan"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 1/2-1/2

[Event "explorer test"]
[Round "3"]
[White "Eve"]
[Black "Finn"]
[Result "0-1"]

1. e4 c5 0-1

[Event "explorer test"]
[Round "4"]
[White "Gus"]
[Black "Hal"]
[Result "1-0"]

1. d4 d5 1-0

[Event "explorer test"]
[Round "5"]
[White "Ida"]
[Black "Jon"]
[Result "*"]

1. e4 e5 *

[Event "explorer test"]
[Round "6"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[White "Kai"]
[Black "Lea"]
[Result "0-1"]

1. g4 g5 0-1
`;

before(async () => {
  env = await start();
  importPgn(env, PGN);
});

after(async () => {
  await env?.close();
});

/** The games count of a row of the explorer table. */
const games = (page, testid) => page.locator(`[data-testid="${testid}"] td.games`).innerText();

async function openPosition(page, path) {
  await page.goto(path);
  await page.locator('[data-testid=explorer-total]').waitFor();
  await page.locator('[data-testid=board] cg-board piece').first().waitFor();
}

test('the page of a start position shows the explorer, the statistics and the games', async () => {
  const page = await env.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await openPosition(page, '/positions/518');
  assert.equal(await games(page, 'explorer-total'), '5');
  assert.equal(await games(page, 'move-e2e4'), '4');
  assert.equal(await games(page, 'move-d2d4'), '1');
  const rows = await page.locator('[data-testid=explorer-moves] tbody tr').count();
  assert.equal(rows, 2);
  assert.match(await page.locator('[data-testid=explorer-summary]').innerText(), /5 games.*1 without a result/);
  // e4: White 1, draw 1, Black 1 of the finished games (the unfinished one is not counted).
  const bar = await page.locator('[data-testid=move-e2e4] .result-bar').getAttribute('aria-label');
  assert.equal(bar, 'White 33%, draws 33%, Black 33%');
  // The statistics of the start position: 4 finished games, drawn as an SVG chart.
  assert.equal(await page.locator('[data-testid=stats-games]').innerText(), '4');
  assert.equal(await page.locator('[data-testid=stats-chart] rect').count(), 3);
  assert.equal(await page.locator('[data-testid=stats-chart] circle').count(), 1);
  // The games that reached it, each a link to its page.
  const links = await page.locator('[data-testid=explorer-games] a').evaluateAll(as => as.map(a => a.getAttribute('href')));
  assert.equal(links.length, 5);
  for (const href of links) assert.match(href, /^\/game\/[0-9a-f]{32}$/);
  // Play and analyse.
  assert.equal(await page.locator('[data-testid=play-position]').getAttribute('href'), '/?start=518');
  assert.equal(await page.locator('[data-testid=analyse-position]').getAttribute('href'), '/analysis?start=518');
  // "Analyse this position" appears once moves are played.
  assert.equal(await page.locator('[data-testid=analyse-here]').isVisible(), false);
  const pieces = await boardPieces(page);
  assert.equal(pieces.e1, 'white king');
  assert.equal(pieces.d8, 'black queen');
  await shot(page, 'explorer-518-desktop');
  await page.close();
});

test('clicking a move plays it on the board and narrows the explorer; back and start return', async () => {
  const page = await env.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await openPosition(page, '/positions/518');
  await page.locator('[data-testid=move-e2e4] button').click();
  await eventually(async () => (await games(page, 'explorer-total')) === '4', 'the explorer after 1. e4');
  assert.match(page.url(), /\/positions\/518\?moves=e2e4$/);
  assert.equal((await boardPieces(page)).e4, 'white pawn');
  assert.equal((await boardPieces(page)).e2, undefined);
  assert.equal(await games(page, 'move-e7e5'), '3');
  assert.equal(await games(page, 'move-c7c5'), '1');
  await page.locator('[data-testid=move-e7e5] button').click();
  await eventually(async () => (await games(page, 'explorer-total')) === '3', 'the explorer after 1. e4 e5');
  assert.equal(await games(page, 'move-g1f3'), '2');
  assert.equal(await games(page, 'ended'), '1');
  assert.equal(await page.locator('[data-testid=explorer-games] tbody tr').count(), 3);
  assert.match(await page.locator('[data-testid=explorer-line]').innerText(), /1\. e4\s+e5/);
  assert.ok(await page.locator('[data-testid=analyse-here]').isVisible());
  await shot(page, 'explorer-518-e4-e5-desktop');
  // Back one move.
  await page.locator('[data-testid=explorer-back]').click();
  await eventually(async () => (await games(page, 'explorer-total')) === '4', 'the explorer back after 1. e4');
  assert.match(page.url(), /\?moves=e2e4$/);
  // A reload keeps the line.
  await page.reload();
  await page.locator('[data-testid=move-c7c5]').waitFor();
  assert.equal(await games(page, 'explorer-total'), '4');
  // Back to the start from the line.
  await page.locator('[data-testid=explorer-line] button', { hasText: 'Start' }).click();
  await eventually(async () => (await games(page, 'explorer-total')) === '5', 'the explorer at the start');
  assert.match(page.url(), /\/positions\/518$/);
  assert.equal((await boardPieces(page)).e2, 'white pawn');
  await page.close();
});

test('the positions list links each position to its page', async () => {
  const page = await env.newPage();
  await page.goto('/positions');
  await page.locator('[data-testid=positions] li[data-id="0"] a.start-id').click();
  await page.locator('[data-testid=explorer-total]').waitFor();
  assert.match(page.url(), /\/positions\/0$/);
  assert.equal(await games(page, 'explorer-total'), '1');
  assert.equal(await games(page, 'move-g2g4'), '1');
  assert.equal((await boardPieces(page)).g1, 'white king');
  assert.equal(await page.locator('[data-testid=stats-games]').innerText(), '1');
  // A position without games says so, and still links to play it.
  await page.goto('/positions/1');
  await page.locator('[data-testid=explorer-empty]').waitFor();
  assert.equal(await page.locator('[data-testid=play-position]').getAttribute('href'), '/?start=1');
  await page.close();
});

test('on a phone the page fits the width', async () => {
  const page = await env.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await openPosition(page, '/positions/518?moves=e2e4');
  assert.equal(await games(page, 'explorer-total'), '4');
  await shot(page, 'explorer-518-e4-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  const board = await page.locator('[data-testid=board]').boundingBox();
  assert.ok(board && board.width > 300 && board.x >= 0 && board.x + board.width <= 390, JSON.stringify(board));
  await page.goto('/positions/518');
  await page.locator('[data-testid=stats-chart]').waitFor();
  await shot(page, 'explorer-518-phone');
  await page.close();
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
