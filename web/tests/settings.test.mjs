// Browser tests of the player's settings and sound (issue 40 §2): the settings page at 1366×900
// and on a 390×844 phone, each setting applied at once and kept after a reload, on the game board
// as well as the preview; sounds announced for moves, captures, checks, castling and the end,
// none when muted; "your turn" in the tab's title; premoves and confirmations obeyed.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/settings.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, drag, eventually, newFenGame, openAt, shot, start, takeSeat } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

const pageAt = size => openAt(env, size);

/** Forgets the saved settings (the pages share one browser profile). */
async function freshSettings(page) {
  await page.goto('/settings');
  await page.evaluate(() => localStorage.removeItem('chess960-settings'));
  await page.goto('/settings');
  await page.getByTestId('settings-preview').locator('cg-board').waitFor();
}

/** The computed background of the page and of the first board on it. */
function looks(page) {
  return page.evaluate(() => {
    const board = document.querySelector('cg-board');
    const piece = document.querySelector('.cg-wrap piece.white.king');
    const coords = document.querySelector('.cg-wrap coords');
    return {
      theme: document.documentElement.dataset.theme,
      page: getComputedStyle(document.body).backgroundColor,
      rootBg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
      board: board ? getComputedStyle(board).backgroundImage : null,
      pieceImage: piece ? getComputedStyle(piece).backgroundImage : null,
      pieceText: piece ? getComputedStyle(piece, '::before').content : null,
      coords: coords ? getComputedStyle(coords).display : null,
    };
  });
}

test('the settings page applies each look at once and keeps it after a reload, on the game board too', async () => {
  const page = await pageAt(DESKTOP);
  try {
    await freshSettings(page);
    const before = await looks(page);
    assert.equal(before.theme, 'system');
    assert.match(before.pieceImage, /^url\("data:image\/svg\+xml/, 'cburnett pieces by default');
    assert.notEqual(before.coords, 'none');
    // System: the pages follow the system's scheme as it changes.
    assert.equal(before.rootBg, '#f6f4ef');
    await page.emulateMedia({ colorScheme: 'dark' });
    await eventually(async () => (await looks(page)).rootBg === '#1f1e1c', 'dark pages with a dark system');
    await page.emulateMedia({ colorScheme: 'light' });
    await eventually(async () => (await looks(page)).rootBg === '#f6f4ef', 'light pages again');

    // Dark pages, whatever the system says (headless Chromium says light).
    await page.getByTestId('setting-colorScheme').getByLabel('Dark').check();
    await eventually(async () => (await looks(page)).rootBg === '#1f1e1c', 'dark pages');
    // Blue squares, letters, no coordinates.
    await page.getByTestId('setting-board').getByLabel('Blue').check();
    await page.getByTestId('setting-pieces').getByLabel('Letters').check();
    await page.getByTestId('setting-coordinates').locator('input').uncheck();
    let now = await looks(page);
    assert.match(now.board, /8ca2ad/, 'blue dark squares');
    assert.equal(now.pieceImage, 'none');
    assert.equal(now.pieceText, '"K"');
    assert.equal(now.coords, 'none');
    await shot(page, 'settings-1366');

    await page.reload();
    await page.getByTestId('settings-preview').locator('cg-board').waitFor();
    now = await looks(page);
    assert.equal(now.theme, 'dark', 'kept after a reload');
    assert.equal(now.rootBg, '#1f1e1c');
    assert.match(now.board, /8ca2ad/);
    assert.equal(now.pieceText, '"K"');
    assert.equal(await page.getByTestId('setting-pieces').getByLabel('Letters').isChecked(), true, 'the form shows what is saved');

    // The game board follows the same settings.
    const view = await newFenGame(env, 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1');
    await takeSeat(page, view);
    await page.goto(`/game/${view.key}`);
    await page.locator('[data-testid=board] cg-board').waitFor();
    now = await looks(page);
    assert.match(now.board, /8ca2ad/);
    assert.equal(now.pieceText, '"K"');
    assert.equal(now.coords, 'none');
    assert.equal(now.rootBg, '#1f1e1c');

    // Figurines and light pages, then grey squares.
    await page.goto('/settings');
    await page.getByTestId('setting-pieces').getByLabel('Figurines').check();
    await page.getByTestId('setting-colorScheme').getByLabel('Light').check();
    await page.getByTestId('setting-board').getByLabel('Grey').check();
    now = await looks(page);
    assert.equal(now.pieceText, '"♚︎"');
    assert.equal(now.rootBg, '#f6f4ef');
    assert.match(now.board, /a3a3a3/);
    await shot(page, 'settings-figurines-1366');
  } finally {
    await page.evaluate(() => localStorage.removeItem('chess960-settings')).catch(() => {});
    await page.close();
  }
});

test('the settings page fits a phone and the header links to it', async () => {
  const page = await pageAt(PHONE);
  try {
    await page.goto('/');
    await page.getByTestId('nav-settings').click();
    await page.waitForURL(/\/settings$/);
    await page.getByTestId('settings-preview').locator('cg-board').waitFor();
    const width = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
    assert.ok(width.doc <= width.win, `no sideways scroll (${width.doc} > ${width.win})`);
    await shot(page, 'settings-phone');
  } finally {
    await page.close();
  }
});

/** Saves settings in this browser's storage (as the settings page does) and opens `path`. */
async function withSettings(page, change, path) {
  await page.goto('/settings');
  await page.evaluate(c => localStorage.setItem('chess960-settings', JSON.stringify(c)), change);
  await page.goto(path);
}

/** Counts the sounds the page announces (`chess960-sound` events), by kind. */
async function listenForSounds(page) {
  await page.evaluate(() => {
    window.__sounds = [];
    window.addEventListener('chess960-sound', e => window.__sounds.push(e.detail));
  });
}
const sounds = page => page.evaluate(() => window.__sounds);

/** A game between people from position 518: this page holds White, the API plays Black. */
async function peopleGame(page, change) {
  const view = await env.api('POST', '/api/games', { start: { id: 518 }, opponent: 'human', name: 'Ann', color: 'white', time_control: null });
  const black = await env.api('POST', `/api/games/${view.key}/join`, { name: 'Bob' });
  await takeSeat(page, view);
  // Between people the page also needs to know its seat's colour, as the form would keep it.
  await page.evaluate(key => {
    const colors = JSON.parse(localStorage.getItem('chess960.seatColors') ?? '{}');
    colors[key] = 'white';
    localStorage.setItem('chess960.seatColors', JSON.stringify(colors));
  }, view.key);
  await withSettings(page, change, `/game/${view.key}`);
  await page.locator('[data-testid=board] cg-board').waitFor();
  const blackMove = async uci => {
    const now = await env.api('GET', `/api/games/${view.key}`);
    const response = await fetch(`${env.base}/api/games/${view.key}/moves`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Seat-Token': black.seat_token },
      body: JSON.stringify({ move: uci, ply: now.moves.length }),
    });
    assert.ok(response.ok, `black's ${uci}: ${response.status} ${await response.text()}`);
  };
  return { key: view.key, blackMove };
}

test('sounds for a move, a capture, a check and the end; none when muted; "your turn" in the tab title', async () => {
  const page = await pageAt(DESKTOP);
  try {
    const game = await peopleGame(page, { sound: true });
    await listenForSounds(page);
    await drag(page, 'e2', 'e4');
    await eventually(async () => (await sounds(page)).includes('move'), 'a move sound for our move');
    assert.doesNotMatch(await page.title(), /your turn/i, 'not our turn after moving');
    await game.blackMove('d7d5');
    await eventually(async () => (await sounds(page)).length >= 2, 'a sound for the opponent’s move');
    await eventually(async () => /your turn/i.test(await page.title()), '"your turn" in the title');
    await drag(page, 'e4', 'd5');
    await eventually(async () => (await sounds(page)).includes('capture'), 'a capture sound');
    await game.blackMove('e7e6');
    await drag(page, 'f1', 'b5');
    await eventually(async () => (await sounds(page)).includes('check'), 'a check sound');
    await game.blackMove('c7c6');
    // Resigning (confirmed) ends the game with its sound.
    await page.getByTestId('resign').click();
    await eventually(async () => (await sounds(page)).includes('end'), 'the end’s sound');

    // Muted from the header's switch: the same moves make no sound.
    const muted = await peopleGame(page, {});
    assert.equal(await page.getByTestId('sound-toggle').getAttribute('aria-pressed'), 'false');
    assert.equal(await page.getByTestId('sound-toggle').locator('svg').count(), 1, 'a drawn speaker, not an emoji a font may lack');
    await page.getByTestId('sound-toggle').click();
    assert.equal(await page.getByTestId('sound-toggle').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('chess960-settings')).sound), false, 'kept as the setting');
    await listenForSounds(page);
    await drag(page, 'e2', 'e4');
    await eventually(async () => (await env.api('GET', `/api/games/${muted.key}`)).moves.length === 1, 'the move played');
    await muted.blackMove('e7e5');
    await eventually(async () => /your turn/i.test(await page.title()), '"your turn" in the title, muted too');
    assert.deepEqual(await sounds(page), [], 'no sound when muted');
  } finally {
    await page.evaluate(() => localStorage.removeItem('chess960-settings')).catch(() => {});
    await page.close();
  }
});

test('premoves off: a move made in the opponent’s turn is refused; confirmation of resignation as set', async () => {
  const page = await pageAt(DESKTOP);
  const dialogs = [];
  page.on('dialog', d => dialogs.push(d.message()));
  try {
    const game = await peopleGame(page, { premoves: false, confirmResign: false });
    await drag(page, 'e2', 'e4');
    await eventually(async () => (await env.api('GET', `/api/games/${game.key}`)).moves.length === 1, 'the move played');
    // Black to move: a drag of a white piece queues nothing.
    await page.waitForTimeout(500);
    await drag(page, 'g1', 'f3');
    await page.waitForTimeout(500);
    assert.equal(await page.locator('[data-testid=board] cg-board square.current-premove').count(), 0, 'no premove shown');
    await game.blackMove('e7e5');
    await page.waitForTimeout(500);
    const afterReply = await env.api('GET', `/api/games/${game.key}`);
    assert.equal(afterReply.moves.length, 2, 'no premove was played after Black’s reply');
    // No confirmation asked: one click resigns.
    await page.getByTestId('resign').click();
    await eventually(async () => (await env.api('GET', `/api/games/${game.key}`)).status !== 'playing', 'resigned at once');
    assert.deepEqual(dialogs, []);

    // Premoves on and confirmation on (the defaults).
    const second = await peopleGame(page, {});
    await drag(page, 'e2', 'e4');
    await eventually(async () => (await env.api('GET', `/api/games/${second.key}`)).moves.length === 1, 'the move played');
    await page.waitForTimeout(500);
    await drag(page, 'g1', 'f3');
    await eventually(async () => (await page.locator('[data-testid=board] cg-board square.current-premove').count()) > 0, 'the premove shown');
    await page.waitForTimeout(500);
    await second.blackMove('e7e5');
    await eventually(async () => (await env.api('GET', `/api/games/${second.key}`)).moves.length === 3, 'the premove played after Black’s reply');
    await page.getByTestId('resign').click();
    await eventually(() => dialogs.length === 1, 'a confirmation asked');
  } finally {
    await page.evaluate(() => localStorage.removeItem('chess960-settings')).catch(() => {});
    await page.close();
  }
});

test('coordinates off and keyboard first on the game page', async () => {
  const page = await pageAt(PHONE);
  try {
    const game = await peopleGame(page, { coordinates: false, moveInput: 'keyboard' });
    assert.equal(await page.locator('[data-testid=board] coords').first().evaluate(el => getComputedStyle(el).display), 'none');
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'move-input'), 'the move box focused');
    await page.keyboard.type('e4');
    await page.keyboard.press('Enter');
    await eventually(async () => (await env.api('GET', `/api/games/${game.key}`)).moves.length === 1, 'the typed move played');
  } finally {
    await page.evaluate(() => localStorage.removeItem('chess960-settings')).catch(() => {});
    await page.close();
  }
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
