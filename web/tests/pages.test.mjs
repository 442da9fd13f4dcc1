// Every page of the browser UI at 1366×900 and on a 390×844 phone (issue 40, "phone first"): no
// page scrolls sideways on the phone (the document is never wider than the window), in the states
// a user meets (an engine game, a challenge waiting for its second player, a finished game, an
// event with players, pairings and results, a player's page, the settings), and a screenshot of
// each at both sizes in test-results/ (pages-<name>-<size>.png) to be looked at.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/pages.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { shot, start } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

const SIZES = [
  ['1366', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
];

/** Calls the API with the event's arbiter token. */
async function arbiterApi(method, path, token, body) {
  const response = await fetch(`${env.base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Arbiter-Token': token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** An account made through the API; its session cookie. */
async function register(name) {
  const response = await fetch(`${env.base}/api/account/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: env.base },
    body: JSON.stringify({ name, password: 'correct horse battery' }),
  });
  if (!response.ok) throw new Error(`register ${name}: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie').split(';')[0];
}

/** In the page: every game result shown (1-0, 0-1, ½-½, 1/2-1/2) whose text is drawn on more
 * than one line. */
function brokenResults() {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!/^(1-0|0-1|½-½|1\/2-1\/2)$/.test(text)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) broken.push(text);
  }
  return broken;
}

test('no page scrolls sideways on a phone, and every page is photographed at both sizes', async () => {
  // The states to show: an engine game under way, a challenge waiting, a finished game between
  // people, an event with four players, its first round paired and one result in.
  const engineGame = await env.api('POST', '/api/games', { start: { id: 350 }, level: { depth: 1 }, study_ms: 0 });
  const challenge = await env.api('POST', '/api/games', { start: { id: 77 }, opponent: 'human', name: 'Ann', time_control: { initial_ms: 300_000, increment_ms: 3000 } });
  const finished = await env.api('POST', '/api/games', { start: { id: 518 }, opponent: 'human', name: 'Carl', time_control: null });
  const joined = await env.api('POST', `/api/games/${finished.key}/join`, { name: 'Dora' });
  await fetch(`${env.base}/api/games/${finished.key}/resign`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Seat-Token': joined.seat_token },
    body: '{}',
  });
  const event = await env.api('POST', '/api/events', { name: 'Phone Open', format: 'swiss', rounds: 3, time_control: '15+10' });
  const token = event.arbiter_token;
  for (const [i, name] of ['Alexandra Kosteniuk-Longname', 'Bo', 'Carla Maria Sánchez', 'Dmitri'].entries()) {
    await arbiterApi('POST', `/api/events/${event.key}/players`, token, { name, rating: 2200 - 50 * i, fide_id: 4100000 + i, federation: 'NOR' });
  }
  await arbiterApi('POST', `/api/events/${event.key}/rounds/1/draw`, token, { method: 'computer' });
  await arbiterApi('POST', `/api/events/${event.key}/rounds/1/pair`, token);
  await arbiterApi('POST', `/api/events/${event.key}/rounds/1/boards/1/result`, token, { result: '1-0' });
  await register('phoneuser');

  const pages = [
    ['home', '/'],
    ['games', '/games'],
    ['positions', '/positions'],
    ['position', '/positions/0'],
    ['projector', '/projector'],
    ['analysis', '/analysis'],
    ['events', '/events'],
    ['event', `/events/${event.key}`],
    ['event-projector', `/events/${event.key}/projector`],
    ['event-print', `/events/${event.key}/print?round=1`],
    ['game-engine', `/game/${engineGame.key}`],
    ['game-challenge', `/game/${challenge.key}`],
    ['game-finished', `/game/${finished.key}`],
    ['players', '/players'],
    ['player', '/@/phoneuser'],
    ['login', '/login'],
    ['register', '/register'],
    ['settings', '/settings'],
    ['editor', '/editor'],
  ];
  const wide = [];
  const wrapped = [];
  for (const [size, viewport] of SIZES) {
    const page = await env.newPage();
    await page.setViewportSize(viewport);
    try {
      // The arbiter's view of the event: this browser holds the token.
      await page.goto('/');
      await page.evaluate(([key, t]) => {
        const tokens = JSON.parse(localStorage.getItem('chess960.arbiter') ?? '{}');
        tokens[key] = t;
        localStorage.setItem('chess960.arbiter', JSON.stringify(tokens));
      }, [event.key, token]);
      for (const [name, path] of pages) {
        await page.goto(path);
        await page.waitForLoadState('networkidle').catch(() => {});
        await page.waitForTimeout(400);
        const width = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
        if (size === 'phone' && width.doc > width.win) wide.push(`${path} (${name}): ${width.doc} px > ${width.win} px`);
        // A result is read at a glance: never broken over two lines ("1-" above "0").
        for (const result of await page.evaluate(brokenResults)) wrapped.push(`${path} (${name}, ${size}): ${result}`);
        await shot(page, `pages-${name}-${size}`);
      }
    } finally {
      await page.close();
    }
  }
  assert.deepEqual(wide, [], 'pages wider than the phone');
  assert.deepEqual(wrapped, [], 'results broken over two lines');
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
