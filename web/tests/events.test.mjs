// Browser test of an arbiter's event (issue 17): the arbiter makes a Swiss from the events
// page, enters players, draws round 1's position and shows it on the hall's projector (another
// browser, which follows by itself), pairs the round, enters the results, and the standings
// appear; a player's phone sees the same event without the arbiter's controls; the printable
// sheet names the round's position.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/events.test.mjs

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { eventually, startServer } from './harness.mjs';

let server;
let browser;
const errors = [];

before(async () => {
  server = await startServer();
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium`);
  browser = await chromium.launch({ executablePath, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A browser of its own (its own local storage: only the arbiter's holds the token). */
async function person(width = 1200, height = 900) {
  const context = await browser.newContext({ baseURL: server.base, viewport: { width, height } });
  const page = await context.newPage();
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return page;
}

test('an arbiter runs a round: players, the drawn position on the projector, pairings, results, standings', async () => {
  const arbiter = await person();
  await arbiter.goto('/events');
  await arbiter.getByLabel('Event name').fill('Browser Open 960');
  await arbiter.getByLabel('Rounds').fill('3');
  await arbiter.getByLabel('Time control').fill('15+10');
  await arbiter.getByLabel('City').fill('Oslo');
  await arbiter.getByLabel('First day').fill('2026-12-05');
  await arbiter.locator('input[name=exclude_518]').check();
  await arbiter.getByRole('button', { name: 'Make the event' }).click();
  await arbiter.waitForURL(/\/events\/[0-9a-f]{32}$/);
  const url = new URL(arbiter.url());
  const key = url.pathname.split('/')[2];
  await arbiter.getByTestId('arbiter-mode').waitFor();
  // The page is drawn before the event has been read: its name comes with the first answer.
  await eventually(async () => (await arbiter.getByTestId('event-name').textContent()) === 'Browser Open 960', 'the event’s name shown');
  assert.match(await arbiter.locator('.event-summary').textContent(), /Oslo · 2026-12-05/);

  // Five players through the form (typed, Enter adds).
  const names = ['Ann Anders', 'Ben Berg', 'Cid Carlsen', 'Dora Dahl', 'Eve Eide'];
  for (const [i, name] of names.entries()) {
    await arbiter.getByLabel('Player name').fill(name);
    await arbiter.getByLabel('Rating').fill(String(2100 - 25 * i));
    if (i === 0) await arbiter.getByLabel('FIDE ID').fill('1503014');
    await arbiter.getByLabel('Player name').press('Enter');
    await eventually(async () => (await arbiter.getByTestId('players').locator('tbody tr').count()) === i + 1, `${name} listed`);
  }

  assert.match(await arbiter.getByTestId('players').textContent(), /1503014/);
  // The hall's projector is open before the draw, in another browser.
  const hall = await person(1600, 900);
  await hall.goto(`/events/${key}/projector`);
  await eventually(async () => (await hall.getByTestId('projector-round').textContent()).includes('no round drawn yet'), 'the projector waits');

  // Round 1's position, by the computer.
  await arbiter.getByTestId('draw-position').click();
  const label = await eventually(async () => {
    const t = await arbiter.getByTestId('round-position').textContent();
    return /Position \d+/.test(t) && t;
  }, 'the drawn position');
  const id = label.replace('Position ', '');
  assert.notEqual(id, '518', 'the event excludes 518');
  assert.ok((await arbiter.getByTestId('draw-steps').locator('li').count()) >= 2, 'the draw’s steps are shown');
  // The projector follows by itself: the number, the back rank, the steps.
  await eventually(async () => (await hall.getByTestId('projector-number').textContent()) === id, 'the projector shows the position');
  assert.match(await hall.getByTestId('projector-rank').textContent(), /^[KQRBN]{8}$/);
  assert.ok((await hall.getByTestId('projector-steps').locator('li').count()) >= 2);
  assert.match(await hall.getByTestId('projector-round').textContent(), /round 1/);

  // Pair: two boards and the PAB for the fifth player.
  await arbiter.getByTestId('pair-round').click();
  await arbiter.getByTestId('pairings-1').waitFor();
  assert.equal(await arbiter.getByTestId('pairings-1').locator('tbody tr:not(.bye)').count(), 2);
  assert.match(await arbiter.getByTestId('pairings-1').textContent(), /pairing-allocated bye/);
  await eventually(async () => (await hall.getByTestId('projector-pairings').locator('tr').count()) >= 2, 'the projector shows the pairings');
  assert.match(await hall.getByTestId('projector-pairings').textContent(), /Ann Anders/);

  // A player's phone: the same event, no arbiter's controls.
  const phone = await person(390, 800);
  await phone.goto(`/events/${key}`);
  await phone.getByTestId('pairings-1').waitFor();
  assert.equal(await phone.getByTestId('arbiter-mode').count(), 0);
  assert.equal(await phone.getByTestId('add-player').count(), 0);
  assert.equal(await phone.locator('select[data-testid^=result-]').count(), 0);

  // Results, as the arbiter picks them.
  await arbiter.getByTestId('result-1-1').selectOption('1-0');
  await eventually(async () => (await arbiter.getByTestId('standings').locator('tbody tr').count()) === 5, 'the standings');
  await arbiter.getByTestId('result-1-2').selectOption('1/2-1/2');
  await eventually(async () => (await arbiter.getByTestId('pair-round').count()) === 1, 'round 2 can be paired');
  const standings = await arbiter.getByTestId('standings').textContent();
  assert.match(standings, /Standings after round 1/);
  // The phone follows: the results and the standings.
  await eventually(async () => (await phone.getByTestId('standings').locator('tbody tr').count()) === 5, 'the phone’s standings');
  await eventually(async () => (await phone.getByTestId('pairings-1').textContent()).includes('1-0'), 'the phone’s result');

  // The printable sheet names the round's position.
  const sheet = await person();
  await sheet.goto(`/events/${key}/print?round=1`);
  await eventually(async () => (await sheet.getByTestId('print-position').textContent()).includes(`Start position ${id}`), 'the sheet');

  // The arbiter's next step: round 2's draw.
  // What the die showed at the board (a drawn 518 would be refused: the event excludes it).
  await arbiter.getByTestId('draw-method').selectOption('die');
  await arbiter.getByLabel('Outcomes').fill('1,1,1,1,1');
  await arbiter.getByTestId('draw-position').click();
  await eventually(async () => (await arbiter.getByTestId('draw-steps').textContent()).includes('roll'), 'a die draw with its rolls');
  // Round 2 is played on this server: each player gets his own link; Black resigns in his
  // browser, and the result comes into the event without the arbiter.
  await arbiter.getByTestId('pair-round').click();
  await arbiter.getByTestId('pairings-2').waitFor();
  await arbiter.getByTestId('play-on-server').click();
  await arbiter.getByTestId('seat-links').waitFor();
  const blackLink = await arbiter.getByTestId('seat-links').getByRole('link', { name: 'Black’s link' }).first().getAttribute('href');
  assert.match(blackLink, /^\/game\/[0-9a-f]{32}#seat=[0-9a-f]{32}&color=black$/);
  const black = await person();
  await black.goto(blackLink);
  await eventually(async () => !(await black.url()).includes('#seat='), 'the token leaves the address bar');
  const resign = black.getByTestId('resign');
  await eventually(async () => (await resign.count()) === 1 && (await resign.isEnabled()), 'Black can resign');
  black.once('dialog', d => void d.accept());
  await resign.click();
  await eventually(async () => (await arbiter.getByTestId('result-2-1').inputValue()) === '1-0', 'the game’s result in the event', 30_000);
  assert.equal(await arbiter.getByTestId('game-2-1').count(), 1, 'the board links to its game');
  assert.deepEqual(errors, [], 'no errors in the pages');
});
