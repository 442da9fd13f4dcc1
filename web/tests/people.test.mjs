// Browser test of a game between two people (issue 16): Ann creates a challenge from the
// new-game form and gets a link; Bob opens it in another browser and joins; they play through
// the server, Ann by dragging and Bob by typing, Ann castles with the O-O button and Bob by
// dragging his king onto his rook; a draw offer is declined, then one is accepted.
// A third browser watches every move; a fourth, opening the link after both seats are taken,
// can only watch; a fifth finds the game on the games page, among those being played now.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/people.test.mjs

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { drag, eventually, shot, startServer } from './harness.mjs';

let server;
let browser;

before(async () => {
  // A short absence lets the opponent claim (30 s by default), so that the test can show it.
  server = await startServer(['--away-after', '2']);
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium`);
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const errors = [];

/** A page in a browser context of its own: its own local storage, so its own seats. */
async function person() {
  const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', error => errors.push(String(error)));
  page.on('dialog', dialog => void dialog.accept());
  return page;
}

const view = async key => (await fetch(`${server.base}/api/games/${key}`)).json();

async function typeMove(page, san) {
  await page.locator('[data-testid=move-input]').fill(san);
  await page.locator('[data-testid=move-input]').press('Enter');
}

test('two people play a game through a link; a spectator watches; a latecomer only watches', async () => {
  const ann = await person();
  await ann.goto('/');
  await ann.locator('[data-testid=start-id]').check();
  await ann.locator('[data-testid=id]').fill('518');
  await ann.locator('[data-testid=color-white]').check();
  await ann.locator('[data-testid=opponent-human]').check();
  // No engine level or study time for a game between people.
  assert.equal(await ann.locator('[data-testid=depth]').isVisible(), false);
  await ann.locator('[data-testid=clock]').selectOption('5+3');
  await ann.locator('[data-testid=player-name]').fill('Ann');
  await ann.locator('[data-testid=start-game]').click();
  await ann.waitForURL(/\/game\/[0-9a-f]{32}$/);
  const key = ann.url().split('/').pop();
  await ann.locator('[data-testid=status]', { hasText: 'Waiting for your opponent' }).waitFor();
  const link = await ann.locator('[data-testid=invite-link]').inputValue();
  assert.equal(link, `${server.base}/game/${key}`);
  await shot(ann, 'people-waiting');

  const watcher = await person();
  await watcher.goto(`/game/${key}`);
  const bob = await person();
  await bob.goto(link);
  await bob.locator('[data-testid=join]', { hasText: 'Play as Black' }).waitFor();
  await bob.locator('[data-testid=join-name]').fill('Bob');
  await bob.locator('[data-testid=join]').click();
  await bob.locator('[data-testid=status]', { hasText: 'Your opponent is to move' }).waitFor();
  // Bob sees the board from Black's side, Ann's status changes by itself.
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  assert.equal((await view(key)).black, 'Bob');

  // A latecomer cannot join any more: the page only watches.
  const late = await person();
  await late.goto(link);
  await late.locator('[data-testid=status]', { hasText: 'White is to move' }).waitFor();
  assert.equal(await late.locator('[data-testid=join]').count(), 0);
  assert.equal(await late.locator('[data-testid=move-input]').isDisabled(), true);

  // Ann drags, Bob types.
  await drag(ann, 'e2', 'e4');
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(bob, 'e5');
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(ann, 'Nf3');
  await eventually(async () => (await view(key)).moves.length === 3, 'three moves');

  // The games page lists the game as being played now, with a link to watch it.
  const lister = await person();
  await lister.goto('/games');
  const line = lister.locator(`[data-testid=now-playing][data-key="${key}"]`);
  await line.waitFor();
  assert.match(await line.textContent(), /Ann – Bob · #518 · move 2, black to play/);
  await line.locator('a').click();
  await lister.waitForURL(new RegExp(`/game/${key}$`));
  await lister.locator('[data-testid=status]', { hasText: 'Black is to move' }).waitFor();

  // Bob offers a draw; Ann declines it; later Ann offers one and Bob accepts.
  await bob.locator('[data-testid=offer-draw]').click();
  await ann.locator('[data-testid=draw-offer]').waitFor();
  await shot(ann, 'people-draw-offer');
  await ann.locator('[data-testid=decline-draw]').click();
  await eventually(async () => (await view(key)).draw_offered_by === null, 'the offer declined');
  await typeMove(bob, 'Nf6');
  for (const [page, san] of [[ann, 'Bc4'], [bob, 'Bc5']]) {
    await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
    await typeMove(page, san);
  }
  // Castling both ways between people: Ann (White) with the O-O button, Bob (Black) by
  // dragging his king onto his rook.
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await ann.locator('[data-testid=castle-king]').click();
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await drag(bob, 'e8', 'h8');
  const castled = await eventually(async () => {
    const v = await view(key);
    return v.moves.length === 8 ? v : null;
  }, 'both castled');
  assert.deepEqual(castled.moves.slice(6).map(m => [m.uci, m.san]), [['e1h1', 'O-O'], ['e8h8', 'O-O']]);
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await ann.locator('[data-testid=offer-draw]').click();
  await bob.locator('[data-testid=accept-draw]').click();
  await ann.locator('[data-testid=status]', { hasText: 'Draw' }).waitFor();

  // The spectator saw it all, as did the latecomer.
  for (const page of [watcher, late]) {
    await page.locator('[data-testid=status]', { hasText: 'draw agreed' }).waitFor();
    const sans = await page.locator('[data-testid=moves] button.move').allTextContents();
    assert.deepEqual(sans, ['e4', 'e5', 'Nf3', 'Nf6', 'Bc4', 'Bc5', 'O-O', 'O-O'], 'every move seen');
  }
  const final = await view(key);
  assert.deepEqual([final.white, final.black, final.result, final.reason], ['Ann', 'Bob', '1/2-1/2', 'draw agreed']);

  // A rematch, colours swapped: Bob asks, Ann accepts, both are taken to the new game with
  // their seats; the spectator gets a link to watch it.
  await bob.locator('[data-testid=rematch]').click();
  await ann.locator('[data-testid=rematch-offer]').waitFor();
  await shot(ann, 'people-rematch-offer');
  await ann.locator('[data-testid=accept-rematch]').click();
  await ann.waitForURL(url => !url.pathname.endsWith(key));
  await bob.waitForURL(url => !url.pathname.endsWith(key));
  const next = ann.url().split('/').pop();
  assert.equal(bob.url().split('/').pop(), next);
  await watcher.locator('[data-testid=watch-rematch]').waitFor();
  const rematch = await view(next);
  assert.deepEqual([rematch.white, rematch.black, rematch.start_id], ['Bob', 'Ann', 518]);
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();

  // Both move (before that, a game is aborted rather than claimed).
  for (const [page, san] of [[bob, 'e4'], [ann, 'e5']]) {
    await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
    await typeMove(page, san);
  }
  await eventually(async () => (await view(next)).moves.length === 2, 'two moves in the rematch');

  // Bob closes his page: Ann sees the countdown, then claims the win.
  await bob.context().close();
  await ann.locator('[data-testid=opponent-away]', { hasText: 'claim the win in' }).waitFor();
  await shot(ann, 'people-opponent-away');
  await ann.locator('[data-testid=force-win]').click();
  await ann.locator('[data-testid=status]', { hasText: 'abandonment' }).waitFor();
  const won = await view(next);
  assert.deepEqual([won.result, won.reason], ['0-1', 'abandonment']);
  assert.deepEqual(errors, []);
});

test('two people at one device take turns on one board', async () => {
  const page = await person();
  await page.goto('/');
  await page.locator('[data-testid=start-id]').check();
  await page.locator('[data-testid=id]').fill('518');
  await page.locator('[data-testid=color-white]').check();
  await page.locator('[data-testid=opponent-hotseat]').check();
  assert.equal(await page.locator('[data-testid=depth]').isVisible(), false);
  await page.locator('[data-testid=player-name]').fill('Ann');
  await page.locator('[data-testid=opponent-name]').fill('Bob');
  await page.locator('[data-testid=clock]').selectOption('5+3');
  await page.locator('[data-testid=start-game]').click();
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  const key = page.url().split('/').pop();
  await page.locator('[data-testid=status]', { hasText: 'White (Ann) to move' }).waitFor();
  const black = () => page.locator('[data-testid=board]').evaluate(el => el.classList.contains('orientation-black'));
  assert.equal(await black(), false);
  // White drags; the board turns to Black, who types; it turns back.
  await drag(page, 'e2', 'e4');
  await page.locator('[data-testid=status]', { hasText: 'Black (Bob) to move' }).waitFor();
  await eventually(black, 'the board turned to Black');
  await typeMove(page, 'e5');
  await page.locator('[data-testid=status]', { hasText: 'White (Ann) to move' }).waitFor();
  await eventually(async () => !(await black()), 'the board turned back to White');
  await shot(page, 'hotseat');
  // Without turning, the board stays.
  await page.locator('[data-testid=turn-board]').uncheck();
  await typeMove(page, 'Nf3');
  await page.locator('[data-testid=status]', { hasText: 'Black (Bob) to move' }).waitFor();
  assert.equal(await black(), false);
  const v = await view(key);
  assert.deepEqual([v.white, v.black, v.hotseat, v.clocks.running], ['Ann', 'Bob', true, 'black']);
  // A draw both agree to at once.
  await page.locator('[data-testid=offer-draw]').click();
  await page.locator('[data-testid=status]', { hasText: 'draw agreed' }).waitFor();
  assert.deepEqual(errors, []);
});

test('a challenge listed in the lobby is accepted from the home page', async () => {
  const bob = await person();
  await bob.goto('/');
  await bob.locator('[data-testid=lobby]').waitFor();
  const ann = await person();
  await ann.goto('/');
  await ann.locator('[data-testid=start-id]').check();
  await ann.locator('[data-testid=id]').fill('42');
  await ann.locator('[data-testid=color-black]').check();
  await ann.locator('[data-testid=opponent-human]').check();
  await ann.locator('[data-testid=lobby-listed]').check();
  await ann.locator('[data-testid=player-name]').fill('Ann');
  await ann.locator('[data-testid=start-game]').click();
  await ann.waitForURL(/\/game\/[0-9a-f]{32}$/);
  const key = ann.url().split('/').pop();
  // Bob's home page shows it by itself, live.
  const entry = bob.locator(`[data-testid=lobby-entry][data-key="${key}"]`);
  await entry.waitFor();
  assert.match(await entry.textContent(), /Ann · #42/);
  await shot(bob, 'lobby');
  await entry.locator('[data-testid=lobby-accept]', { hasText: 'Play as White' }).click();
  await bob.waitForURL(new RegExp(`/game/${key}$`));
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await ann.locator('[data-testid=status]', { hasText: 'Your opponent is to move' }).waitFor();
  // Taken: it leaves every lobby.
  const carl = await person();
  await carl.goto('/');
  await carl.locator('[data-testid=lobby]').waitFor();
  await eventually(async () => (await carl.locator(`[data-key="${key}"]`).count()) === 0, 'gone from the lobby');
  assert.deepEqual(errors, []);
});

test("the players place the start position in turn (Northam's placement), Black first", async () => {
  const ann = await person();
  await ann.goto('/');
  await ann.locator('[data-testid=color-white]').check();
  await ann.locator('[data-testid=opponent-human]').check();
  await ann.locator('[data-testid=start-chosen]').check();
  await ann.locator('[data-testid=player-name]').fill('Ann');
  await ann.locator('[data-testid=start-game]').click();
  await ann.waitForURL(/\/game\/[0-9a-f]{32}$/);
  const key = ann.url().split('/').pop();
  const bob = await person();
  await bob.goto(`/game/${key}`);
  await bob.locator('[data-testid=join-name]').fill('Bob');
  await bob.locator('[data-testid=join]').click();
  await bob.locator('[data-testid=status]', { hasText: 'Your turn to place a piece' }).waitFor();
  await ann.locator('[data-testid=status]', { hasText: 'Black places a piece' }).waitFor();
  // Each places in turn; each sees the other's choices on the board and in the list.
  const place = async (page, piece, file) => {
    await page.locator('[data-testid=status]', { hasText: 'Your turn to place a piece' }).waitFor();
    await page.locator(`[data-testid=place-piece-${piece}]`).click();
    await page.locator(`[data-testid=place-file-${file}]`).click();
  };
  await place(bob, 'B', 'c');
  await ann.locator('[data-testid=placement-log]', { hasText: 'Black: Bishop → c' }).waitFor();
  // The second bishop may not go on the first's colour: those files cannot be chosen.
  await ann.locator('[data-testid=place-piece-B]').click();
  assert.equal(await ann.locator('[data-testid=place-file-e]').isDisabled(), true);
  assert.equal(await ann.locator('[data-testid=place-file-f]').isDisabled(), false);
  await shot(ann, 'placement');
  await ann.locator('[data-testid=place-file-f]').click();
  await place(bob, 'N', 'b');
  await place(ann, 'N', 'g');
  await place(bob, 'Q', 'd');
  // Complete: the king and rooks take the squares left, and the game begins from the result.
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await bob.locator('[data-testid=status]', { hasText: 'Your opponent is to move' }).waitFor();
  await ann.locator('[data-testid=start-banner]', { hasText: '#518' }).waitFor();
  const v = await view(key);
  assert.equal(v.start_id, 518);
  assert.equal(v.drawn.method, 'chosen');
  assert.equal(v.drawn.outcomes, 'B c8, B f1, N b8, N g1, Q d8');
  await drag(ann, 'e2', 'e4');
  await eventually(async () => (await view(key)).moves.length === 1, 'the first move');
  assert.deepEqual(errors, []);
});
