// Browser test of a big open's pairing (issue 41): 1,000 players (the most an event takes), the
// arbiter pairs round 1 from the event page, which shows a progress bar of the players placed
// while the server pairs, then the pairings; a spectator's page shows the same progress.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/event-pairing.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, eventApi, eventPerson, eventually, launchChromium, shot, startServer } from './harness.mjs';

let server;
let browser;
const errors = [];

before(async () => {
  server = await startServer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const api = (...args) => eventApi(server.base)(...args);
const person = event => eventPerson(browser, server.base, DESKTOP, event, errors);

test('a 1,000-player round: the arbiter and a spectator see the pairing progress, then the pairings', async () => {
  const made = await api('POST', '/api/events', { name: 'Big Open', format: 'swiss', rounds: 9, time_control: '90+30' });
  const event = { key: made.key, token: made.arbiter_token };
  // 1,000 entries, eight requests at a time.
  const names = Array.from({ length: 1000 }, (_, i) => i);
  for (let i = 0; i < names.length; i += 8) {
    await Promise.all(
      names.slice(i, i + 8).map(k => api('POST', `/api/events/${event.key}/players`, { name: `Player ${String(k + 1).padStart(4, '0')}`, rating: 2700 - k }, event.token)),
    );
  }
  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'computer' }, event.token);

  const arbiter = await person(event);
  await arbiter.goto(`/events/${event.key}`);
  const spectator = await person(null);
  await spectator.goto(`/events/${event.key}`);
  await arbiter.getByTestId('pair-round').waitFor();
  const progress = arbiter.getByTestId('pairing-progress');
  assert.equal(await progress.isVisible(), false, 'no progress before the pairing');

  await arbiter.getByTestId('pair-round').click();
  await progress.waitFor({ state: 'visible' });
  const text = (await progress.innerText()).trim();
  assert.match(text, /^Pairing round 1: [\d,]+ of 1,000 players placed/);
  const bar = await progress.locator('progress').evaluate(p => ({ max: p.max, value: p.value }));
  assert.equal(bar.max, 1000);
  assert.ok(bar.value >= 0 && bar.value <= 1000, JSON.stringify(bar));
  assert.equal(await arbiter.getByTestId('pair-round').isDisabled(), true, 'one pairing at a time');
  await shot(arbiter, 'event-pairing-progress-desktop');
  // The spectator's page reads the same view every few seconds.
  const seen = await eventually(async () => {
    const t = (await spectator.getByTestId('pairing-progress').isVisible()) && (await spectator.getByTestId('pairing-progress').innerText()).trim();
    return t || (await spectator.locator('[data-testid=event-round] tbody tr').count()) > 0 ? t || 'paired already' : null;
  }, 'the spectator’s page following the pairing', 60_000);
  assert.match(seen, /^(Pairing round 1: [\d,]+ of 1,000 players placed|paired already)/);

  // Then the pairings, and the bar goes.
  await eventually(async () => (await arbiter.locator('[data-testid=event-round] tbody tr').count()) >= 500, 'the 500 boards of round 1', 120_000);
  assert.equal(await progress.isVisible(), false, 'the bar goes once the round is paired');
  const view = await api('GET', `/api/events/${event.key}`);
  assert.equal(view.pairing, null);
  assert.equal(view.round_list[0].boards.length, 500);
  await eventually(async () => !(await spectator.getByTestId('pairing-progress').isVisible()), 'the spectator’s bar gone', 20_000);
  assert.deepEqual(errors, []);
});

test('an accelerated Swiss made in the browser: the form offers the Baku method, and round 1 pairs within GA and GB', async () => {
  const arbiter = await person(null);
  await arbiter.goto('/events');
  await arbiter.getByLabel('Event name').fill('Baku Open');
  await arbiter.getByLabel('Rounds').fill('5');
  await arbiter.getByLabel('Acceleration').selectOption('baku');
  await arbiter.getByRole('button', { name: 'Make the event' }).click();
  await arbiter.waitForURL(/\/events\/[0-9a-f]{32}$/);
  const key = new URL(arbiter.url()).pathname.split('/')[2];
  await eventually(async () => /accelerated \(Baku\)/.test(await arbiter.locator('.event-summary').textContent()), 'the summary says accelerated');
  const token = await arbiter.evaluate(k => JSON.parse(localStorage.getItem('chess960.arbiter'))[k], key);
  assert.equal((await api('GET', `/api/events/${key}`)).acceleration, 'baku');
  for (let k = 1; k <= 8; k++) await api('POST', `/api/events/${key}/players`, { name: `Player ${k}`, rating: 2500 - 10 * k }, token);
  await api('POST', `/api/events/${key}/rounds/1/draw`, { method: 'computer' }, token);
  await arbiter.reload();
  await arbiter.getByTestId('pair-round').click();
  await arbiter.getByTestId('pairings-1').waitFor();
  // GA is the first four (2·⌈8/4⌉) with a virtual point: 1–3 and 2–4 meet, and 5–7, 6–8 in GB
  // (not 1–5 … 4–8, as without acceleration).
  const view = await api('GET', `/api/events/${key}`);
  const pn = new Map(view.players.map(p => [p.number, p.pairing_number]));
  const games = view.round_list[0].boards.map(b => [pn.get(b.white), pn.get(b.black)].sort((x, y) => x - y).join('–')).sort();
  assert.deepEqual(games, ['1–3', '2–4', '5–7', '6–8']);
  assert.equal(await arbiter.getByTestId('pairings-1').locator('tbody tr').count(), 4);
  assert.deepEqual(errors, []);
});
