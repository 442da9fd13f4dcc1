// Browser tests: the real server, headless Chromium, the UI used as a person would.
//   cd web && npm run test:browser            (server binary: ../target/release/chess960)
//   CHESS960_BIN=/path/to/chess960 npm run test:browser
// Screenshots go to web/test-results/.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { boardPieces, drag, eventually, fenPieces, newFenGame as newFenGameIn, shot, start, startServer, takeSeat } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

/** A new game through the API from a FEN. */
const newFenGame = (fen, color) => newFenGameIn(env, fen, color);

/** A new game through the API from a FEN, opened in a fresh page that holds its seat. */
async function openFen(fen, color = 'white') {
  const view = await newFenGame(fen, color);
  const page = await env.newPage();
  await takeSeat(page, view);
  await page.goto(`/game/${view.key}`);
  await page.locator('[data-testid=board] cg-board piece').first().waitFor();
  await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  return { page, key: view.key };
}

async function firstMove(key) {
  return eventually(async () => (await env.api('GET', `/api/games/${key}`)).moves[0], 'the move to reach the server');
}

// Each castling gesture (spec §4) in positions where king and rook stand side by side and where
// the king already stands on its destination, plus the destination gesture and the look-alike
// king step. `expect` is where king and rook stand afterwards.
const CASTLES = [
  {
    name: 'side by side, drag king onto rook (O-O)',
    fen: '4k3/8/8/8/8/8/8/5KR1 w K - 0 1',
    gesture: { drag: ['f1', 'g1'] },
    uci: 'f1g1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'side by side, O-O button',
    fen: '4k3/8/8/8/8/8/8/5KR1 w K - 0 1',
    gesture: { button: 'king' },
    uci: 'f1g1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'side by side, text box O-O',
    fen: '4k3/8/8/8/8/8/8/5KR1 w K - 0 1',
    gesture: { text: 'O-O' },
    uci: 'f1g1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'side by side a-side, drag king onto rook (O-O-O)',
    fen: '4k3/8/8/8/8/8/8/RK6 w Q - 0 1',
    gesture: { drag: ['b1', 'a1'] },
    uci: 'b1a1',
    expect: { c1: 'white king', d1: 'white rook' },
  },
  {
    name: 'side by side a-side, text box 0-0-0',
    fen: '4k3/8/8/8/8/8/8/2RK4 w Q - 0 1',
    gesture: { text: '0-0-0' },
    uci: 'd1c1',
    expect: { c1: 'white king', d1: 'white rook' },
  },
  {
    name: 'king on its destination, drag king onto rook (O-O)',
    fen: '4k3/8/8/8/8/8/8/6KR w K - 0 1',
    gesture: { drag: ['g1', 'h1'] },
    uci: 'g1h1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'king on its destination, O-O button',
    fen: '4k3/8/8/8/8/8/8/6KR w K - 0 1',
    gesture: { button: 'king' },
    uci: 'g1h1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'king on its destination, text box UCI g1h1',
    fen: '4k3/8/8/8/8/8/8/6KR w K - 0 1',
    gesture: { text: 'g1h1' },
    uci: 'g1h1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'king on its destination a-side, O-O-O button',
    fen: '4k3/8/8/8/8/8/8/R1K5 w Q - 0 1',
    gesture: { button: 'queen' },
    uci: 'c1a1',
    expect: { c1: 'white king', d1: 'white rook' },
  },
  {
    name: 'king on its destination a-side, drag king onto rook',
    fen: '4k3/8/8/8/8/8/8/R1K5 w Q - 0 1',
    gesture: { drag: ['c1', 'a1'] },
    uci: 'c1a1',
    expect: { c1: 'white king', d1: 'white rook' },
  },
  {
    name: 'king to its destination three files away (O-O), with the preview while dragging',
    fen: '4k3/8/8/8/8/8/8/3K3R w K - 0 1',
    gesture: { drag: ['d1', 'g1'], screenshot: 'castle-preview-drag' },
    uci: 'd1h1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'look-alike king step: asked, castle chosen',
    fen: '4k3/8/8/8/8/8/8/5K1R w K - 0 1',
    gesture: { drag: ['f1', 'g1'], choose: 'ambiguous-castle', screenshot: 'castle-or-king-step' },
    uci: 'f1h1',
    expect: { g1: 'white king', f1: 'white rook' },
  },
  {
    name: 'look-alike king step: asked, king step chosen',
    fen: '4k3/8/8/8/8/8/8/5K1R w K - 0 1',
    gesture: { drag: ['f1', 'g1'], choose: 'ambiguous-step' },
    uci: 'f1g1',
    expect: { g1: 'white king', h1: 'white rook' },
  },
  {
    name: 'Black, king to its destination two files away (O-O-O), board flipped',
    fen: 'r3k3/8/8/8/8/8/8/4K3 b q - 0 1',
    color: 'black',
    gesture: { drag: ['e8', 'c8'] },
    uci: 'e8a8',
    expect: { c8: 'black king', d8: 'black rook' },
  },
];

describe('castling gestures', () => {
  for (const c of CASTLES) {
    test(c.name, async () => {
      const { page, key } = await openFen(c.fen, c.color);
      const g = c.gesture;
      if (g.drag) {
        await drag(page, g.drag[0], g.drag[1], async () => {
          if (g.screenshot && !g.choose) {
            // The preview: ghost king and rook on their final squares while the king is held.
            assert.ok((await page.locator('[data-testid=board] cg-auto-pieces piece').count()) >= 1, 'castle preview shown');
            await shot(page, g.screenshot);
          }
        });
        if (g.choose) {
          await page.locator(`[data-testid=${g.choose}]`).waitFor();
          if (g.screenshot) await shot(page, g.screenshot);
          await page.locator(`[data-testid=${g.choose}]`).click();
        }
      } else if (g.button) {
        await page.locator(`[data-testid=castle-${g.button}]`).click();
      } else if (g.text) {
        await page.locator('[data-testid=move-input]').fill(g.text);
        await page.locator('[data-testid=move-input]').press('Enter');
      }
      const move = await firstMove(key);
      assert.equal(move.uci, c.uci, `${c.name}: the move sent`);
      const pieces = await eventually(async () => {
        const shown = await boardPieces(page);
        return Object.entries(c.expect).every(([sq, p]) => shown[sq] === p) ? shown : null;
      }, `king and rook on ${JSON.stringify(c.expect)}`);
      assert.ok(pieces);
      await page.close();
    });
  }
});

describe('a game', () => {
  test('promotion asks for the piece', async () => {
    const { page, key } = await openFen('4k3/1P6/8/8/8/8/8/4K3 w - - 0 1');
    await drag(page, 'b7', 'b8');
    await page.locator('[data-testid=promote-n]').waitFor();
    await shot(page, 'promotion-choice');
    await page.locator('[data-testid=promote-n]').click();
    const move = await firstMove(key);
    assert.equal(move.uci, 'b7b8n');
    assert.match(move.san, /^b8=N/);
    await eventually(async () => (await boardPieces(page)).b8 === 'white knight', 'a knight on b8');
    await page.close();
  });

  test('new game from the form, moves by mouse, reload, browse, resign, evaluate, find it saved', async () => {
    const page = await env.newPage();
    await page.goto('/');
    await page.locator('[data-testid=start-id]').check();
    await page.locator('[data-testid=id]').fill('123');
    await page.locator('[data-testid=preview-label]', { hasText: '#123' }).waitFor();
    // The Elo input offers exactly the range the server accepts.
    const levels = await env.api('GET', '/api/levels');
    await page.locator('[data-testid=elo-range]', { hasText: `${levels.elo.min}–${levels.elo.max}` }).waitFor();
    const elo = page.locator('[data-testid=elo]');
    assert.deepEqual([await elo.getAttribute('min'), await elo.getAttribute('max')], [String(levels.elo.min), String(levels.elo.max)]);
    // The browser checks the input's step from its min: the default must still be valid, or the form will not submit.
    assert.ok(await elo.evaluate(input => input.checkValidity()), `Elo ${await elo.inputValue()} is a valid value of the input`);
    await page.locator('[data-testid=color-white]').check();
    await page.locator('[data-testid=level-depth]').check();
    await page.locator('[data-testid=depth]').fill('1');
    await page.locator('[data-testid=clock]').selectOption('5+3');
    await page.locator('[data-testid=study]').fill('0');
    await shot(page, 'new-game-form');
    await page.locator('[data-testid=start-game]').click();
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    const key = page.url().split('/').pop();
    await page.locator('[data-testid=start-banner]', { hasText: '#123' }).waitFor();

    // Three moves by mouse, each answered by the engine.
    for (let i = 0; i < 3; i++) {
      const view = await eventually(async () => {
        const v = await env.api('GET', `/api/games/${key}`);
        return v.turn === v.human && v.legal.length > 0 ? v : null;
      }, 'the human to be on move');
      const move = view.legal.find(m => !m.castle && !m.promotion && m.from[1] === '2') ?? view.legal.find(m => !m.castle && !m.promotion);
      await drag(page, move.from, move.to);
      await eventually(async () => (await env.api('GET', `/api/games/${key}`)).moves.length >= view.moves.length + 2, 'the engine reply');
    }
    await page.locator('[data-testid=moves] button.move').nth(5).waitFor();
    await shot(page, 'game-in-progress');

    // Reload mid-game: the key in the URL restores everything.
    const before = await env.api('GET', `/api/games/${key}`);
    const movesText = await page.locator('[data-testid=moves]').innerText();
    const piecesBefore = await boardPieces(page);
    await page.reload();
    await page.locator('[data-testid=moves] button.move').nth(5).waitFor();
    assert.equal(await page.locator('[data-testid=moves]').innerText(), movesText, 'the same moves after the reload');
    assert.deepEqual(await boardPieces(page), piecesBefore, 'the same position after the reload');
    assert.match(await page.locator('[data-testid=start-banner]').innerText(), /#123/);
    const afterReload = await env.api('GET', `/api/games/${key}`);
    assert.equal(afterReload.moves.length, before.moves.length);
    assert.ok(await page.locator('[data-testid=clock-white]').isVisible(), 'clocks shown');

    // Browse back with the keyboard and by clicking a move.
    await page.locator('body').press('ArrowLeft');
    await page.locator(`[data-testid=moves] button.move[data-ply="${before.moves.length - 1}"][aria-current]`).waitFor();
    await page.locator('[data-testid=moves] button.move[data-ply="1"]').click();
    await page.locator('[data-testid=moves] button.move[data-ply="1"][aria-current]').waitFor();
    // The board shows the server's position after the first move.
    const expected = fenPieces(before.moves[0].fen);
    await eventually(
      async () => JSON.stringify(Object.fromEntries(Object.entries(await boardPieces(page)).sort())) === JSON.stringify(expected),
      'the position after the first move',
    );
    await shot(page, 'browsing-ply-1');
    await page.locator('body').press('End');

    // Resign, then ask the engine for an evaluation.
    await page.locator('[data-testid=resign]').click();
    await page.locator('[data-testid=status]', { hasText: 'resignation' }).waitFor();
    await page.locator('[data-testid=evaluate]').click();
    await page.locator('.analysis-output', { hasText: /depth|error|finished/i }).waitFor({ timeout: 30_000 });
    await shot(page, 'game-over');

    // The games page lists it, filtered by its start position.
    await page.goto('/games');
    await page.locator('[data-testid=filter-start]').fill('123');
    await page.locator('[data-testid=filter-start]').press('Enter');
    await page.locator(`[data-testid=games] a[href="/game/${key}"]`).waitFor();
    await shot(page, 'games');
    await page.locator(`[data-testid=games] a[href="/game/${key}"]`).click();
    await page.waitForURL(`**/game/${key}`);
    await page.locator('[data-testid=status]', { hasText: 'resignation' }).waitFor();
    await page.locator('[data-testid=evaluate]').waitFor();
    await page.close();
  });
});

describe('seats', () => {
  test('a game opened without its seat is watched: the board takes no move, the player\'s moves appear', async () => {
    const view = await newFenGame('4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    const watcher = await env.newPage();
    await watcher.goto(`/game/${view.key}`);
    await watcher.locator('[data-testid=status]', { hasText: 'You are watching' }).waitFor();
    assert.ok(await watcher.locator('[data-testid=move-input]').isDisabled(), 'no move input');
    assert.equal(await watcher.locator('[data-testid=resign]').count(), 0, 'no resign button');
    assert.equal(await watcher.locator('[data-testid^=castle-]').count(), 0, 'no castle buttons');
    await drag(watcher, 'e1', 'e2');
    await new Promise(r => setTimeout(r, 500));
    assert.equal((await env.api('GET', `/api/games/${view.key}`)).moves.length, 0, 'the drag sent no move');
    await shot(watcher, 'watching');

    // The browser with the seat plays; the watcher sees it.
    const player = await env.newPage();
    await takeSeat(player, view);
    await player.goto(`/game/${view.key}`);
    await player.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
    await player.locator('[data-testid=castle-king]').click();
    await firstMove(view.key);
    await eventually(async () => (await boardPieces(watcher)).g1 === 'white king', 'the castled king on the watcher\'s board');
    await watcher.close();
    await player.close();
  });
});

describe('positions', () => {
  test('the positions page searches all 960 and shows both tables and the fairness table', async () => {
    const page = await env.newPage();
    await page.goto('/positions');
    await page.locator('[data-testid=positions] li').nth(959).waitFor();
    assert.equal(await page.locator('[data-testid=positions] li').count(), 960);
    await page.locator('[data-testid=position-search]').fill('518');
    await eventually(async () => (await page.locator('[data-testid=positions] li').count()) === 1, 'one match');
    assert.match(await page.locator('[data-testid=positions] li').innerText(), /RNBQKBNR/);
    await page.locator('.king-table').waitFor();
    await page.locator('.fairness').waitFor();
    await shot(page, 'positions');
    await page.close();
  });

  test('the projector shows a drawn position large and draws the next on Space', async () => {
    const page = await env.newPage();
    await page.goto('/projector');
    const number = page.locator('[data-testid=projector-number]');
    await eventually(async () => /^\d+$/.test(await number.innerText()), 'a drawn number');
    assert.match(await page.locator('[data-testid=projector-rank]').innerText(), /^[KQRBN]{8}$/);
    await page.keyboard.press('Space');
    await eventually(async () => /^\d+$/.test(await number.innerText()), 'the next number');
    await shot(page, 'projector');
    await page.close();
  });
});

// What a page of another site can do to a server on this machine without opening it: post a
// form (text/plain with a JSON-looking body, or an empty urlencoded one), post with fetch in
// no-cors mode, open a WebSocket. Each must be refused and change nothing.
function foreignPage(target, key) {
  const ws = target.replace(/^http/, 'ws');
  return `<!doctype html><html><head><meta charset="utf-8"><title>another site</title></head><body>
<form id="create" method="post" enctype="text/plain" action="${target}/api/games">
  <input type="hidden" name='{"color": "black", "name": "x' value='"}'>
</form>
<form id="resign" method="post" action="${target}/api/games/${key}/resign"></form>
<script>
  window.socket = new Promise(done => {
    const socket = new WebSocket('${ws}/api/games/${key}/ws');
    socket.onopen = () => done('open');
    socket.onerror = () => done('refused');
    socket.onclose = () => done('refused');
  });
  window.fetched = fetch('${target}/api/games', { method: 'POST', mode: 'no-cors', body: '{"name": "fetch"}' })
    .then(() => 'sent', () => 'failed');
</script></body></html>`;
}

describe('cross-site requests', () => {
  test('a page of another origin can neither post to the server nor open a WebSocket', async () => {
    const { key } = await env.api('POST', '/api/games', { level: { depth: 1 }, color: 'white', time_control: null, study_ms: 0 });
    const before = (await env.api('GET', '/api/games?limit=1')).total;
    const foreign = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(foreignPage(env.base, key));
    });
    await new Promise(ok => foreign.listen(0, '127.0.0.1', ok));
    const origin = `http://127.0.0.1:${foreign.address().port}`;
    const page = await env.newPage();
    try {
      await page.goto(`${origin}/`);
      assert.equal(await page.evaluate(() => window.socket), 'refused', 'the WebSocket did not open');
      await page.evaluate(() => window.fetched);
      for (const form of ['create', 'resign']) {
        if (!page.url().startsWith(origin)) await page.goto(`${origin}/`);
        const [response] = await Promise.all([
          page.waitForEvent('response', r => r.url().startsWith(env.base)),
          page.evaluate(id => document.getElementById(id).submit(), form),
        ]);
        assert.equal(response.status(), 403, `the ${form} form is refused`);
        await page.waitForURL(url => url.href.startsWith(env.base));
        await page.locator('body', { hasText: 'its own pages' }).waitFor();
      }
      await shot(page, 'cross-site-form-refused');
    } finally {
      await page.close();
      foreign.close();
    }
    assert.equal((await env.api('GET', '/api/games?limit=1')).total, before, 'no game was created');
    assert.equal((await env.api('GET', `/api/games/${key}`)).status, 'playing', 'the game was not resigned');
  });
});

describe('a server that asks for its access token', () => {
  test('the printed address lets the browser in, the UI plays on its cookie, and without it the page says what to do', async () => {
    const token = 'browser-test-token';
    const server = await startServer(['--token', token]);
    const headers = { Authorization: `Bearer ${token}` };
    const view = async key => (await fetch(`${server.base}/api/games/${key}`, { headers })).json();
    const page = await env.newPage();
    try {
      // Without the token: a page that says what is missing and where to find it.
      const refused = await page.goto(`${server.base}/`);
      assert.equal(refused.status(), 401);
      assert.match(await page.locator('h1').innerText(), /needs its access token/);
      assert.match(await page.locator('body').innerText(), /chess960 serve/);
      await shot(page, 'token-needed');

      // The address as printed: the token becomes a cookie and leaves the address.
      await page.goto(`${server.base}/?token=${token}`);
      assert.equal(page.url(), `${server.base}/`);

      // A new game from the form, a move by mouse (POSTs with the cookie); the engine's reply
      // reaches the board over the WebSocket, which the cookie let in too.
      await page.locator('[data-testid=start-id]').check();
      await page.locator('[data-testid=id]').fill('518');
      await page.locator('[data-testid=preview-label]', { hasText: '#518' }).waitFor();
      await page.locator('[data-testid=color-white]').check();
      await page.locator('[data-testid=level-depth]').check();
      await page.locator('[data-testid=depth]').fill('1');
      await page.locator('[data-testid=clock]').selectOption('none');
      await page.locator('[data-testid=study]').fill('0');
      await page.locator('[data-testid=start-game]').click();
      await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
      const key = page.url().split('/').pop();
      await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
      await drag(page, 'e2', 'e4');
      const reply = await eventually(async () => (await view(key)).moves[1], "the engine's reply");
      await eventually(
        async () => (await boardPieces(page))[reply.uci.slice(2, 4)]?.startsWith('black'),
        "the engine's reply on the board",
      );

      // The cookie gone (say, the server was started again with another token): the UI shows
      // the server's message.
      await env.context.clearCookies();
      await page.locator('[data-testid=resign]').click();
      await page.locator('[data-testid=message]', { hasText: 'access token' }).waitFor();
      await shot(page, 'token-lost');
      assert.equal((await view(key)).status, 'playing');
    } finally {
      await page.close();
      await server.close();
    }
  });
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
