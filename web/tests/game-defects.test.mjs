// Browser tests for the game page's defects of issue 40 §1 (1, 4, 5, 8, 10, 11 and the game
// page's part of 13): the real server, headless Chromium, at 1366×900 and a 390×844 phone.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/game-defects.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiOk, eventually, people, shot } from './harness.mjs';

let env;
let server;
let person;
let errors = [];

before(async () => {
  env = await people();
  ({ server, person, errors } = env);
});

after(async () => {
  await env?.close();
});

/** A request to the API: { status, json, text } (a refusal is returned, not thrown). */
const call = (method, path, body, token) => apiCall(server.base, method, path, body, { seat: token });
const ok = (method, path, body, token) => apiOk(server.base, method, path, body, { seat: token });

const view = key => ok('GET', `/api/games/${key}`);

/** A challenge by Ann (White) joined by Bob through the API: { key, ann, bob }; a name given
 * as null is left out. */
async function peopleGame({ annName = 'Ann', bobName = 'Bob', start = { id: 518 }, join = true } = {}) {
  const body = { opponent: 'human', start, color: 'white', time_control: null };
  if (annName !== null) body.name = annName;
  const created = await ok('POST', '/api/games', body);
  const game = { key: created.key, ann: created.seat_token, bob: null };
  if (join) {
    const joined = await ok('POST', `/api/games/${game.key}/join`, bobName === null ? {} : { name: bobName });
    game.bob = joined.seat_token;
  }
  return game;
}

async function move(key, token, uci) {
  const v = await view(key);
  await ok('POST', `/api/games/${key}/moves`, { move: uci, ply: v.moves.length }, token);
}

/** Opens the game as the holder of `token` (the event links' way: `#seat=…&color=…`). */
async function openSeated(page, key, token, color) {
  await page.goto(`/game/${key}#seat=${token}&color=${color}`);
  await page.locator('[data-testid=status]').waitFor();
  await eventually(async () => !/Loading/.test((await page.locator('[data-testid=status]').textContent()) ?? ''), 'the game loaded');
}

/** The element is on the first screen: the page is not scrolled and the element lies inside
 * the viewport. */
async function onFirstScreen(page, locator, what) {
  await locator.waitFor();
  const scrollY = await page.evaluate(() => window.scrollY);
  assert.equal(scrollY, 0, `${what}: the page is not scrolled`);
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  assert.ok(box, `${what} is shown`);
  assert.ok(
    box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width,
    `${what} lies on the first screen (${JSON.stringify(box)} in ${size.width}×${size.height})`,
  );
}

/** An export control is off: hidden, or disabled. */
async function exportOff(page, testId) {
  const el = page.locator(`[data-testid=${testId}]`);
  if ((await el.count()) === 0 || !(await el.first().isVisible())) return true;
  return el.first().evaluate(e => e.hasAttribute('disabled') || e.getAttribute('aria-disabled') === 'true');
}

test('1. phone: a friend who opens a challenge link sees the invitation and its button on the first screen', async () => {
  const { key, ann } = await peopleGame({ join: false });
  // Its creator has the link to send on the first screen too.
  const creator = await person(PHONE);
  await openSeated(creator, key, ann, 'white');
  await onFirstScreen(creator, creator.locator('[data-testid=copy-link]'), 'Copy the link');
  await shot(creator, 'game-defects-waiting-390');
  await creator.context().close();

  const bob = await person(PHONE);
  await bob.goto(`/game/${key}`);
  const join = bob.locator('[data-testid=join]', { hasText: 'Play as Black' });
  await join.waitFor();
  await onFirstScreen(bob, bob.locator('[data-testid=invite]'), 'the invitation');
  await onFirstScreen(bob, join, 'Play as Black');
  assert.match(await bob.locator('[data-testid=invite]').textContent(), /Ann invites you/);
  // No move box for someone who does not play (yet).
  assert.equal(await bob.locator('[data-testid=move-input]').isVisible(), false, 'no "Your move" box before joining');
  await shot(bob, 'game-defects-invite-390');
  await bob.context().close();
});

test("4. Northam's placement: no PGN or FEN of a start not placed yet", async () => {
  const { key, ann, bob } = await peopleGame({ start: { chosen: true } });
  // The server's view and export say nothing false of the start.
  const v = await view(key);
  assert.equal(v.status, 'placing');
  assert.equal(v.start_fen, null, 'no start FEN while placing');
  assert.equal(v.fen, null, 'no FEN while placing');
  const pgn = await call('GET', `/api/games/${key}/pgn`);
  assert.equal(pgn.status, 409, `no PGN while placing: ${pgn.text}`);
  assert.equal(pgn.json.code, 'start_not_placed');

  const page = await person(DESKTOP);
  await openSeated(page, key, ann, 'white');
  await page.locator('[data-testid=placement]').waitFor();
  assert.ok(await exportOff(page, 'download-pgn'), 'Download PGN is off while placing');
  assert.ok(await exportOff(page, 'copy-pgn'), 'Copy PGN is off while placing');
  assert.ok(await exportOff(page, 'copy-fen'), 'Copy FEN is off while placing');
  assert.match(await page.locator('[data-testid=export-note]').textContent(), /placed/, 'the reason is given');
  assert.doesNotMatch(await page.locator('.info').textContent(), /Start FEN/);
  await shot(page, 'game-defects-placing-1366');
  // On a phone, the player to place (Black) has the placement right under the board.
  const black = await person(PHONE);
  await openSeated(black, key, bob, 'black');
  await black.locator('[data-testid=place-piece-B]').waitFor();
  assert.ok(await exportOff(black, 'download-pgn'), 'Download PGN is off on the phone too');
  await shot(black, 'game-defects-placing-390');
  await black.context().close();

  // Placed (Black first): the start is known, and the export is there.
  for (const [token, piece, square] of [[bob, 'B', 'c'], [ann, 'B', 'f'], [bob, 'N', 'b'], [ann, 'N', 'g'], [bob, 'Q', 'd']]) {
    await ok('POST', `/api/games/${key}/place`, { piece, square }, token);
  }
  const placed = await view(key);
  assert.equal(placed.start_id, 518);
  assert.equal(placed.start_fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await eventually(async () => !(await exportOff(page, 'download-pgn')), 'Download PGN once placed');
  assert.equal(await page.locator('[data-testid=download-pgn]').getAttribute('href'), `/api/games/${key}/pgn`);
  assert.equal((await call('GET', `/api/games/${key}/pgn`)).status, 200);
  await page.context().close();
});

test('5. an event game, once over, offers no rematch and no new game with the same settings', async () => {
  const event = await ok('POST', '/api/events', { name: 'Cup 960', format: 'round_robin', time_control: '5+3' });
  const arbiter = { 'X-Arbiter-Token': event.arbiter_token, 'Content-Type': 'application/json' };
  const post = async (path, body = {}) => {
    const r = await fetch(`${server.base}/api/events/${event.key}${path}`, { method: 'POST', headers: arbiter, body: JSON.stringify(body) });
    const text = await r.text();
    assert.ok(r.ok, `${path}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  await post('/players', { name: 'Ann' });
  await post('/players', { name: 'Bob' });
  await post('/rounds/1/draw', { method: 'computer' });
  await post('/rounds/1/pair');
  const made = await post('/rounds/1/games');
  const board = made.games[0];
  const token = color => new URL(board[`${color}_link`], server.base).hash.match(/seat=([0-9a-f]+)/)[1];
  const white = token('white');
  const black = token('black');

  const page = await person(DESKTOP);
  await page.goto(board.white_link);
  await page.locator('[data-testid=resign]').waitFor();
  await ok('POST', `/api/games/${board.key}/resign`, {}, white);
  await page.locator('[data-testid=analyse-game]').waitFor();
  assert.equal(await page.locator('[data-testid=rematch]').count(), 0, 'no rematch for an event game');
  assert.equal(await page.locator('[data-testid=same-settings]').count(), 0, 'no "New game, same settings" for an event game');
  await shot(page, 'game-defects-event-over-1366');

  // The server refuses a rematch of an event game, saying why.
  const refused = await call('POST', `/api/games/${board.key}/rematch`, { action: 'offer' }, black);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.json.code, 'no_rematch');
  assert.match(refused.json.error, /event/);
  assert.equal((await view(board.key)).rematch_offered_by, null);
  await page.context().close();
});

test('8. hotseat: a second name left empty is stored and shown as its placeholder says', async () => {
  const page = await person(DESKTOP);
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('chess960.newGame'));
  await page.goto('/');
  await page.locator('[data-testid=start-game]').waitFor();
  await page.locator('[data-testid=start-id]').check();
  await page.locator('[data-testid=id]').fill('518');
  await page.locator('[data-testid=color-white]').check();
  await page.locator('[data-testid=opponent-hotseat]').check();
  await page.locator('[data-testid=player-name]').fill('Ann');
  await page.locator('[data-testid=opponent-name]').fill('');
  const placeholder = await page.locator('[data-testid=opponent-name]').getAttribute('placeholder');
  assert.ok(placeholder, 'the box has a placeholder');
  await page.locator('[data-testid=start-game]').click();
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  const key = page.url().split('/').pop();
  const v = await view(key);
  assert.equal(v.white, 'Ann');
  assert.equal(v.black, placeholder, `the empty name is stored as "${placeholder}"`);
  await page.locator('[data-testid=name-black]', { hasText: placeholder }).waitFor();
  await page.context().close();
});

test('10. the player who offered a draw is told when it is declined', async () => {
  const { key, ann, bob } = await peopleGame();
  await move(key, ann, 'e2e4');
  await move(key, bob, 'e7e5');
  const page = await person(DESKTOP);
  await openSeated(page, key, ann, 'white');
  await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();

  // Bob says no.
  await page.locator('[data-testid=offer-draw]').click();
  await eventually(async () => (await view(key)).draw_offered_by === 'white', 'the offer made');
  await ok('POST', `/api/games/${key}/draw`, { action: 'decline' }, bob);
  await page.locator('[data-testid=message]', { hasText: 'Your draw offer was declined' }).waitFor();
  await shot(page, 'game-defects-draw-declined-1366');

  // Bob moves instead (a move declines it, FIDE 9.1.2).
  await move(key, ann, 'g1f3');
  await page.locator('[data-testid=status]', { hasText: 'Your opponent is to move' }).waitFor();
  await page.locator('[data-testid=offer-draw]').click();
  await eventually(async () => (await view(key)).draw_offered_by === 'white', 'the second offer made');
  await eventually(async () => (await page.locator('[data-testid=message]').textContent()) === '', 'the first notice gone');
  await move(key, bob, 'b8c6');
  await page.locator('[data-testid=message]', { hasText: 'Your draw offer was declined' }).waitFor();
  await page.context().close();
});

test('10. the offerer is told of the decline also when the page never showed its offer standing', async () => {
  const { key, ann, bob } = await peopleGame();
  await move(key, ann, 'e2e4');
  await move(key, bob, 'e7e5');
  const page = await person(DESKTOP);
  // No socket: the page learns of changes by reading the game again (its catch-up after an
  // action), and the offer is declined before it does, so the view with the offer standing is
  // never shown (as when a socket connects late on a loaded machine).
  await page.routeWebSocket(/\/ws/, () => {});
  await openSeated(page, key, ann, 'white');
  await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await page.locator('[data-testid=offer-draw]').click();
  await eventually(async () => (await view(key)).draw_offered_by === 'white', 'the offer made');
  await ok('POST', `/api/games/${key}/draw`, { action: 'decline' }, bob);
  await page.locator('[data-testid=message]', { hasText: 'Your draw offer was declined' }).waitFor({ timeout: 10_000 });
  await page.context().close();
});

test("11. phone: the game's controls and the answers to offers are right under the board", async () => {
  const { key, ann, bob } = await peopleGame();
  await move(key, ann, 'e2e4');
  await move(key, bob, 'e7e5');
  const page = await person(PHONE);
  await openSeated(page, key, ann, 'white');
  await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await onFirstScreen(page, page.locator('[data-testid=resign]'), 'Resign');
  await onFirstScreen(page, page.locator('[data-testid=offer-draw]'), 'Offer draw');
  await onFirstScreen(page, page.locator('[data-testid=takeback]'), 'Take back');
  await onFirstScreen(page, page.locator('[data-testid=move-input]'), 'the move box');
  await shot(page, 'game-defects-playing-390');

  // Bob offers a draw: its answers are on the first screen too.
  await ok('POST', `/api/games/${key}/draw`, { action: 'offer' }, bob);
  await page.locator('[data-testid=draw-offer]').waitFor();
  await onFirstScreen(page, page.locator('[data-testid=accept-draw]'), 'Accept the draw');
  await onFirstScreen(page, page.locator('[data-testid=decline-draw]'), 'Decline the draw');
  await shot(page, 'game-defects-offer-390');
  await page.context().close();
});

/** Two people at one device through the API (one token): { key, token }. */
async function hotseat(start = { id: 518 }) {
  const created = await ok('POST', '/api/games', { opponent: 'hotseat', start, name: 'Ann', opponent_name: 'Bob', time_control: null });
  return { key: created.key, token: created.seat_token };
}

test('13. polish: a draw agreed reads "Draw agreed (½-½)", once', async () => {
  const { key, token } = await hotseat();
  await move(key, token, 'e2e4');
  await move(key, token, 'e7e5');
  await ok('POST', `/api/games/${key}/draw`, { action: 'offer' }, token);
  const page = await person(DESKTOP);
  await page.goto(`/game/${key}`);
  await page.locator('[data-testid=status]', { hasText: /draw agreed/i }).waitFor();
  const status = (await page.locator('[data-testid=status]').textContent()).trim();
  assert.equal(status, 'Draw agreed (½-½)');
  await page.context().close();
});

test('13. polish: no "Your move" box or Play button for a spectator, nor after the end', async () => {
  const created = await ok('POST', '/api/games', { start: { id: 518 }, color: 'white', level: { depth: 1 }, time_control: null, study_ms: 0 });
  const spectator = await person(DESKTOP);
  await spectator.goto(`/game/${created.key}`);
  await spectator.locator('[data-testid=status]', { hasText: 'watching' }).waitFor();
  const play = page => page.locator('form.move-form button[type=submit]');
  assert.equal(await spectator.locator('[data-testid=move-input]').isVisible(), false, 'no move box for a spectator');
  assert.equal(await play(spectator).isVisible(), false, 'no Play button for a spectator');
  assert.equal(await spectator.locator('label[for=move-input]').isVisible(), false, 'no "Your move" for a spectator');

  const player = await person(DESKTOP);
  await openSeated(player, created.key, created.seat_token, 'white');
  await player.locator('[data-testid=move-input]').waitFor();
  assert.equal(await play(player).isEnabled(), true, 'the player has a Play button');
  await ok('POST', `/api/games/${created.key}/resign`, {}, created.seat_token);
  await player.locator('[data-testid=status]', { hasText: 'resignation' }).waitFor();
  assert.equal(await player.locator('[data-testid=move-input]').isVisible(), false, 'no move box after the end');
  assert.equal(await play(player).isVisible(), false, 'no Play button after the end');
  assert.equal(await player.locator('label[for=move-input]').isVisible(), false, 'no "Your move" after the end');
  await spectator.context().close();
  await player.context().close();
});

test('13. polish: the result "1/2-1/2" stays on one line on a phone', async () => {
  const { key, token } = await hotseat();
  await move(key, token, 'e2e4');
  await move(key, token, 'e7e5');
  await ok('POST', `/api/games/${key}/draw`, { action: 'offer' }, token);
  const page = await person(PHONE);
  await page.goto(`/game/${key}`);
  const result = page.locator('[data-testid=moves-result]');
  await result.waitFor();
  assert.equal((await result.textContent()).trim(), '1/2-1/2');
  const lines = await result.evaluate(el => el.getClientRects().length);
  assert.equal(lines, 1, '"1/2-1/2" on one line');
  await shot(page, 'game-defects-draw-390');
  await page.context().close();
});

test('13. polish: the arrow keys step through the moves while the move box has focus', async () => {
  const created = await ok('POST', '/api/games', { start: { id: 518 }, color: 'white', level: { depth: 1 }, time_control: null, study_ms: 0 });
  const page = await person(DESKTOP);
  await openSeated(page, created.key, created.seat_token, 'white');
  const input = page.locator('[data-testid=move-input]');
  await input.fill('e4');
  await input.press('Enter');
  await eventually(async () => (await view(created.key)).moves.length === 2, "the engine's reply");
  await page.locator('[data-testid=moves] button.move[data-ply="2"]').waitFor();
  const shown = () => page.locator('[data-testid=moves] button.move[aria-current]').getAttribute('data-ply');
  await eventually(async () => (await shown()) === '2', 'the last move shown');
  await input.focus();
  await page.keyboard.press('ArrowLeft');
  await eventually(async () => (await shown()) === '1', 'ArrowLeft in the move box goes one move back');
  await page.keyboard.press('ArrowRight');
  await eventually(async () => (await shown()) === '2', 'ArrowRight in the move box goes one move on');
  await page.keyboard.press('ArrowUp');
  await eventually(async () => (await page.locator('[data-testid=moves] button.move[aria-current]').count()) === 0, 'ArrowUp shows the start');
  await page.keyboard.press('ArrowDown');
  await eventually(async () => (await shown()) === '2', 'ArrowDown comes back to the game');
  // With text in the box, left and right move the caret, not the board.
  await input.fill('Nf3');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await shown(), '2');
  await page.context().close();
});

test('13. polish: a game between people who gave no names reads "White – Black", not "Player – Player"', async () => {
  const { key } = await peopleGame({ annName: null, bobName: null });
  const v = await view(key);
  assert.deepEqual([v.white, v.black], ['Player', 'Player'], 'the server keeps its default name');
  const page = await person(DESKTOP);
  await page.goto(`/game/${key}`);
  await page.locator('[data-testid=status]', { hasText: 'White is to move' }).waitFor();
  const title = await page.title();
  assert.doesNotMatch(title, /Player – Player/);
  assert.match(title, /White – Black/);
  assert.equal((await page.locator('[data-testid=name-white]').textContent()).trim(), 'White');
  assert.equal((await page.locator('[data-testid=name-black]').textContent()).trim(), 'Black');
  await page.context().close();
});

test("13. polish: the placement record says how the start was placed and puts Black's pieces on rank 8", async () => {
  const { key, token } = await hotseat({ chosen: true });
  for (const [piece, square] of [['B', 'c'], ['B', 'f'], ['N', 'b'], ['N', 'g'], ['Q', 'd']]) {
    await ok('POST', `/api/games/${key}/place`, { piece, square }, token);
  }
  const page = await person(DESKTOP);
  await page.goto(`/game/${key}`);
  const record = page.locator('[data-testid=drawn-record]');
  await record.waitFor();
  const method = (await record.locator('.drawn-method').textContent()).trim();
  assert.notEqual(method, 'chosen');
  assert.match(method, /placed by the players/i);
  assert.doesNotMatch(await page.locator('.info').textContent(), /Drawn by/);
  const steps = await record.locator('.draw-steps li').allTextContents();
  assert.deepEqual(steps.slice(0, 5), ['Black: bishop → c8', 'White: bishop → f1', 'Black: knight → b8', 'White: knight → g1', 'Black: queen → d8']);
  await page.context().close();
});

test('13. polish: an unknown game key shows "No such game" and opens no WebSocket', async () => {
  const page = await person(DESKTOP);
  const sockets = [];
  page.on('websocket', ws => sockets.push(ws.url()));
  for (const path of ['/game/0123456789abcdef0123456789abcdef', '/game/doesnotexist']) {
    await page.goto(path);
    await page.getByRole('heading', { name: 'No such game' }).waitFor();
    assert.equal(await page.locator('[data-testid=board]').count(), 0, `${path}: no board`);
    assert.equal(await page.locator('[data-testid=move-input]').count(), 0, `${path}: no move box`);
  }
  await page.waitForTimeout(2500);
  assert.deepEqual(sockets, [], 'no WebSocket, so no retries');
  assert.match(await page.title(), /No such game/);
  await page.setViewportSize(PHONE);
  await shot(page, 'game-defects-no-such-game-390');
  await page.context().close();
});

test("13. polish: at 1366×900 the game page's move box is fully on the first screen", async () => {
  const created = await ok('POST', '/api/games', { start: { id: 518 }, color: 'white', level: { depth: 1 }, time_control: { initial_ms: 300000, increment_ms: 3000 }, study_ms: 0 });
  const page = await person(DESKTOP);
  await openSeated(page, created.key, created.seat_token, 'white');
  await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await onFirstScreen(page, page.locator('[data-testid=move-input]'), 'the move box');
  await onFirstScreen(page, page.locator('form.move-form button[type=submit]'), 'Play');
  await onFirstScreen(page, page.locator('[data-testid=moves]'), 'the moves');
  await shot(page, 'game-defects-playing-1366');
  await page.context().close();
});

test('no page errors', () => {
  assert.deepEqual(errors, []);
});
