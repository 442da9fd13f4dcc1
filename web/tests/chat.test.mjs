// Browser tests for the chat of issue 40 §2: two people chat during their game, HTML arrives
// as text, a player mutes the other or switches the chat off, spectators have a room of their
// own, engine games have none, and a phone has no sideways scroll.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/chat.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, apiOk, eventually, people, shot, sideways, takeSeat } from './harness.mjs';

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

const ok = (method, path, body, token) => apiOk(server.base, method, path, body, { seat: token });

/** Opens the game as the holder of `token`. */
async function openSeated(page, key, token, color) {
  await page.goto(`/game/${key}#seat=${token}&color=${color}`);
  await page.locator('[data-testid=status]').waitFor();
  await eventually(async () => !/Loading/.test((await page.locator('[data-testid=status]').textContent()) ?? ''), 'the game loaded');
}

/** Plays `san` in the move box. */
async function play(page, san) {
  await page.locator('[data-testid=move-input]').fill(san);
  await page.locator('[data-testid=play-move]').click();
}

const lines = page => page.locator('[data-testid=chat-log] .chat-text').allTextContents();

async function say(page, text) {
  await page.locator('[data-testid=chat-input]').fill(text);
  await page.locator('[data-testid=chat-send]').click();
}

test('two players chat as text; a muted opponent is not heard; the chat can be switched off', async () => {
  const created = await ok('POST', '/api/games', { opponent: 'human', start: { id: 518 }, color: 'white', name: 'Ann', time_control: null });
  const joined = await ok('POST', `/api/games/${created.key}/join`, { name: 'Bob' });
  const key = created.key;
  const ann = await person(DESKTOP);
  const bob = await person(PHONE);
  await openSeated(ann, key, created.seat_token, 'white');
  await openSeated(bob, key, joined.seat_token, 'black');
  await play(ann, 'e4');
  await eventually(async () => (await bob.locator('[data-testid=moves]').textContent())?.includes('e4'), 'Bob sees e4');
  await play(bob, 'e5');
  await eventually(async () => (await ann.locator('[data-testid=moves]').textContent())?.includes('e5'), 'Ann sees e5');

  // Ann writes HTML: Bob reads it literally, and no element is made of it.
  await ann.locator('[data-testid=chat]').waitFor();
  await say(ann, '<b>hi</b>');
  await eventually(async () => (await lines(bob)).includes('<b>hi</b>'), 'Bob reads <b>hi</b> as text');
  assert.equal(await bob.locator('[data-testid=chat-log] b').count(), 0, 'no <b> element in the chat');
  assert.equal(await ann.locator('[data-testid=chat-input]').inputValue(), '', 'the box is emptied once sent');
  await say(bob, 'hello Ann');
  await eventually(async () => (await lines(ann)).includes('hello Ann'), 'Ann reads Bob');

  // The phone: the chat comes below the board's controls, and nothing scrolls sideways.
  const chatBox = await bob.locator('[data-testid=chat]').boundingBox();
  const boardBox = await bob.locator('[data-testid=board]').boundingBox();
  assert.ok(chatBox && boardBox && chatBox.y > boardBox.y + boardBox.height, 'the chat is below the board on a phone');
  assert.equal(await sideways(bob), false, 'no sideways scroll at 390 px');
  await shot(bob, 'chat-phone');
  await shot(ann, 'chat-desktop');

  // A line over 140 characters is refused, with the server's reason shown.
  await ann.evaluate(() => document.querySelector('[data-testid=chat-input]').removeAttribute('maxlength'));
  await say(ann, 'x'.repeat(141));
  await eventually(async () => /at most 140/.test((await ann.locator('[data-testid=chat-error]').textContent()) ?? ''), 'the length refusal');

  // Bob mutes Ann: her new lines are dropped on his page (they do reach Ann's own).
  await bob.locator('[data-testid=chat-mute]').check();
  assert.equal((await lines(bob)).includes('<b>hi</b>'), false, 'a muted player’s lines are hidden');
  await say(ann, 'are you there?');
  await eventually(async () => (await lines(ann)).includes('are you there?'), 'Ann’s line was sent');
  await bob.waitForTimeout(500);
  assert.deepEqual(await lines(bob), ['hello Ann'], 'Bob sees none of Ann’s lines');
  await bob.reload();
  await bob.locator('[data-testid=chat-log]').waitFor();
  await eventually(async () => (await lines(bob)).includes('hello Ann'), 'Bob’s chat after a reload');
  assert.equal((await lines(bob)).includes('are you there?'), false, 'the mute is kept over a reload');

  // Switching the chat off hides it, and is kept.
  await ann.locator('[data-testid=chat-off]').check();
  assert.equal(await ann.locator('[data-testid=chat-body]').isVisible(), false, 'chat off hides it');
  await ann.reload();
  await ann.locator('[data-testid=chat-off]').waitFor();
  assert.equal(await ann.locator('[data-testid=chat-off]').isChecked(), true, 'chat off is remembered');
  assert.equal(await ann.locator('[data-testid=chat-body]').isVisible(), false, 'still hidden after a reload');
  await ann.locator('[data-testid=chat-off]').uncheck();
  await eventually(async () => (await lines(ann)).includes('hello Ann'), 'chat on again shows the lines');

  // A spectator: the spectators' room only, under a guest name; the players read it in a tab.
  const zoe = await person(PHONE);
  await zoe.goto(`/game/${key}`);
  await zoe.locator('[data-testid=chat-input]').waitFor();
  assert.equal(await zoe.locator('[data-testid=chat-tab-players]').count(), 0, 'a spectator has no players’ tab');
  await zoe.locator('[data-testid=chat-name]').fill('Zoe');
  await say(zoe, 'nice opening');
  await eventually(async () => (await lines(zoe)).includes('nice opening'), 'Zoe reads her line');
  assert.equal((await lines(zoe)).includes('hello Ann'), false, 'a spectator does not read the players');
  await ann.locator('[data-testid=chat-tab-spectators]').click();
  await eventually(async () => (await lines(ann)).includes('nice opening'), 'Ann reads the spectators');
  assert.equal(await sideways(zoe), false, 'no sideways scroll for a spectator at 390 px');
  await shot(zoe, 'chat-spectator-phone');
  assert.deepEqual(errors, []);
});

test('a game against the engine has no chat', async () => {
  const view = await ok('POST', '/api/games', { start: { id: 518 }, color: 'white', level: { depth: 1 }, time_control: null, study_ms: 0 });
  const page = await person(DESKTOP);
  await takeSeat(page, view);
  await page.goto(`/game/${view.key}`);
  await page.locator('[data-testid=status]').waitFor();
  await eventually(async () => !/Loading/.test((await page.locator('[data-testid=status]').textContent()) ?? ''), 'the game loaded');
  assert.equal(await page.locator('[data-testid=chat]').isVisible(), false, 'no chat against the engine');
  assert.deepEqual(errors, []);
});
