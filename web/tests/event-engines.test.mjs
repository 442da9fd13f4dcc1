// Browser test of an engine championship played on the server: four engines registered in the
// server's database on the command line (ours at full strength, ours limited to Elo 1500 and to
// Elo 2000, and the random mover set to crash after a few moves), a round robin at 5 s + 0.05 s
// made over the API, one engine player added with the event page's form and three over the API.
// The arbiter presses "Play engine games on the server" (and pauses and resumes once; the
// server is killed with SIGKILL once a game is stored and started again on its database, and
// goes on by itself, the stored games kept); a
// spectator's page (no token) shows the live boards: players, clocks, the evaluation, depth,
// speed, nodes and line of the engine to move, the evaluation graph, the moves with their
// evaluations; the standings follow as games end, the crashing engine's losses say why, and the
// event ends "finished" with every board scored. On a 390 px phone the live page never scrolls
// sideways; the hall's projector shows the live boards.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/event-engines.test.mjs
// The engines are the workspace's chess960-engine and chess960-random-engine beside CHESS960_BIN.
// Screenshots go to $ENGINES_SHOTS (default /tmp/chess960-engines-shots).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, apiCall, eventApi, eventPerson, eventually, launchChromium, pageWidths, registerEngine, startServer } from './harness.mjs';

const SHOTS = process.env.ENGINES_SHOTS ?? '/tmp/chess960-engines-shots';
const BIN = resolve(process.env.CHESS960_BIN ?? join(import.meta.dirname, '..', '..', 'target', 'release', 'chess960'));
const ENGINE = join(dirname(BIN), 'chess960-engine');
const RANDOM = join(dirname(BIN), 'chess960-random-engine');
const FULL = 'Chess960 full';
const LIMITED = 'Chess960 1500';
const MIDDLE = 'Chess960 2000';
const CRASHER = 'Crasher (random)';

let server;
let browser;
const errors = [];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const program of [ENGINE, RANDOM]) {
    if (!existsSync(program)) throw new Error(`no ${program}: build it (cargo build --profile ci -p chess960-engine -p chess960-arena)`);
  }
  server = await startServer([], {
    prepare: (db, bin) => {
      registerEngine(bin, db, FULL, ENGINE);
      registerEngine(bin, db, LIMITED, ENGINE, { options: ['UCI_LimitStrength=true', 'UCI_Elo=1500'] });
      registerEngine(bin, db, MIDDLE, ENGINE, { options: ['UCI_LimitStrength=true', 'UCI_Elo=2000'] });
      // Crashes instead of its 4th move, in every game (a process per game: too soon to be
      // mated first); a move takes it 150 ms, so that its games can be watched.
      registerEngine(bin, db, CRASHER, RANDOM, { args: ['--crash-after', '3', '--slow', '150'] });
    },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const api = (...args) => eventApi(server.base)(...args);
// A refused connection is the server down for a moment while it restarts (the test kills it).
const person = (size, event) => eventPerson(browser, server.base, size, event, errors, /status of 40[34]|ERR_CONNECTION_REFUSED/);
const snap = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** The document must not scroll sideways (`m`: the widths measured before, else now). */
async function assertNoSidewaysScroll(page, what, m = null) {
  m ??= await pageWidths(page);
  if (!(m.doc <= m.win && m.body <= m.win)) await snap(page, `engines-too-wide-${what.replace(/\W+/g, '-')}`);
  assert.ok(m.doc <= m.win && m.body <= m.win, `${what}: the page is ${Math.max(m.doc, m.body)} px wide in a ${m.win} px window: ${m.wide.join(', ')}`);
}

/** What a page's live boards show: per board, the texts of its parts. */
function liveCards(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=live-board]')].map(card => {
      const text = id => card.querySelector(`[data-testid=${id}]`)?.textContent ?? '';
      return {
        round: Number(card.dataset.round),
        board: Number(card.dataset.board),
        white: text('live-white'),
        black: text('live-black'),
        whiteClock: text('live-clock-white'),
        blackClock: text('live-clock-black'),
        running: card.querySelector('.live-clock.running')?.textContent ?? null,
        evaluation: text('live-eval'),
        depth: text('live-depth'),
        speed: text('live-speed'),
        nodes: text('live-nodes'),
        pv: text('live-pv'),
        thinking: /thinking/.test(card.querySelector('.live-who')?.textContent ?? ''),
        points: Number(card.querySelector('svg.live-graph-svg')?.getAttribute('data-points') ?? 0),
        moves: card.querySelectorAll('.live-move').length,
        moveEvals: card.querySelectorAll('.live-move-eval').length,
        result: card.querySelector('[data-testid=live-result]')?.hidden ? '' : text('live-result'),
        pieces: card.querySelectorAll('cg-board piece').length,
      };
    }),
  );
}

/** The sum of the points in the page's standings (null: no standings table shown). */
function standingsPoints(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid=standings] table.crosstable tbody tr')];
    if (rows.length === 0) return null;
    return rows.reduce((sum, r) => sum + (parseFloat(r.cells[3]?.textContent ?? '0') || 0), 0);
  });
}

test('an engine round robin played on the server, watched live by a spectator, on a phone and on the projector', async () => {
  const started = Date.now();
  // The registered engines, by name only (the commands stay on the server).
  const listed = await api('GET', '/api/engines');
  assert.deepEqual(listed.engines.map(e => e.name).sort(), [CRASHER, FULL, LIMITED, MIDDLE].sort());
  assert.ok(listed.engines.every(e => Object.keys(e).join() === 'name'), `names only: ${JSON.stringify(listed)}`);

  const made = await api('POST', '/api/events', { name: 'Engine Cup 960', format: 'round_robin', time_control: '0:05+0.05' });
  const event = { key: made.key, token: made.arbiter_token };
  const { key, token } = event;

  // The arbiter adds an engine with the form: Engine, then which one; the name is the engine's.
  const arbiter = await person(DESKTOP, event);
  await arbiter.goto(`/events/${key}`);
  await arbiter.getByTestId('player-kind').waitFor();
  assert.equal(await arbiter.getByTestId('player-engine').isVisible(), false, 'no engine choice for a person');
  await arbiter.getByTestId('player-kind').selectOption('engine');
  assert.deepEqual((await arbiter.getByTestId('player-engine').locator('option').allTextContents()).sort(), [CRASHER, FULL, LIMITED, MIDDLE].sort());
  assert.equal(await arbiter.getByLabel('Account on this server').isVisible(), false, 'an engine has no account');
  await arbiter.getByTestId('player-engine').selectOption(FULL);
  await arbiter.getByRole('button', { name: 'Add player' }).click();
  await eventually(async () => (await api('GET', `/api/events/${key}`)).players.length === 1, 'the engine player added by the form');
  const first = (await api('GET', `/api/events/${key}`)).players[0];
  assert.equal(first.engine, FULL);
  assert.equal(first.name, FULL, 'the name defaults to the engine’s');
  await eventually(async () => /engine/.test(await arbiter.getByTestId('players').innerText()), 'the engine badge');
  assert.equal(await arbiter.getByTestId('engine-badge').count(), 1);
  // Three more over the API; an engine nobody registered is refused with a message. (Four
  // players: everyone plays every round, so the crasher plays the last one too, whose boards the
  // live view keeps at the end; a board of an earlier round leaves it when the next begins.)
  await api('POST', `/api/events/${key}/players`, { engine: CRASHER }, token);
  await api('POST', `/api/events/${key}/players`, { name: 'Limited 1500', engine: LIMITED, rating: 1500 }, token);
  await api('POST', `/api/events/${key}/players`, { engine: MIDDLE, rating: 2000 }, token);
  const refused = await apiCall(server.base, 'POST', `/api/events/${key}/players`, { name: 'Nobody', engine: 'No Such Engine' }, { arbiter: token });
  assert.ok([400, 404].includes(refused.status), `an unknown engine: ${refused.status} ${refused.text}`);
  assert.ok(refused.json?.error, `a message: ${refused.text}`);
  const players = (await api('GET', `/api/events/${key}`)).players;
  assert.deepEqual(
    players.map(p => [p.name, p.engine]),
    [
      [FULL, FULL],
      [CRASHER, CRASHER],
      ['Limited 1500', LIMITED],
      [MIDDLE, MIDDLE],
    ],
  );
  const crasher = players[1].name;

  // A spectator (no token) and a phone watch; the spectator has no buttons to start the play.
  const spectator = await person(DESKTOP);
  await spectator.goto(`/events/${key}`);
  await spectator.getByTestId('event-live').waitFor();
  assert.equal(await spectator.getByTestId('engines-play').count(), 0, 'only the arbiter starts the play');
  assert.equal(await spectator.getByTestId('engine-badge').count(), 4);
  const phone = await person(PHONE);
  await phone.goto(`/events/${key}`);
  await phone.getByTestId('event-live').waitFor();
  const hall = await person(DESKTOP);
  await hall.goto(`/events/${key}/projector`);
  await hall.getByTestId('projector-live').locator('[data-testid=live]').waitFor();

  // The arbiter starts the play, pauses it once a game is under way, and starts it again.
  await arbiter.reload();
  await arbiter.getByTestId('engines-play').waitFor();
  assert.equal(await arbiter.getByTestId('engines-pause').isDisabled(), true, 'nothing to pause before the play');
  await arbiter.getByTestId('engines-play').click();
  await eventually(async () => (await arbiter.getByTestId('engines-pause').isEnabled()) && (await arbiter.getByTestId('engines-play').isDisabled()), 'the buttons say it runs');
  assert.equal((await api('GET', `/api/events/${key}/live`)).running, true);
  await eventually(async () => (await api('GET', `/api/events/${key}/live`)).boards.some(b => b.moves.length > 0), 'a first move', 30_000);
  await arbiter.getByTestId('engines-pause').click();
  await eventually(async () => (await arbiter.getByTestId('engines-play').isEnabled()) && (await arbiter.getByTestId('engines-pause').isDisabled()), 'the buttons say it is paused');
  const paused = await api('GET', `/api/events/${key}/live`);
  assert.equal(paused.running, false, JSON.stringify(paused).slice(0, 300));
  await eventually(async () => /paused/i.test(await spectator.getByTestId('live-status').textContent()), 'the spectator sees "paused"', 5_000);
  await arbiter.getByTestId('engines-play').click();
  await eventually(async () => (await api('GET', `/api/events/${key}/live`)).running, 'running again');

  // While the play runs: what the spectator's page shows, sampled; the reasons the server gave.
  const seen = { thinking: null, graph: null, results: new Set(), standings: new Set(), reasons: new Map(), phone: null };
  // The server is killed (SIGKILL) once a game is stored, and started again on its database:
  // it takes the event up by itself, the games stored before kept on their boards.
  let beforeCrash = null;
  const boardResults = v => v.round_list.flatMap(r => r.boards.map(b => [b.result ?? null, b.game ?? null]));
  const final = await eventually(
    async () => {
      if (!beforeCrash) {
        const v = await api('GET', `/api/events/${key}`);
        if (boardResults(v).some(([r]) => r)) {
          beforeCrash = boardResults(v);
          await server.crashAndRestart();
          return null;
        }
      }
      const cards = await liveCards(spectator);
      for (const c of cards) {
        if (c.result) seen.results.add(c.result);
        if (!seen.thinking && c.thinking && /^depth \d+/.test(c.depth) && c.pv.length > 0 && /^([+-]?\d+\.\d\d|#-?\d+)$/.test(c.evaluation)) {
          seen.thinking = c;
          await snap(spectator, 'engines-desktop-live');
          await snap(hall, 'engines-projector-live');
        }
        if (!seen.graph && c.points >= 6) seen.graph = c;
      }
      const points = await standingsPoints(spectator);
      if (points !== null) seen.standings.add(points);
      const v = await api('GET', `/api/events/${key}/live`);
      for (const b of v.boards) if (b.reason) seen.reasons.set(`${b.white} – ${b.black}: ${b.result}`, b.reason);
      // The phone, once a game is under way with some moves.
      if (!seen.phone && cards.some(c => c.moves >= 4 && !c.result) && (await phone.getByTestId('live-board').count()) > 0) {
        seen.phone = await pageWidths(phone);
        await snap(phone, 'engines-phone-live');
      }
      return /finished/i.test(v.status) ? v : null;
    },
    'the event finished',
    150_000,
  );

  // The games stored before the kill kept their boards, and the others were played after it.
  assert.ok(beforeCrash, 'the server was killed once a game was stored');
  const afterCrash = boardResults(await api('GET', `/api/events/${key}`));
  assert.ok(beforeCrash.filter(([r]) => r).length < afterCrash.length, 'games were left to play after the kill');
  beforeCrash.forEach(([r, g], i) => {
    if (r) assert.deepEqual(afterCrash[i], [r, g], `board ${i + 1} kept its game through the kill`);
  });
  assert.ok(afterCrash.every(([r, g]) => r && g), `every board has its game and result: ${JSON.stringify(afterCrash)}`);

  // While a game ran: a board with its players, clocks, the evaluation, a depth, a speed and a line.
  assert.ok(seen.thinking, 'a live board showed an engine thinking (evaluation, depth, line)');
  const t = seen.thinking;
  assert.ok(t.white && t.black, JSON.stringify(t));
  assert.match(t.whiteClock, /^\d+:\d\d(\.\d)?$/);
  assert.match(t.blackClock, /^\d+:\d\d(\.\d)?$/);
  assert.ok(t.running, 'the clock of the side to move runs');
  assert.match(t.speed, /[kM]?N\/s$/);
  assert.match(t.nodes, /nodes$/);
  assert.match(t.pv, /^\d+(\.|…) \S+/, 'a numbered line');
  assert.ok(t.pieces >= 2, 'the board shows the position');
  assert.ok(seen.graph, 'the evaluation graph got points');
  assert.ok(seen.graph.moveEvals > 0, 'the moves have their evaluations');
  // The standings followed the games: some, but not all, of the points at some moment.
  const api1 = await api('GET', `/api/events/${key}`);
  const total = api1.standings.reduce((s, x) => s + x.points, 0);
  assert.ok(
    [...seen.standings].some(p => p > 0 && p < total),
    `the standings were seen between the games: ${[...seen.standings].join(', ')} (at the end ${total})`,
  );
  await eventually(async () => (await standingsPoints(spectator)) === total, 'the final standings on the spectator’s page', 10_000);
  // The crashing engine lost its games, with the reason.
  const reasons = [...seen.reasons].map(([game, reason]) => `${game} ${reason}`).join(' | ');
  const crashes = [...seen.reasons].filter(([game]) => game.includes(crasher));
  assert.ok(crashes.length > 0 && crashes.every(([, reason]) => /engine crashed/i.test(reason)), `the crasher's games: ${reasons}`);
  // Finished: every board of every round has its result, and the page says so.
  assert.equal(api1.next_round, null, 'no round left');
  const boards = api1.round_list.flatMap(r => r.boards);
  assert.equal(boards.length, 6, 'six games in a round robin of four');
  assert.ok(boards.every(b => b.result !== null), JSON.stringify(boards.map(b => b.result)));
  assert.ok(final.boards.every(b => b.result !== null), 'the live boards are all over');
  await eventually(async () => /finished/i.test(await spectator.getByTestId('live-status').textContent()), 'the spectator sees "finished"', 5_000);
  const cards = await liveCards(spectator);
  assert.ok(cards.length > 0 && cards.every(c => c.result), `every live board shows its result: ${JSON.stringify(cards.map(c => c.result))}`);
  for (const c of cards) seen.results.add(c.result);
  assert.ok(
    [...seen.results].some(r => /engine crashed/i.test(r)),
    `the page showed a crash as the reason: ${[...seen.results].join(' | ')}`,
  );
  await snap(spectator, 'engines-desktop-finished');
  await eventually(async () => await arbiter.getByTestId('engines-play').isEnabled(), 'the arbiter’s play button once it is over', 5_000);

  // The phone during a game and after the end, and the hall's projector with the live boards.
  await assertNoSidewaysScroll(phone, 'the finished event on a phone');
  await snap(phone, 'engines-phone-finished');
  assert.ok(seen.phone, 'the phone was measured while a game ran');
  await assertNoSidewaysScroll(phone, 'the live event page on a phone, while a game ran', seen.phone);
  await hall.getByTestId('projector-live').locator('[data-testid=live-board]').first().waitFor();
  await snap(hall, 'engines-projector-finished');
  await hall.setViewportSize(PHONE);
  await assertNoSidewaysScroll(hall, 'the projector on a phone');
  // A game of the event on its own page: the engines that played it, as outside players (not
  // a person against this server's engine), with nothing to play for a spectator.
  const played = boards.find(b => b.game).game;
  const view = await api('GET', `/api/games/${played}`);
  const engineSide = { type: 'outside', program: true };
  assert.deepEqual(view.sides, { white: engineSide, black: engineSide }, JSON.stringify(view.sides));
  assert.equal(view.human, null, 'no person plays it');
  assert.equal(view.level, null, 'this server’s engine plays no side');
  await spectator.goto(`/game/${played}`);
  await spectator.getByTestId('program-white').waitFor();
  assert.equal(await spectator.getByTestId('name-white').textContent(), view.white);
  assert.equal(await spectator.getByTestId('name-black').textContent(), view.black);
  assert.equal(await spectator.getByTestId('program-black').count(), 1);
  for (const action of ['resign', 'offer-draw', 'takeback', 'rematch']) {
    assert.equal(await spectator.getByTestId(action).count(), 0, `no ${action} button`);
  }
  assert.equal(await spectator.getByTestId('event-game').count(), 1, 'the event’s game, with its event');
  assert.deepEqual(errors, [], 'no errors in the pages');
  console.log(`engines test: ${((Date.now() - started) / 1000).toFixed(1)} s; reasons: ${reasons}`);
});
