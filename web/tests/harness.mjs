// Shared set-up for the browser tests: the real `chess960 serve` on a free port with a fresh
// database, Debian's Chromium driven by playwright-core, and helpers to act on the board the way
// a person does (drag with the mouse, click, type).

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const RESULTS = resolve(here, '..', 'test-results');
const REPO = resolve(here, '..', '..');

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

async function waitForServer(base, child, log, tokened) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`chess960 serve exited with ${child.exitCode}:\n${log.join('')}`);
    try {
      // A server that asks for a token answers 401 once it listens.
      const response = await fetch(`${base}/api/positions/518`);
      if (response.ok || (tokened && response.status === 401)) return;
    } catch {
      // not listening yet
    }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`chess960 serve did not answer at ${base} within 30 s:\n${log.join('')}`);
}

/**
 * Starts `chess960 serve` on a free port with a fresh database and `args` added; `prepare(db,
 * bin)`, if given, runs before the server starts (e.g. `registerEngine` into its database).
 * Returns { base, log, close, crashAndRestart, db, bin } (db: the database file, which
 * `chess960 db` may also write).
 */
export async function startServer(args = [], { prepare } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'chess960-web-server-'));
  const log = [];
  const bin = process.env.CHESS960_BIN ?? join(REPO, 'target', 'release', 'chess960');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}: run 'cargo build --release -p chess960-cli' or set CHESS960_BIN`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = join(scratch, 'games.sqlite3');
  if (prepare) {
    try {
      await prepare(db, bin);
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
  }
  function spawnServer() {
    const c = spawn(bin, ['serve', '--port', String(port), '--db', db, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    c.stdout.on('data', d => log.push(String(d)));
    c.stderr.on('data', d => log.push(String(d)));
    return c;
  }
  let child = spawnServer();
  const exited = c => new Promise(r => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', r)));
  async function close() {
    child.kill('SIGTERM');
    await exited(child);
    rmSync(scratch, { recursive: true, force: true });
  }
  /** Kills the server with SIGKILL (no chance to tidy up) and starts it again on the same port
   * and database, as a crash and a restart would. */
  async function crashAndRestart() {
    child.kill('SIGKILL');
    await exited(child);
    child = spawnServer();
    await waitForServer(base, child, log, args.includes('--token'));
  }
  try {
    await waitForServer(base, child, log, args.includes('--token'));
  } catch (error) {
    await close();
    throw error;
  }
  return { base, log, close, crashAndRestart, db, bin };
}

/**
 * Starts the server (or uses CHESS960_URL, a server already running) and Chromium.
 * Returns { base, browser, newPage, api, close }.
 */
export async function start() {
  mkdirSync(RESULTS, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'chess960-web-'));
  let server = null;
  let base = process.env.CHESS960_URL?.replace(/\/$/, '');
  let log = [];
  if (!base) {
    server = await startServer();
    ({ base, log } = server);
  } else {
    await waitForServer(base, null, log, false);
  }

  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium`);
  const profile = join(scratch, 'profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1200, height: 900 },
    baseURL: base,
  });

  const pageErrors = [];
  async function newPage() {
    const page = await context.newPage();
    page.on('pageerror', error => pageErrors.push(String(error)));
    page.on('dialog', dialog => void dialog.accept());
    return page;
  }

  async function api(method, path, body) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  async function close() {
    await context.close().catch(() => {});
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  }

  return { base, context, newPage, api, close, pageErrors, serverLog: log, db: server?.db, bin: server?.bin };
}

/** Headless Chromium (`CHROMIUM`, or Debian's), for tests that open several browser contexts. */
export async function launchChromium() {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}

/** The centre of a square on the board, in page coordinates. */
export async function squareCenter(page, square) {
  const box = await page.locator('[data-testid=board] cg-board').boundingBox();
  if (!box) throw new Error('the board is not visible');
  const black = await page.locator('[data-testid=board]').evaluate(el => el.classList.contains('orientation-black'));
  const file = square.charCodeAt(0) - 97;
  const rank = square.charCodeAt(1) - 49;
  const col = black ? 7 - file : file;
  const row = black ? rank : 7 - rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

/** Waits for two animation frames: chessground notices that a drag has started, and draws, only
 * on its next frame, and a mouse released before it counts as a click (the piece stays). */
export function nextFrames(page) {
  return page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** Drags the piece on `from` to `to` with the mouse; `midway` runs while the piece is held over `to`. */
export async function drag(page, from, to, midway) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await nextFrames(page);
  if (midway) await midway();
  await page.mouse.up();
}

/** The pieces chessground shows: { e1: 'white king', ... }. */
export async function boardPieces(page) {
  return page.locator('[data-testid=board] cg-board').evaluate(board => {
    const out = {};
    for (const piece of board.querySelectorAll('piece')) {
      if (piece.classList.contains('ghost') || piece.classList.contains('fading')) continue;
      const classes = [...piece.classList];
      const color = classes.find(c => c === 'white' || c === 'black');
      const role = classes.find(c => ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'].includes(c));
      out[piece.cgKey] = `${color} ${role}`;
    }
    return out;
  });
}

/** Waits until the board shows exactly `expected` (in `boardPieces`' form), then asserts it:
 * chessground draws on the next animation frame, so the pieces just after a drop or a click may
 * still be those from before (or a piece dragged from a palette, kept as `a0` until drawn). */
export async function piecesAre(page, expected, what = 'the pieces expected') {
  const key = pieces => JSON.stringify(Object.entries(pieces).sort());
  let shown = {};
  try {
    await eventually(async () => key((shown = await boardPieces(page))) === key(expected), what, 5_000);
  } catch {
    // The assertion below says what differs.
  }
  assert.deepEqual(shown, expected);
}

/** A request to the API at `base`: `{status, json, text}` (a refusal is returned, not thrown).
 * `seat` sends `X-Seat-Token`, `arbiter` `X-Arbiter-Token`, `headers` any others. */
export async function apiCall(base, method, path, body, { seat, arbiter, headers: extra } = {}) {
  const headers = { ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (seat) headers['X-Seat-Token'] = seat;
  if (arbiter) headers['X-Arbiter-Token'] = arbiter;
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let json = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json, text };
}

/** [`apiCall`], throwing unless 2xx: the parsed answer (null for an empty one). */
export async function apiOk(base, method, path, body, options) {
  const r = await apiCall(base, method, path, body, options);
  if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json;
}

/** Requests to the API at `base`: `api(method, path, body, token)`, with `token` as an
 * event's arbiter; the parsed answer, or an error unless 2xx. */
export function eventApi(base) {
  return (method, path, body, token) => apiOk(base, method, path, body, { arbiter: token });
}

/** A browser of its own (its own local storage) at `size` on the server at `base`, its page
 * and console errors (but those matching `ignore`) added to `errors`; with `event`
 * (`{key, token}`) it holds that event's arbiter token. */
export async function eventPerson(browser, base, size, event, errors, ignore = null) {
  const context = await browser.newContext({ baseURL: base, viewport: size });
  const page = await context.newPage();
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => {
    if (m.type() === 'error' && !(ignore && ignore.test(m.text()))) errors.push(m.text());
  });
  page.on('dialog', d => void d.accept());
  if (event) {
    await page.goto('/');
    await page.evaluate(([key, token]) => localStorage.setItem('chess960.arbiter', JSON.stringify({ [key]: token })), [event.key, event.token]);
  }
  return page;
}

/** Polls `check` until it returns a truthy value (which is returned) or time runs out. */
export async function eventually(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
}

export function shot(page, name) {
  return page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
}

/** The pieces of a FEN's placement in `boardPieces`' form, ordered by square. */
export function fenPieces(fen) {
  const roles = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
  const out = {};
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, i) => {
      let file = 0;
      for (const c of row) {
        if (/\d/.test(c)) file += Number(c);
        else {
          out[`${'abcdefgh'[file]}${8 - i}`] = `${c === c.toLowerCase() ? 'black' : 'white'} ${roles[c.toLowerCase()]}`;
          file += 1;
        }
      }
    });
  return Object.fromEntries(Object.entries(out).sort());
}

/** A new game through the API from a FEN, with the engine at depth 1 and no clock. */
export function newFenGame(env, fen, color = 'white') {
  return env.api('POST', '/api/games', {
    start: { fen },
    color,
    level: { depth: 1 },
    time_control: null,
    study_ms: 0,
  });
}

/** Gives the browser the seat of a game created through the API, as if it had created it. */
export async function takeSeat(page, view) {
  await page.goto('/');
  await page.evaluate(([key, token]) => {
    const seats = JSON.parse(localStorage.getItem('chess960.seats') ?? '{}');
    seats[key] = token;
    localStorage.setItem('chess960.seats', JSON.stringify(seats));
  }, [view.key, view.seat_token]);
}

/** The two sizes the pages are tried at: a laptop and a phone. */
export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A new page of `env`'s browser at `size`. */
export async function openAt(env, size) {
  const page = await env.newPage();
  await page.setViewportSize(size);
  return page;
}

/** Whether the page scrolls sideways (the document wider than the window). */
export const sideways = page => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Forgets the new-game form's remembered choices (the pages share one browser profile). */
export async function freshHome(page, path = '/') {
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('chess960.newGame'));
  await page.goto(path);
  await page.locator('[data-testid=start-game]').waitFor();
}

/** A quick game from the form: depth 1, no clock, no study time. */
export async function quickSettings(page) {
  await page.locator('[data-testid=level-depth]').check();
  await page.locator('[data-testid=depth]').fill('1');
  await page.locator('[data-testid=clock]').selectOption('none');
  await page.locator('[data-testid=study]').fill('0');
}

/** The number in the new-game preview's label ("#350 ..."), or null. */
export async function previewId(page) {
  const text = await page.locator('[data-testid=preview-label]').textContent();
  const m = /#(\d+)/.exec(text ?? '');
  return m ? Number(m[1]) : null;
}

/** The steps of the drawn position shown on the new-game page. */
export async function stepsShown(page) {
  return page.locator('[data-testid=draw-steps] li').allTextContents();
}

/** The key of the game the page has gone to. */
export async function gameKey(page) {
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  return page.url().split('/').pop();
}

/**
 * The server and a browser in which each person has a context of their own (their own cookies
 * and storage): { server, browser, errors, person(viewport), close }.
 */
export async function people() {
  const server = await startServer();
  const browser = await launchChromium();
  const errors = [];
  async function person(viewport = DESKTOP) {
    const context = await browser.newContext({ baseURL: server.base, viewport });
    const page = await context.newPage();
    page.on('pageerror', error => errors.push(String(error)));
    page.on('dialog', dialog => void dialog.accept());
    return page;
  }
  async function close() {
    await browser.close().catch(() => {});
    await server.close();
  }
  return { server, browser, errors, person, close };
}

/** Imports `pgn` into the database of `env`'s own server with `chess960 db import`. */
export function importPgn(env, pgn) {
  if (!env.db) throw new Error('these tests import games into the database of a server they start (unset CHESS960_URL)');
  const dir = mkdtempSync(join(tmpdir(), 'chess960-import-'));
  try {
    const file = join(dir, 'games.pgn');
    writeFileSync(file, pgn);
    execFileSync(env.bin, ['db', '--db', env.db, 'import', file], { stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Registers an engine in database `db` with `chess960 engine add NAME --cmd PROGRAM [--arg A]...
 * [--option K=V]...` (the server's owner does it on the command line, never over the API). */
export function registerEngine(bin, db, name, program, { args = [], options = [] } = {}) {
  const argv = ['engine', '--db', db, 'add', name, '--cmd', program, ...args.flatMap(a => ['--arg', a]), ...options.flatMap(o => ['--option', o])];
  return execFileSync(bin, argv, { stdio: 'pipe' }).toString();
}

/** The page's width against the window's, and the first elements that stick out (a page must
 * not scroll sideways, on a phone least of all): `{ doc, body, win, wide }`. */
export async function pageWidths(page) {
  await page.waitForTimeout(150);
  return page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    win: window.innerWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map(el => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (right ${Math.round(el.getBoundingClientRect().right)})`),
  }));
}
