// Browser tests of quick pairing and the engine at full strength (issue 40 §2): the home page
// leads with a grid of clocks; a click against a person takes a waiting lobby challenge with
// that clock or opens one; against the engine it starts the game at once; the form offers the
// engine at full strength with a time per move.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/quick.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, eventually, gameKey, people, shot } from './harness.mjs';

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

const get = async path => (await fetch(`${server.base}${path}`)).json();

test('the grid leads the home page, on the first screen at both sizes, before the form', async () => {
  for (const [name, viewport] of [
    ['1366', DESKTOP],
    ['phone', PHONE],
  ]) {
    const page = await person(viewport);
    await page.goto('/');
    const grid = page.getByTestId('quick-grid');
    await grid.waitFor();
    const tiles = await grid.locator('.quick-tile').allTextContents();
    assert.equal(tiles.length, 12, 'eleven clocks and Custom');
    assert.match(tiles[0], /^1\+0/);
    assert.match(tiles.at(-2), /^30\+20/);
    const box = await grid.boundingBox();
    assert.ok(box.y + box.height <= viewport.height, `${name}: the whole grid on the first screen (${box.y + box.height} > ${viewport.height})`);
    const form = await page.locator('#new-game').boundingBox();
    assert.ok(form.y > box.y, 'the form comes after the grid');
    const width = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(width, `${name}: no sideways scroll`);
    await shot(page, `quick-home-${name}`);
    await page.context().close();
  }
});

test('two people click the same clock and meet in one game; another clock opens its own challenge', async () => {
  const ann = await person();
  await ann.goto('/');
  await ann.getByTestId('quick-human').check();
  await ann.getByTestId('quick-3+2').click();
  const key = await gameKey(ann);
  let lobby = await eventually(async () => {
    const l = await get('/api/lobby');
    return l.challenges.length === 1 ? l : null;
  }, 'Ann’s challenge listed');
  assert.deepEqual(lobby.challenges[0].time_control, { initial_ms: 180_000, increment_ms: 2000 });
  assert.notEqual(lobby.challenges[0].start_id, null, 'a Chess960 start, drawn');

  // Ann clicking again (from her own browser) does not take her own challenge.
  const carl = await person();
  await carl.goto('/');
  await carl.getByTestId('quick-human').check();
  await carl.getByTestId('quick-1+0').click();
  const carlKey = await gameKey(carl);
  assert.notEqual(carlKey, key, 'a 1+0 click does not take a 3+2 challenge');

  const bob = await person(PHONE);
  await bob.goto('/');
  await bob.getByTestId('quick-human').check();
  await bob.getByTestId('quick-3+2').click();
  assert.equal(await gameKey(bob), key, 'Bob joins Ann’s game');
  const view = await eventually(async () => {
    const v = await get(`/api/games/${key}`);
    return v.status !== 'waiting' ? v : null;
  }, 'both seats taken');
  assert.deepEqual(view.time_control, { initial_ms: 180_000, increment_ms: 2000 });
  lobby = await get('/api/lobby');
  assert.deepEqual(
    lobby.challenges.map(c => c.key),
    [carlKey],
    'only Carl’s 1+0 still waits',
  );
  await shot(bob, 'quick-joined-phone');
  for (const p of [ann, bob, carl]) await p.context().close();
});

test('against the engine a click starts the game at once, at the form’s level; full strength with a time per move', async () => {
  const page = await person();
  await page.goto('/');
  await page.getByTestId('quick-engine').check();
  await page.getByTestId('quick-5+0').click();
  let key = await gameKey(page);
  let view = await get(`/api/games/${key}`);
  assert.deepEqual(view.time_control, { initial_ms: 300_000, increment_ms: 0 });
  assert.ok(view.level && 'elo' in view.level, 'the form’s default level, Elo');

  // Full strength in the form, 0.3 s a move, no clock.
  await page.goto('/');
  await page.locator('input[name=opponent][value=engine]').check();
  await page.locator('input[name=level][value=full]').check();
  await page.getByTestId('move-seconds').fill('0.3');
  await page.getByTestId('clock').selectOption('none');
  await page.getByTestId('start-game').click();
  key = await gameKey(page);
  view = await get(`/api/games/${key}`);
  assert.deepEqual(view.level, { full: { movetime_ms: 300 } });
  await shot(page, 'quick-full-strength-1366');

  // The grid against the engine now plays at full strength too (the form's level).
  await page.goto('/');
  await page.getByTestId('quick-engine').check();
  await page.getByTestId('quick-1+0').click();
  key = await gameKey(page);
  view = await get(`/api/games/${key}`);
  assert.deepEqual(view.level, { full: { movetime_ms: 300 } });
  await page.context().close();
});

test('no script errors', () => {
  assert.deepEqual(errors, []);
});
