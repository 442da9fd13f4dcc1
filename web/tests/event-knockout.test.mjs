// Browser test of a knockout event: the arbiter makes a 4-player knockout in the browser (two
// games a match, then two rapid games, then an Armageddon), draws round 1's position and pairs
// it from the event page, enters one tied match and one decided one, draws the tiebreak
// stages' positions and adds their games from the page, and an Armageddon draw sends Black
// through; the bracket says so, the final is paired, and the hall's projector shows the bracket
// and the positions in play. On a 390 px phone the event page never scrolls sideways.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/event-knockout.test.mjs
// Screenshots go to $KNOCKOUT_SHOTS (default /tmp/chess960-knockout-shots).

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, eventApi, eventPerson, eventually, launchChromium, pageWidths, startServer } from './harness.mjs';

const SHOTS = process.env.KNOCKOUT_SHOTS ?? '/tmp/chess960-knockout-shots';

let server;
let browser;
const errors = [];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const api = (...args) => eventApi(server.base)(...args);
const person = (size, event) => eventPerson(browser, server.base, size, event, errors, /status of 403/);
const snap = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** The page's width against the window's: the document must not scroll sideways. */
async function assertNoSidewaysScroll(page, what) {
  const m = await pageWidths(page);
  if (!(m.doc <= m.win && m.body <= m.win)) await snap(page, `knockout-too-wide-${what.replace(/\W+/g, '-')}`);
  assert.ok(m.doc <= m.win && m.body <= m.win, `${what}: the page is ${Math.max(m.doc, m.body)} px wide in a ${m.win} px window: ${m.wide.join(', ')}`);
}

/** The boards of round `round` of match `match`, stage `stage`, as the API lists them. */
async function boardsOf(key, round, match, stage) {
  const v = await api('GET', `/api/events/${key}`);
  return v.round_list[round - 1].boards.filter(b => b.match === match && b.stage === stage);
}

/** Enters a result on the arbiter's page, and waits until the server has it. */
async function enter(page, key, round, board, result) {
  await page.getByTestId(`result-${round}-${board}`).selectOption(result);
  await eventually(async () => (await api('GET', `/api/events/${key}`)).round_list[round - 1].boards[board - 1].result === result, `round ${round} board ${board}: ${result}`);
}

test('a knockout made in the browser: tiebreak stages drawn and added from the page, an Armageddon draw sends Black through, the projector shows the bracket', async () => {
  const started = Date.now();
  // The new-event form: a knockout with its tiebreak stages, the blitz stage removed.
  const arbiter = await person(DESKTOP);
  await arbiter.goto('/events');
  await arbiter.getByLabel('Event name').fill('Knockout 960');
  await arbiter.getByLabel('Format').selectOption('knockout');
  await arbiter.getByTestId('knockout-fields').waitFor();
  assert.equal(await arbiter.getByLabel('Rounds').isVisible(), false, 'a knockout has no rounds to set');
  assert.equal(await arbiter.getByLabel('Games per match').inputValue(), '2');
  assert.equal(await arbiter.getByLabel('Stage 1 kind').inputValue(), 'rapid');
  assert.equal(await arbiter.getByLabel('Stage 1 games').inputValue(), '2');
  assert.equal(await arbiter.getByLabel('Stage 1 time control').inputValue(), '10+5');
  assert.equal(await arbiter.getByLabel('Stage 2 kind').inputValue(), 'blitz');
  assert.equal(await arbiter.getByLabel('Stage 2 time control').inputValue(), '3+2');
  assert.equal(await arbiter.getByLabel('Stage 3 kind').inputValue(), 'armageddon');
  assert.equal(await arbiter.getByLabel('Stage 3 time control').inputValue(), '5+0');
  await arbiter.getByRole('button', { name: 'Remove stage 2' }).click();
  assert.equal(await arbiter.getByLabel('Stage 2 kind').inputValue(), 'armageddon');
  assert.equal(await arbiter.getByLabel('Stage 3 kind').count(), 0);
  // An added stage can be removed again.
  await arbiter.getByRole('button', { name: 'Add a stage' }).click();
  assert.equal(await arbiter.getByLabel('Stage 3 kind').inputValue(), 'blitz');
  await arbiter.getByRole('button', { name: 'Remove stage 3' }).click();
  await arbiter.getByLabel('Time control', { exact: true }).fill('15+10');
  await snap(arbiter, 'knockout-form');
  await arbiter.getByRole('button', { name: 'Make the event' }).click();
  await arbiter.waitForURL(/\/events\/[0-9a-f]{32}$/);
  const key = new URL(arbiter.url()).pathname.split('/')[2];
  const token = await arbiter.evaluate(k => JSON.parse(localStorage.getItem('chess960.arbiter'))[k], key);
  const made = await api('GET', `/api/events/${key}`);
  assert.equal(made.format, 'knockout');
  assert.equal(made.knockout.games, 2);
  assert.equal(made.knockout.seeding, 'rating');
  assert.deepEqual(
    made.knockout.tiebreaks.map(t => [t.kind, t.games, t.time_control]),
    [
      ['rapid', 2, '10+5'],
      ['armageddon', 1, '5+0'],
    ],
  );
  await eventually(async () => /Knockout/.test(await arbiter.locator('.event-summary').textContent()), 'the summary says knockout');

  // Four players over the API; seeds by rating: 1–4 and 2–3 in the semifinals.
  const names = ['Anand, Ada', 'Berg, Ben', 'Carlsen, Cid', 'Dahl, Dora'];
  for (const [i, name] of names.entries()) await api('POST', `/api/events/${key}/players`, { name, rating: 2400 - 100 * i }, token);
  await arbiter.reload();
  // Round 1's position drawn and the round paired from the page.
  await arbiter.getByTestId('draw-position').click();
  await eventually(async () => /^Position \d+$/.test(await arbiter.getByTestId('round-position').textContent()), 'round 1’s position');
  await arbiter.getByTestId('pair-round').click();
  await arbiter.getByTestId('pairings-1').waitFor();
  await arbiter.getByTestId('bracket').waitFor();
  assert.match(await arbiter.getByTestId('event-round').locator('h2').textContent(), /Round 1 — Semifinals/);
  const semi1 = arbiter.getByTestId('match-1-1');
  const semi2 = arbiter.getByTestId('match-1-2');
  assert.match(await semi1.innerText(), /1\s*Anand, Ada \(2400\)[\s\S]*4\s*Dahl, Dora \(2100\)/);
  assert.match(await semi2.innerText(), /2\s*Berg, Ben \(2300\)[\s\S]*3\s*Carlsen, Cid \(2200\)/);
  assert.match(await arbiter.getByTestId('match-2-1').innerText(), /winner to come/);
  const labels = await arbiter.getByTestId('pairings-1').locator('[data-testid=board-label]').allTextContents();
  assert.deepEqual(labels, ['Match 1 · game 1', 'Match 1 · game 2', 'Match 2 · game 1', 'Match 2 · game 2']);
  assert.match(await arbiter.getByTestId('board-1-1').innerText(), /15\+10/, 'the board’s time control');

  // Match 1 tied (each player wins a game), match 2 decided 1½–½.
  const [m1g1, m1g2] = await boardsOf(key, 1, 1, 0);
  await enter(arbiter, key, 1, m1g1.board, '1-0');
  await enter(arbiter, key, 1, m1g2.board, m1g2.white === m1g1.white ? '0-1' : '1-0');
  const [m2g1, m2g2] = await boardsOf(key, 1, 2, 0);
  await enter(arbiter, key, 1, m2g1.board, '1-0');
  await enter(arbiter, key, 1, m2g2.board, '1/2-1/2');
  const winner2 = m2g1.white;
  await eventually(async () => /1–1/.test(await semi1.innerText()) && /tied/.test(await semi1.innerText()), 'match 1 tied 1–1');
  assert.match(await semi2.getByTestId('match-score').innerText(), /1½–½|½–1½/);
  assert.match(await semi2.getByTestId('match-note').innerText(), new RegExp(`${names[winner2 - 1]}.*goes through`));
  assert.equal(await arbiter.getByTestId('add-tiebreaks').count(), 0, 'no tiebreak games before their position is drawn');

  // Tiebreak stage 1 (rapid): its position drawn, its games added, from the page.
  await arbiter.getByTestId('draw-stage-1').click();
  await arbiter.getByTestId('stage-position-1').waitFor();
  assert.match(await arbiter.getByTestId('stage-position-1').innerText(), /Tiebreak stage 1: rapid[\s\S]*Position \d+/);
  await arbiter.getByTestId('add-tiebreaks').click();
  await eventually(async () => (await boardsOf(key, 1, 1, 1)).length === 2, 'the rapid games of match 1');
  await eventually(async () => (await arbiter.getByTestId('pairings-1').locator('[data-testid=board-label]').allTextContents()).includes('Match 1 · rapid game 2'), 'the rapid boards listed');
  const view1 = await api('GET', `/api/events/${key}`);
  const stage1 = view1.round_list[0].stage_draws[0].position;
  const rapid = view1.round_list[0].boards.filter(b => b.stage === 1);
  assert.ok(rapid.every(b => b.time_control === '10+5' && b.position.id === stage1.id), JSON.stringify(rapid));
  assert.match(await arbiter.getByTestId(`board-1-${rapid[0].board}`).innerText(), /Match 1 · rapid game 1\s+10\+5/);
  // The rapid games played on this server: their players' links.
  await arbiter.getByTestId('play-on-server').click();
  await arbiter.getByTestId('seat-links').waitFor();
  const linkText = await arbiter.getByTestId('seat-links').innerText();
  assert.match(linkText, /Match 1 · rapid game 1/);
  assert.match(linkText, /Match 1 · rapid game 2/);
  assert.ok((await api('GET', `/api/events/${key}`)).round_list[0].boards.filter(b => b.stage === 1).every(b => b.game), 'the rapid boards have games');
  await snap(arbiter, 'knockout-desktop-rapid');

  // The rapid stage drawn 1–1: stage 2, the Armageddon, drawn and added.
  for (const b of rapid) await enter(arbiter, key, 1, b.board, '1/2-1/2');
  await eventually(async () => /rapid 1–1/.test(await semi1.innerText()), 'the rapid stage 1–1');
  await arbiter.getByTestId('draw-stage-2').click();
  await arbiter.getByTestId('stage-position-2').waitFor();
  assert.match(await arbiter.getByTestId('stage-position-2').innerText(), /Tiebreak stage 2: Armageddon/);
  await arbiter.getByTestId('add-tiebreaks').click();
  await eventually(async () => (await boardsOf(key, 1, 1, 2)).length === 1, 'the Armageddon game');
  const [armageddon] = await boardsOf(key, 1, 1, 2);
  assert.equal(armageddon.time_control, '5+0');
  await eventually(async () => (await arbiter.getByTestId(`board-1-${armageddon.board}`).count()) === 1, 'the Armageddon board listed');
  assert.match(await arbiter.getByTestId(`board-1-${armageddon.board}`).innerText(), /Match 1 · Armageddon\s+5\+0/);

  // The hall's projector: the bracket, and round 1's and both tiebreak stages' positions.
  const hall = await person(DESKTOP);
  await hall.goto(`/events/${key}/projector`);
  await hall.getByTestId('projector-bracket').locator('[data-testid=bracket]').waitFor();
  const v2 = await api('GET', `/api/events/${key}`);
  const [p1, p2] = v2.round_list[0].stage_draws.map(d => d.position);
  assert.equal(await hall.getByTestId('projector-number').textContent(), String(v2.round_list[0].draw.position.id));
  assert.equal(await hall.getByTestId('projector-rank').textContent(), v2.round_list[0].draw.position.back_rank);
  assert.match(await hall.getByTestId('projector-stage-1').innerText(), new RegExp(`position ${p1.id}[\\s\\S]*${p1.back_rank}`));
  assert.match(await hall.getByTestId('projector-stage-2').innerText(), new RegExp(`Armageddon[\\s\\S]*position ${p2.id}[\\s\\S]*${p2.back_rank}`));
  const rankSize = await hall.getByTestId('projector-stage-2').locator('.projector-rank').evaluate(el => parseFloat(getComputedStyle(el).fontSize));
  assert.ok(rankSize >= 24, `the stage's back rank in large letters (${rankSize}px)`);
  assert.match(await hall.getByTestId('projector-pairings').innerText(), /Match 1 · Armageddon/);
  await snap(hall, 'knockout-projector-armageddon');

  // The Armageddon drawn: a draw counts as a win for Black, who goes through.
  await enter(arbiter, key, 1, armageddon.board, '1/2-1/2');
  const black = armageddon.black;
  await eventually(async () => /goes through/.test(await semi1.getByTestId('match-note').innerText()), 'match 1 decided');
  assert.match(await semi1.getByTestId('match-note').innerText(), new RegExp(`${names[black - 1]} \\(\\d+\\) goes through \\(Armageddon drawn: Black goes through\\)`));
  assert.match(await semi1.locator('.bracket-player.winner').innerText(), new RegExp(names[black - 1]));
  assert.match(await semi1.getByTestId('match-score').innerText(), /^1–1, rapid 1–1, Armageddon (0–1|1–0)$/);
  const after1 = await api('GET', `/api/events/${key}`);
  assert.equal(after1.knockout.bracket[0][0].winner, black);
  assert.deepEqual([after1.knockout.bracket[1][0].first, after1.knockout.bracket[1][0].second].sort(), [black, winner2].sort());

  // The final: its position drawn and paired from the page.
  await eventually(async () => /Round 2 — Final/.test(await arbiter.getByTestId('event-round').locator('h2').textContent()), 'the final’s round');
  await arbiter.getByTestId('draw-position').click();
  await eventually(async () => (await api('GET', `/api/events/${key}`)).round_list[1]?.draw, 'the final’s position');
  await arbiter.getByTestId('pair-round').click();
  await arbiter.getByTestId('pairings-2').waitFor();
  assert.deepEqual(await arbiter.getByTestId('pairings-2').locator('[data-testid=board-label]').allTextContents(), ['Match 1 · game 1', 'Match 1 · game 2']);
  const final = arbiter.getByTestId('match-2-1');
  assert.match(await final.innerText(), new RegExp(`${names[Math.min(black, winner2) - 1]}[\\s\\S]*${names[Math.max(black, winner2) - 1]}`));
  // The projector follows to the final.
  await eventually(async () => /round 2 \(final\)/.test(await hall.getByTestId('projector-round').textContent()), 'the projector on the final', 10_000);
  await snap(arbiter, 'knockout-desktop-final');

  // The final decided: the champion and the placings.
  const finalBoards = await boardsOf(key, 2, 1, 0);
  await enter(arbiter, key, 2, finalBoards[0].board, '1-0');
  await enter(arbiter, key, 2, finalBoards[1].board, '1/2-1/2');
  const champion = finalBoards[0].white;
  await eventually(async () => (await arbiter.getByTestId('champion').count()) === 1, 'the champion shown');
  assert.match(await arbiter.getByTestId('champion').innerText(), new RegExp(`Champion: ${names[champion - 1]}`));
  const placings = await arbiter.getByTestId('placings').locator('tbody tr').allInnerTexts();
  assert.equal(placings.length, 4);
  assert.match(placings[0], new RegExp(`^1\\s+\\d\\s+${names[champion - 1]}`));
  await eventually(async () => (await hall.getByTestId('champion').count()) === 1, 'the projector shows the champion', 10_000);
  await snap(hall, 'knockout-projector-final');
  // Round 1's print sheet names the matches and stages, and the tiebreak positions.
  await hall.goto(`/events/${key}/print?round=1`);
  await hall.getByTestId('print-stage-2').waitFor();
  assert.match(await hall.getByTestId('print-stage-1').innerText(), new RegExp(`rapid.*position ${p1.id}: ${p1.back_rank}`));
  assert.match(await hall.getByTestId('print-stage-2').innerText(), new RegExp(`Armageddon.*position ${p2.id}: ${p2.back_rank}`));
  assert.match(await hall.locator('.print-sheet').innerText(), /Match 1 · Armageddon \(5\+0\)/);

  // A phone: the arbiter's page and a spectator's are no wider than the screen.
  const phone = await person(PHONE, { key, token });
  await phone.goto(`/events/${key}`);
  await phone.getByTestId('bracket').waitFor();
  await phone.getByTestId('pairings-2').waitFor();
  await assertNoSidewaysScroll(phone, 'the arbiter’s knockout page on a phone');
  await snap(phone, 'knockout-phone-arbiter');
  const watcher = await person(PHONE);
  await watcher.goto(`/events/${key}`);
  await watcher.getByTestId('bracket').waitFor();
  await assertNoSidewaysScroll(watcher, 'a spectator’s knockout page on a phone');
  // Exports offered are those a knockout has: PGN and JSON, not TRF (the server refuses it).
  assert.equal(await watcher.getByRole('link', { name: 'TRF', exact: true }).count(), 0);
  assert.equal(await watcher.getByRole('link', { name: 'PGN', exact: true }).count(), 1);
  await watcher.goto(`/events/${key}/projector`);
  await watcher.getByTestId('projector-bracket').locator('[data-testid=bracket]').waitFor();
  await assertNoSidewaysScroll(watcher, 'the knockout projector on a phone');
  await snap(watcher, 'knockout-phone-projector');
  assert.deepEqual(errors, [], 'no errors in the pages');
  console.log(`knockout test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test('a knockout of the tied middle state on a phone: the tiebreak draw controls fit the screen', async () => {
  const made = await api('POST', '/api/events', { name: 'Phone Knockout', format: 'knockout', time_control: '15+10', knockout: { games: 2 } });
  const event = { key: made.key, token: made.arbiter_token };
  for (const [i, name] of ['Andersen-Lindqvist, Annabelle', 'Berg, Ben', 'Carlsen, Cid', 'Dahl, Dora', 'Eide, Eve'].entries()) {
    await api('POST', `/api/events/${event.key}/players`, { name, rating: 2000 - 10 * i }, event.token);
  }
  await api('POST', `/api/events/${event.key}/rounds/1/draw`, { method: 'computer' }, event.token);
  await api('POST', `/api/events/${event.key}/rounds/1/pair`, {}, event.token);
  const v = await api('GET', `/api/events/${event.key}`);
  // Five players: a bracket of eight, three byes for the top seeds.
  assert.equal(v.knockout.bracket[0].filter(m => m.state === 'bye').length, 3);
  for (const b of v.round_list[0].boards) await api('POST', `/api/events/${event.key}/rounds/1/boards/${b.board}/result`, { result: '1-0' }, event.token);
  const phone = await person(PHONE, event);
  // The new-event form on a phone: the knockout's fields only for a knockout, and no wider than the screen.
  await phone.goto('/events');
  await phone.getByTestId('new-event').waitFor();
  assert.equal(await phone.getByTestId('knockout-fields').isVisible(), false, 'no knockout fields for a Swiss');
  await assertNoSidewaysScroll(phone, 'the new-event form on a phone');
  await phone.getByLabel('Format').selectOption('knockout');
  await phone.getByTestId('knockout-fields').waitFor();
  await assertNoSidewaysScroll(phone, 'the knockout form on a phone');
  await snap(phone, 'knockout-phone-form');
  await phone.goto(`/events/${event.key}`);
  await phone.getByTestId('draw-stage-1').waitFor();
  assert.match(await phone.getByTestId('bracket').innerText(), /bye/);
  await assertNoSidewaysScroll(phone, 'the tiebreak draw on a phone');
  await snap(phone, 'knockout-phone-tied');
  assert.deepEqual(errors, [], 'no errors in the pages');
});
