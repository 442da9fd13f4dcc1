// Browser tests of the analysis board (/analysis): a saved game analysed on the server with a
// progress bar, the evaluation graph, judged moves and the best-move arrow; variations played on
// the board without touching the game; live engine lines with MultiPV; leaving stops the search.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/analysis.test.mjs

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { boardPieces, drag, eventually, fenPieces, shot, start } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

/** White leaves the queen en prise (3. Qxe5+?? Nxe5), from the classical start. */
const QUEEN_BLUNDER = '1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5';
const CLASSICAL = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A finished game (imported, then resigned with its seat token); its key. */
async function finishedGame(moves) {
  const pgn = `[Variant "Chess960"]\n[SetUp "1"]\n[FEN "${CLASSICAL}"]\n\n${moves} *\n`;
  const view = await env.api('POST', '/api/games', { start: { pgn }, color: 'white', level: { depth: 1 }, time_control: null, study_ms: 0 });
  const response = await fetch(`${env.base}/api/games/${view.key}/resign`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Seat-Token': view.seat_token },
    body: '{}',
  });
  assert.equal(response.status, 200, await response.text());
  return view.key;
}

async function searches() {
  const load = await env.api('GET', '/api/server');
  return load.searches;
}

describe('the analysis board', () => {
  test('a played game is analysed: progress to the end, graph, blunder marked with the better move, arrow, PGN with evals', async () => {
    const key = await finishedGame(QUEEN_BLUNDER);
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/analysis?game=${key}`);
    const progress = page.locator('[data-testid=analysis-progress]');
    await progress.waitFor();
    await page.locator('[data-testid=analysis-status]', { hasText: 'Analysis complete' }).waitFor({ timeout: 60_000 });
    assert.equal(await progress.getAttribute('value'), '7');
    assert.equal(await progress.getAttribute('max'), '7');

    // One point per position: the start and each of the 6 plies.
    const points = (await page.locator('[data-testid=eval-line]').getAttribute('points')).trim().split(/\s+/);
    assert.equal(points.length, 7);

    // The queen blunder: marked in the list and on the graph.
    const blunder = page.locator('[data-testid=analysis-moves] button.move.blunder');
    assert.equal(await blunder.count(), 1);
    assert.equal((await blunder.innerText()).replace(/\s/g, ''), 'Qxe5+??');
    assert.match(await blunder.getAttribute('title'), /^-\d+\.\d\d · Blunder, \S+ was best$/);
    assert.equal(await page.locator('[data-testid=eval-graph] circle[data-judgement=blunder]').getAttribute('data-ply'), '5');
    await blunder.click();
    const comment = page.locator('[data-testid=move-comment]');
    await comment.locator('.judgement.blunder').waitFor();
    assert.match(await comment.innerText(), /Blunder .*Best was \S+\./);

    // The best move of the position shown as an arrow.
    await eventually(async () => (await page.locator('[data-testid=board]').getAttribute('data-arrows'))?.length === 4, 'the arrow');
    assert.ok((await page.locator('[data-testid=board] svg.cg-shapes g').count()) >= 1);

    // A click on the graph goes to that ply (here the start).
    const graph = page.locator('[data-testid=eval-graph] svg');
    const box = await graph.boundingBox();
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await eventually(async () => (await page.locator('[data-testid=analysis-moves] [aria-current]').count()) === 0, 'the start position shown');
    assert.deepEqual(Object.entries(await boardPieces(page)).sort(), Object.entries(fenPieces(CLASSICAL)).sort());

    const pgn = await page.locator('[data-testid=pgn-text]').inputValue();
    // (The writer wraps movetext at 80 columns: compare with the line breaks as spaces.)
    assert.match(pgn.replace(/\s+/g, ' '), /Qxe5\+ \$4 \{ \[%eval -?\d+\.\d\d\] Blunder\. \S+ was best\. \}/);
    assert.match(await page.locator('[data-testid=analysis-summary]').innerText(), /White\s+\d+\s+\d+\s+1/);
    await page.locator('[data-testid=analysis-moves] button.move[data-ply="5"]').first().click();
    await shot(page, 'analysis-game-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'analysis-game-390');
    // Nothing of the page sticks out sideways on a phone (chessground's coordinate labels are
    // the board's own business: see the board-coordinates fix).
    const wide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('main *')]
        .filter(el => !el.closest('coords') && el.getBoundingClientRect().right > width + 0.5)
        .map(el => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`);
    });
    assert.deepEqual(wide, []);
    await page.close();
  });

  test('a variation played on the board leaves the game untouched', async () => {
    const key = await finishedGame(QUEEN_BLUNDER);
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/analysis?game=${key}`);
    await page.locator('[data-testid=analysis-status]', { hasText: 'Analysis complete' }).waitFor({ timeout: 60_000 });
    // After 2. Qh5, Black plays 2... g6 instead of 2... Nc6.
    await page.locator('[data-testid=analysis-moves] button.move[data-ply="3"]').click();
    await page.locator('[data-testid=board] cg-board piece').first().waitFor();
    await eventually(async () => (await boardPieces(page)).h5 === 'white queen', 'the position after Qh5');
    await drag(page, 'g7', 'g6');
    const variation = page.locator('[data-testid=analysis-moves] [data-testid=variation]');
    await variation.waitFor();
    assert.match(await variation.innerText(), /2…\s*g6/);
    // Then 3. Qxe5+ in the variation, a second move of it.
    await eventually(async () => (await boardPieces(page)).g6 === 'black pawn', 'g6 on the board');
    await drag(page, 'h5', 'e5');
    await eventually(async () => /Qxe5\+/.test(await variation.innerText()), 'the variation continued');
    assert.equal(await page.locator('[data-testid=analysis-moves] button.move[data-mainline]').count(), 6);
    await shot(page, 'analysis-variation-1366');
    // The saved game is as it was.
    const game = await env.api('GET', `/api/games/${key}`);
    assert.deepEqual(
      game.moves.map(m => m.san),
      ['e4', 'e5', 'Qh5', 'Nc6', 'Qxe5+', 'Nxe5'],
    );
    await page.close();
  });

  test('live engine lines: MultiPV 3 shows 3 lines with depth and nodes; leaving the page stops the search', async () => {
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/analysis?start=0`);
    await page.locator('[data-testid=board] cg-board piece').first().waitFor();
    assert.equal(await page.locator('header nav a[href="/analysis"]').innerText(), 'Analyse');
    await page.locator('[data-testid=multipv]').selectOption('3');
    await page.locator('[data-testid=engine-toggle]').click();
    await eventually(async () => (await page.locator('[data-testid=engine-lines] li').count()) === 3, 'three engine lines');
    await page.locator('[data-testid=engine-info]', { hasText: /Depth \d+ · \S+ nodes/ }).waitFor();
    assert.equal((await searches()).running, 1);
    // An arrow for each line's first move (issue 40: one per engine line).
    await eventually(
      async () => ((await page.locator('[data-testid=board]').getAttribute('data-arrows')) ?? '').split(' ').filter(a => /^[a-h][1-8][a-h][1-8]$/.test(a)).length === 3,
      'an engine arrow for each of the three lines',
    );
    await shot(page, 'analysis-engine-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'analysis-engine-390');
    // Stop, then start again with one line.
    await page.locator('[data-testid=engine-toggle]').click();
    await eventually(async () => (await searches()).running === 0, 'the search stopped');
    await page.locator('[data-testid=multipv]').selectOption('1');
    await page.locator('[data-testid=engine-toggle]').click();
    await eventually(async () => (await page.locator('[data-testid=engine-lines] li').count()) === 1, 'one engine line');
    assert.equal((await searches()).running, 1);
    // Leaving the page (in the app, to the games list) stops the server's search.
    await page.locator('header nav a[href="/games"]').click();
    await page.waitForURL(/\/games$/);
    await eventually(async () => {
      const s = await searches();
      return s.running === 0 && s.waiting === 0;
    }, 'the pool idle after leaving');
    await page.close();
  });

  test('a pasted FEN is shown and a pasted PGN is analysed', async () => {
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/analysis');
    await page.locator('[data-testid=board] cg-board piece').first().waitFor();
    const fen = 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1';
    await page.locator('[data-testid=paste]').fill(fen);
    await page.locator('[data-testid=load-paste]').click();
    const sorted = pieces => JSON.stringify(Object.entries(pieces).sort());
    await eventually(async () => sorted(await boardPieces(page)) === sorted(fenPieces(fen)), 'the pasted position');
    await page.locator('[data-testid=paste]').fill('1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0');
    await page.locator('[data-testid=load-paste]').click();
    await page.locator('[data-testid=analysis-status]', { hasText: 'Analysis complete' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('[data-testid=analysis-moves] button.move').count(), 7);
    // 3... Nf6?? lets the mate in.
    assert.equal(await page.locator('[data-testid=analysis-moves] button.move.blunder').innerText(), 'Nf6??');
    // A bad paste says what is wrong.
    await page.locator('[data-testid=paste]').fill('1. e4 e5 2. Ke3');
    await page.locator('[data-testid=load-paste]').click();
    await page.locator('[data-testid=analysis-message]', { hasText: 'pgn:' }).waitFor();
    await shot(page, 'analysis-paste-1366');
    await page.close();
  });
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
