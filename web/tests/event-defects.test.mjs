// Browser tests of the events' defects of issue 40 (points 2, 6, 7 and the events' part of 13),
// each failing before its fix: the arbiter's event page on a 390×844 phone is no wider than the
// screen (nor its projector and print sheet), a round's players' links can be shown again after
// a reload (for the arbiter only), "No." means the pairing number wherever it is written, the
// standings wait for the first result, "1 player", and the print sheet draws the position.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/event-defects.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, eventApi, eventPerson, eventually, launchChromium, shot, startServer } from './harness.mjs';


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

/** A new event made over the API: { key, token }. */
async function newEvent(body) {
  const made = await api('POST', '/api/events', { time_control: '15+10', ...body });
  return { key: made.key, token: made.arbiter_token };
}

/** A browser of its own at `size`; with `event`, it holds that event's arbiter token. */
function person(size, event) {
  return eventPerson(browser, server.base, size, event, errors, /status of 403/);
}

/** The page's width against the window's: the document must not scroll sideways. */
async function assertNoSidewaysScroll(page, what) {
  // Layout settles (the board, the fonts) before it is measured.
  await page.waitForTimeout(150);
  const m = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, win: window.innerWidth }));
  assert.ok(m.doc <= m.win && m.body <= m.win, `${what}: the page is ${Math.max(m.doc, m.body)} px wide in a ${m.win} px window`);
}

/** The rows of the table `testid` (or selector) as arrays of their cells' texts. */
function rows(page, selector) {
  return page.locator(selector).evaluate(table => [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent.trim())));
}

function headings(page, selector) {
  return page.locator(selector).evaluate(table => [...table.querySelectorAll('thead th')].map(th => th.textContent.trim()));
}

test('2: on a phone the arbiter’s event page is no wider than the screen, with players, pairings and standings', async () => {
  const event = await newEvent({ name: 'Phone Open 960', format: 'swiss', rounds: 5 });
  const arbiter = await person(PHONE, event);
  await arbiter.goto(`/events/${event.key}`);
  await arbiter.getByTestId('add-player').waitFor();
  await assertNoSidewaysScroll(arbiter, 'the new event');

  // One player through the form: the table must not push the page wider than the phone.
  await arbiter.getByLabel('Player name').fill('Andersen-Lindqvist, Annabelle');
  await arbiter.getByLabel('Rating').fill('2100');
  await arbiter.getByLabel('Federation').fill('NOR');
  await arbiter.getByLabel('FIDE ID').fill('1503014');
  await arbiter.getByRole('button', { name: 'Add player' }).click();
  await eventually(async () => (await arbiter.getByTestId('players').locator('tbody tr').count()) === 1, 'the player listed');
  await assertNoSidewaysScroll(arbiter, 'one player entered');
  // The header spans the page, and "Add player" is on the screen and nothing covers it.
  const header = await arbiter.locator('.site-header').evaluate(el => el.getBoundingClientRect().width);
  assert.ok(header >= (await arbiter.evaluate(() => window.innerWidth)) - 1, `the header is ${header} px wide`);
  const add = arbiter.getByRole('button', { name: 'Add player' });
  await add.scrollIntoViewIfNeeded();
  const box = await add.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `"Add player" at x ${box.x}–${box.x + box.width}`);
  assert.ok(
    await add.evaluate(el => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }),
    '"Add player" is not covered',
  );
  await shot(arbiter, 'event-defects-phone-arbiter-one-player');

  // Four more, round 1 drawn and paired, one result in: pairings and standings on the page.
  for (const [i, name] of ['Berg, Ben', 'Carlsen, Cid', 'Dahl, Dora', 'Eide, Eve'].entries()) {
    await api('POST', `/api/events/${event.key}/players`, { name, rating: 2000 - 10 * i, federation: 'NOR', fide_id: 1500000 + i }, event.token);
  }
  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'computer' }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/boards/1/result`, { result: '1-0' }, event.token);
  await arbiter.reload();
  await arbiter.getByTestId('pairings-1').waitFor();
  await arbiter.getByTestId('standings').locator('table').waitFor();
  await assertNoSidewaysScroll(arbiter, 'pairings and standings');
  // Board 2 played on the server: its players' links on the page.
  await arbiter.getByTestId('play-on-server').click();
  await arbiter.getByTestId('seat-links').waitFor();
  await assertNoSidewaysScroll(arbiter, 'the players’ links');
  await shot(arbiter, 'event-defects-phone-arbiter-round');

  // A spectator's phone, the hall's projector and the print sheet, at the same width.
  const phone = await person(PHONE);
  await phone.goto(`/events/${event.key}`);
  await phone.getByTestId('pairings-1').waitFor();
  await phone.getByTestId('standings').locator('table').waitFor();
  await assertNoSidewaysScroll(phone, 'the spectator’s event page');
  await shot(phone, 'event-defects-phone-spectator');
  await phone.goto(`/events/${event.key}/projector`);
  await eventually(async () => /^\d+$/.test(await phone.getByTestId('projector-number').textContent()), 'the projector');
  await assertNoSidewaysScroll(phone, 'the projector');
  await shot(phone, 'event-defects-phone-projector');
  await phone.goto(`/events/${event.key}/print?round=1`);
  await phone.getByTestId('print-position').waitFor();
  await assertNoSidewaysScroll(phone, 'the print sheet');
  await shot(phone, 'event-defects-phone-print');
  assert.deepEqual(errors, [], 'no errors in the pages');
});

test('6: the arbiter shows a round’s players’ links again after a reload; nobody else gets them', async () => {
  const event = await newEvent({ name: 'Links 960', format: 'round_robin' });
  for (const name of ['Ann', 'Ben', 'Cid', 'Dora']) await api('POST', `/api/events/${event.key}/players`, { name }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'set', id: 100 }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);

  const arbiter = await person(DESKTOP, event);
  await arbiter.goto(`/events/${event.key}`);
  await arbiter.getByTestId('play-on-server').click();
  const links = arbiter.getByTestId('seat-links');
  await links.waitFor();
  const first = await links.getByRole('link').evaluateAll(as => as.map(a => a.getAttribute('href')));
  assert.equal(first.length, 4, 'two boards, two links each');

  // After a reload the links are gone from the page, and the arbiter can have them again.
  await arbiter.reload();
  await arbiter.getByTestId('pairings-1').waitFor();
  assert.equal(await arbiter.getByTestId('seat-links').count(), 0);
  await arbiter.getByTestId('show-seat-links').click({ timeout: 5000 });
  await links.waitFor();
  const again = await links.getByRole('link').evaluateAll(as => as.map(a => a.getAttribute('href')));
  assert.deepEqual(again, first, 'the same links: the ones handed out stay valid');
  await shot(arbiter, 'event-defects-desktop-arbiter-links');

  // Only the arbiter: a spectator has no such button, and the API gives them to no one else.
  const spectator = await person(DESKTOP);
  await spectator.goto(`/events/${event.key}`);
  await spectator.getByTestId('pairings-1').waitFor();
  assert.equal(await spectator.getByTestId('show-seat-links').count(), 0);
  await shot(spectator, 'event-defects-desktop-spectator');
  for (const token of [undefined, 'f'.repeat(32)]) {
    const r = await fetch(`${server.base}/api/events/${event.key}/rounds/1/links`, { headers: token ? { 'X-Arbiter-Token': token } : {} });
    assert.equal(r.status, 403, `links with ${token ? 'another token' : 'no token'}`);
    assert.doesNotMatch(await r.text(), /seat=/);
  }

  // A link shown again gives its player the seat: Black of board 2 resigns, the event has 1-0.
  const black = again[3];
  const board = 2;
  assert.match(black, /^\/game\/[0-9a-f]{32}#seat=[0-9a-f]{32}&color=black$/);
  const player = await person(DESKTOP);
  await player.goto(black);
  const resign = player.getByTestId('resign');
  await eventually(async () => (await resign.count()) === 1 && (await resign.isEnabled()), 'Black can resign');
  await resign.click();
  await eventually(async () => (await arbiter.getByTestId(`result-1-${board}`).inputValue()) === '1-0', 'the game’s result in the event', 30_000);
  assert.deepEqual(errors, [], 'no errors in the pages');
});

test('7: “No.” is the pairing number wherever the event page writes it', async () => {
  const event = await newEvent({ name: 'Numbers 960', format: 'swiss', rounds: 3 });
  // Entered from the lowest rating up: the order of entry is not the pairing order.
  for (const [i, name] of ['Ann', 'Ben', 'Cid', 'Dora'].entries()) {
    await api('POST', `/api/events/${event.key}/players`, { name, rating: 1800 + 100 * i }, event.token);
  }
  const arbiter = await person(DESKTOP, event);
  await arbiter.goto(`/events/${event.key}`);
  await eventually(async () => (await arbiter.getByTestId('players').locator('tbody tr').count()) === 4, 'the players');
  // Before round 1 is paired there are no pairing numbers: no "No." column.
  assert.ok(!(await headings(arbiter, '[data-testid=players]')).includes('No.'), 'no “No.” before the pairing numbers exist');

  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'computer' }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/boards/1/result`, { result: '1-0' }, event.token);
  await arbiter.reload();
  await arbiter.getByTestId('standings').locator('table').waitFor();
  const numbers = {};
  const playerHeads = await headings(arbiter, '[data-testid=players]');
  const no = playerHeads.indexOf('No.');
  const nameAt = playerHeads.indexOf('Name');
  assert.ok(no >= 0, `the players’ table has the pairing number: ${playerHeads}`);
  for (const cells of await rows(arbiter, '[data-testid=players]')) numbers[cells[nameAt]] = cells[no];
  const standingHeads = await headings(arbiter, '[data-testid=standings] table');
  const sNo = standingHeads.indexOf('No.');
  const sName = standingHeads.indexOf('Player');
  for (const cells of await rows(arbiter, '[data-testid=standings] table')) {
    const name = cells[sName].replace(/ \(\d+\)$/, '');
    assert.equal(numbers[name], cells[sNo], `${name}: the same “No.” in the players’ table and the standings`);
  }
  // The pairing numbers by rating: Dora (2100) is 1.
  assert.equal(numbers.Dora, '1');
  assert.deepEqual(errors, [], 'no errors in the pages');
});

test('13: the standings wait for the first result', async () => {
  const event = await newEvent({ name: 'Zeros 960', format: 'swiss', rounds: 3 });
  for (const name of ['Ann', 'Ben', 'Cid', 'Dora']) await api('POST', `/api/events/${event.key}/players`, { name }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'computer' }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);
  const arbiter = await person(DESKTOP, event);
  await arbiter.goto(`/events/${event.key}`);
  await arbiter.getByTestId('pairings-1').waitFor();
  await eventually(async () => /No results yet/.test(await arbiter.getByTestId('standings').textContent()), 'a note instead of a table of zeros', 5000);
  assert.equal(await arbiter.getByTestId('standings').locator('table').count(), 0, 'no table of zeros');
  await arbiter.getByTestId('result-1-1').selectOption('1-0');
  await eventually(async () => (await arbiter.getByTestId('standings').locator('tbody tr').count()) === 4, 'the standings after the first result');
  assert.doesNotMatch(await arbiter.getByTestId('standings').textContent(), /No results yet/);
  assert.deepEqual(errors, [], 'no errors in the pages');
});

test('13: one player is “1 player”', async () => {
  const event = await newEvent({ name: 'Solo 960', format: 'swiss', rounds: 3 });
  await api('POST', `/api/events/${event.key}/players`, { name: 'Ann' }, event.token);
  const page = await person(DESKTOP);
  await page.goto(`/events/${event.key}`);
  await eventually(async () => /\b1 player\b/.test(await page.locator('.event-summary').textContent()), '“1 player” in the summary', 5000);
  assert.doesNotMatch(await page.locator('.event-summary').textContent(), /1 players/);
  await page.goto('/events');
  const item = page.locator('li', { hasText: 'Solo 960' });
  await item.waitFor();
  assert.match(await item.textContent(), /\b1 player\b/);
  assert.doesNotMatch(await item.textContent(), /1 players/);
  assert.deepEqual(errors, [], 'no errors in the pages');
});

test('13: the print sheet has a diagram of the round’s start position', async () => {
  const event = await newEvent({ name: 'Print 960', format: 'round_robin' });
  for (const name of ['Ann Anders', 'Ben Berg', 'Cid Carlsen', 'Dora Dahl']) await api('POST', `/api/events/${event.key}/players`, { name, rating: 2000 }, event.token);
  const drawn = await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'set', id: 100 }, event.token);
  const rank = drawn.round_list[0].draw.position.back_rank;
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);
  const roles = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
  for (const size of [DESKTOP, PHONE]) {
    const page = await person(size);
    await page.goto(`/events/${event.key}/print?round=1`);
    await page.getByTestId('print-position').waitFor();
    const diagram = page.getByTestId('print-diagram');
    await diagram.waitFor({ timeout: 5000 });
    const pieces = await diagram.locator('[data-square]').evaluateAll(els => Object.fromEntries(els.map(e => [e.getAttribute('data-square'), e.getAttribute('data-piece')])));
    assert.equal(Object.keys(pieces).length, 32, 'every piece of the start position');
    [...rank].forEach((letter, i) => {
      const file = 'abcdefgh'[i];
      assert.equal(pieces[`${file}1`], `white ${roles[letter]}`, `${file}1`);
      assert.equal(pieces[`${file}8`], `black ${roles[letter]}`, `${file}8`);
      assert.equal(pieces[`${file}2`], 'white pawn');
      assert.equal(pieces[`${file}7`], 'black pawn');
    });
    // Drawn as images (a CSS background would not print) and on the screen.
    assert.equal(await diagram.locator('image').count(), 32);
    const box = await diagram.boundingBox();
    assert.ok(box.width >= 150 && box.x + box.width <= size.width, `the diagram is ${box.width} px wide at x ${box.x}`);
    await assertNoSidewaysScroll(page, `the print sheet at ${size.width} px`);
    await shot(page, `event-defects-${size === PHONE ? 'phone' : 'desktop'}-print`);
  }
  // The event page at 1366×900 as its arbiter, for the record.
  const arbiter = await person(DESKTOP, event);
  await arbiter.goto(`/events/${event.key}`);
  await arbiter.getByTestId('pairings-1').waitFor();
  await shot(arbiter, 'event-defects-desktop-arbiter');
  assert.deepEqual(errors, [], 'no errors in the pages');
});
