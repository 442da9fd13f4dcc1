// Browser tests for the defects of issue 40 on the home page, the positions pages and the
// analysis board: aborted games in the explorer (3), the outcomes of a physical draw in the
// new-game form and its preview on a phone (9), the lobby before the form (11), /positions/960
// (12), and the polish of 13 (the figurines of /positions on a phone, lobby entries without
// dangling separators, Play on the first screen at 1366×900, the analysis PGN's name, an arrow
// per engine line), with no sideways scroll at 390 px. The real server, headless Chromium.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/home-defects.test.mjs

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, PHONE, eventually, freshHome, gameKey, openAt, previewId, quickSettings, shot, sideways, start, takeSeat } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

async function pageAt(size) {
  const page = await openAt(env, size);
  // A defect shows as a failed check, not as a long wait for an element that is not there.
  page.setDefaultTimeout(10_000);
  return page;
}

async function act(view, action, body = {}) {
  const response = await fetch(`${env.base}/api/games/${view.key}/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Seat-Token': view.seat_token },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${action}: ${await response.text()}`);
}

/** Whether the page scrolls sideways (its document is wider than the window). */

describe('3. aborted games in the explorer', () => {
  test('the explorer and "Games that reached this position" leave aborted games out', async () => {
    // Start position 77: one game resigned (it counts), one aborted before either side moved.
    const played = await env.api('POST', '/api/games', { start: { id: 77 }, color: 'white', level: { depth: 1 }, time_control: null });
    await act(played, 'resign');
    const aborted = await env.api('POST', '/api/games', { start: { id: 77 }, color: 'white', level: { depth: 1 }, time_control: null });
    await act(aborted, 'abort');
    assert.equal((await env.api('GET', `/api/games/${aborted.key}`)).reason, 'aborted');

    const explorer = await env.api('GET', '/api/explorer?start=77');
    assert.deepEqual(
      { games: explorer.total.games, unfinished: explorer.total.unfinished, listed: explorer.games.map(g => g.key) },
      { games: 1, unfinished: 0, listed: [played.key] },
      'the API counts and lists the resigned game only',
    );

    const page = await pageAt(DESKTOP);
    try {
      await page.goto('/positions/77');
      await page.locator('[data-testid=explorer-summary]', { hasText: 'reached' }).waitFor();
      assert.equal(await page.locator('[data-testid=explorer-summary]').innerText(), '1 game reached this position; White scored 0.00.');
      assert.equal(await page.locator('[data-testid=explorer-total] td.games').innerText(), '1');
      assert.equal(await page.locator('[data-testid=explorer-moves]').getByText('no result yet').count(), 0, 'no "game ended … no result yet" row');
      const listed = await page.locator('[data-testid=explorer-games] a').evaluateAll(as => as.map(a => a.getAttribute('href')));
      assert.deepEqual(listed, [`/game/${played.key}`]);
      await shot(page, 'home-defects-explorer-aborted-1366');
    } finally {
      await page.close();
    }
  });
});

describe('9. the rolls made at a real board', () => {
  test('the form takes the outcomes of each drawing method, shows their position and steps, and Play starts exactly it', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      await quickSettings(page);
      // Cards laid out at the board: 3 1 6 2 4 5 7 8, the bishops on a1 and c1 (both dark), then
      // 3 from the reshuffled deck: #726 RKBNQBNR.
      await page.locator('[data-testid=method]').selectOption('cards');
      await page.locator('[data-testid=outcomes]').fill('3,1,6,2,4,5,7,8,3');
      await eventually(async () => (await previewId(page)) === 726, 'the cards position in the preview');
      assert.equal(await page.locator('[data-testid=start-draw]').isChecked(), true, 'typing outcomes chooses the draw');
      const cardSteps = await page.locator('[data-testid=draw-steps] li').allTextContents();
      assert.equal(cardSteps[0], 'card 3 (bishop) → a1');

      // Outcomes that do not fit yet: the server's reason is shown where they are typed.
      await page.locator('[data-testid=method]').selectOption('die');
      await page.locator('[data-testid=outcomes]').fill('2,3,3');
      await page.locator('[data-testid=outcomes-hint]', { hasText: 'only 3 outcomes were given' }).waitFor();
      assert.equal(await page.locator('[data-testid=draw-steps] li').count(), 0, 'no steps for outcomes that do not fit');
      assert.equal(await previewId(page), null, 'and no position');

      // The die rolled 2 3 3 2 3 at the board: the classical start, and the game keeps that draw.
      await page.locator('[data-testid=outcomes]').fill('2,3,3,2,3');
      await eventually(async () => (await previewId(page)) === 518, 'the die position in the preview');
      const steps = await page.locator('[data-testid=draw-steps] li').allTextContents();
      assert.equal(steps[0], 'roll 2 → dark-squared bishop on c1');
      await shot(page, 'home-defects-outcomes-1366');
      await page.locator('[data-testid=start-game]').click();
      const key = await gameKey(page);
      const view = await env.api('GET', `/api/games/${key}`);
      assert.equal(view.start_id, 518);
      assert.equal(view.drawn.method, 'die');
      assert.equal(view.drawn.outcomes, '2,3,3,2,3');
      assert.deepEqual(view.drawn.steps, steps);
    } finally {
      await page.close();
    }
  });

  test('every method says what its outcomes are, and an example of them draws a position', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      const methods = await page.locator('[data-testid=method] option').evaluateAll(os => os.map(o => o.value));
      assert.ok(methods.length >= 6, methods.join(' '));
      for (const method of methods) {
        await page.locator('[data-testid=method]').selectOption(method);
        const hint = await page.locator('[data-testid=outcomes-hint]').innerText();
        assert.match(hint, /Rolled at a real board\?/, `${method}: ${hint}`);
        const example = (await page.locator('[data-testid=outcomes]').getAttribute('placeholder')).replace(/^e\.g\. /, '');
        await page.locator('[data-testid=outcomes]').fill(example);
        const drawn = await env.api('POST', '/api/draw', { method, outcomes: example });
        await eventually(async () => (await previewId(page)) === drawn.id, `${method}: the example's position`);
      }
    } finally {
      await page.close();
    }
  });

  test('on a phone the drawn position stands right under its steps', async () => {
    const page = await pageAt(PHONE);
    try {
      await freshHome(page);
      await page.locator('[data-testid=method]').selectOption('die');
      await page.locator('[data-testid=draw]').click();
      await eventually(async () => (await previewId(page)) !== null, 'the drawn position');
      const steps = await page.locator('[data-testid=draw-steps]').boundingBox();
      const board = await page.locator('.mini-board.preview').boundingBox();
      const label = await page.locator('[data-testid=preview-label]').boundingBox();
      assert.ok(label.y >= steps.y + steps.height - 1, 'the label comes after the steps');
      assert.ok(label.y - (steps.y + steps.height) < 40, `the position's label right under the steps (${Math.round(label.y - steps.y - steps.height)} px below)`);
      assert.ok(board.y + board.height - steps.y < PHONE.height, 'the steps and the whole board fit on one screen');
      assert.ok(board.width >= 200, `the board is readable (${board.width} px)`);
      assert.equal(await sideways(page), false);
      await page.locator('.mini-board.preview').scrollIntoViewIfNeeded();
      await page.screenshot({ path: 'test-results/home-defects-draw-steps-phone.png' });
    } finally {
      await page.close();
    }
  });
});

describe('11. the lobby on the home page', () => {
  for (const [name, size] of [['1366', DESKTOP], ['phone', PHONE]]) {
    test(`comes before the form, and its text does not send the player "below" (${name})`, async () => {
      const page = await pageAt(size);
      try {
        await freshHome(page);
        const note = page.locator('[data-testid=lobby-note]');
        await eventually(async () => (await note.innerText()) !== 'Connecting…', 'the lobby connected');
        const lobby = await page.locator('[data-testid=lobby]').boundingBox();
        const form = await page.locator('form.new-game').boundingBox();
        assert.ok(lobby.y + lobby.height <= form.y, `the lobby (${Math.round(lobby.y)}–${Math.round(lobby.y + lobby.height)}) is above the form (${Math.round(form.y)})`);
        assert.ok(lobby.y < size.height / 2, 'near the top of the page');
        const text = await note.innerText();
        assert.doesNotMatch(text, /below/i);
        assert.match(text, /List it in the lobby too/);
      } finally {
        await page.close();
      }
    });
  }
});

describe('12. /positions/960', () => {
  test('shows start position 0, as 960 = 0 everywhere else', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await page.goto('/positions/960');
      await page.locator('[data-testid=position-page] h1', { hasText: '#0' }).waitFor();
      assert.match(await page.locator('h1').first().innerText(), /^#0 BBQNNRKR/);
      assert.equal(new URL(page.url()).pathname, '/positions/0');
      assert.equal(await page.getByText('Not found').count(), 0);
    } finally {
      await page.close();
    }
  });
});

describe('13. polish', () => {
  test('the figurines of /positions are whole on a phone', async () => {
    const page = await pageAt(PHONE);
    try {
      await page.goto('/positions');
      await page.locator('[data-testid=positions] li').nth(959).waitFor({ state: 'attached' });
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid=positions] li')].slice(0, 40).flatMap(li => {
          const f = li.querySelector('.back-rank-figurines');
          const liBox = li.getBoundingClientRect();
          const parts = [...li.children].map(c => c.getBoundingClientRect());
          const bad = f.scrollWidth > f.clientWidth + 0.5 || parts.some(p => p.right > liBox.right + 0.5);
          return bad ? [`#${li.dataset.id}: ${f.clientWidth} of ${f.scrollWidth} px shown`] : [];
        }),
      );
      assert.deepEqual(clipped, []);
      assert.equal(await sideways(page), false);
      await page.screenshot({ path: 'test-results/home-defects-positions-list-phone.png' });
    } finally {
      await page.close();
    }
  });

  test('lobby entries wrap without dangling "·" on a phone', async () => {
    // A listed challenge is shown while its creator has its page open.
    const creator = await pageAt(DESKTOP);
    const page = await pageAt(PHONE);
    try {
      const challenge = await env.api('POST', '/api/games', {
        start: { id: 640 },
        opponent: 'human',
        lobby: true,
        name: 'Bartholomew Longname',
        time_control: { initial_ms: 900_000, increment_ms: 10_000 },
      });
      await takeSeat(creator, challenge);
      await creator.goto(`/game/${challenge.key}`);
      await freshHome(page);
      const entry = page.locator(`[data-testid=lobby-entry][data-key="${challenge.key}"]`);
      await entry.waitFor();
      const shown = await entry.innerText();
      assert.doesNotMatch(shown, /·/, `no separator is drawn: ${JSON.stringify(shown)}`);
      assert.match(shown, /Bartholomew Longname/);
      assert.match(shown, /#640/);
      assert.match(shown, /15\+10/);
      assert.match(shown, /Casual/);
      const outside = await entry.evaluate(li => {
        const box = li.getBoundingClientRect();
        return [...li.querySelectorAll('*')]
          .filter(el => el.getClientRects().length > 0)
          .filter(el => {
            const r = el.getBoundingClientRect();
            return r.left < box.left - 0.5 || r.right > box.right + 0.5;
          })
          .map(el => el.className || el.tagName);
      });
      assert.deepEqual(outside, [], 'every part of the entry stays inside it');
      assert.equal(await sideways(page), false);
      await page.locator('[data-testid=lobby]').screenshot({ path: 'test-results/home-defects-lobby-phone.png' });
    } finally {
      await creator.close();
      await page.close();
    }
  });

  test('at 1366×900 the Play button is on the first screen, also with a draw and its steps shown', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      const onScreen = async what => {
        const box = await page.locator('[data-testid=start-game]').boundingBox();
        const scrolled = await page.evaluate(() => window.scrollY);
        assert.equal(scrolled, 0);
        assert.ok(box.y + box.height <= DESKTOP.height, `${what}: Play ends at ${Math.round(box.y + box.height)} px, below the 900 px screen`);
      };
      await onScreen('the form as it opens');
      await shot(page, 'home-defects-home-1366');
      await page.locator('[data-testid=method]').selectOption('cards');
      await page.locator('[data-testid=draw]').click();
      await eventually(async () => (await previewId(page)) !== null, 'the drawn position');
      await page.screenshot({ path: 'test-results/home-defects-home-drawn-1366.png' });
      await onScreen('with the cards’ steps shown');
    } finally {
      await page.close();
    }
  });

  test("the analysis PGN is named by its players, date and start position", async () => {
    const game = await env.api('POST', '/api/games', {
      start: { id: 350 },
      name: 'Alice Zoë',
      color: 'white',
      level: { depth: 1 },
      time_control: null,
    });
    await act(game, 'resign');
    const page = await pageAt(DESKTOP);
    try {
      await page.goto(`/analysis?game=${game.key}`);
      const link = page.locator('[data-testid=export-pgn]');
      await link.waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      assert.match(download.suggestedFilename(), /^Alice-Zo-vs-chess960-engine-depth-1_\d{4}-\d\d-\d\d_SP350_analysis\.pgn$/);
      await shot(page, 'home-defects-analysis-game-1366');

      // A position analysed on the board, without players: named by the day and the start.
      await page.goto('/analysis?start=0');
      await page.locator('[data-testid=board] cg-board piece').first().waitFor();
      await page.locator('[data-testid=analysis-time]').selectOption('100');
      await page.locator('[data-testid=analyse-game]').click();
      await link.waitFor({ timeout: 30_000 });
      assert.match(await link.getAttribute('download'), /^chess960-analysis_\d{4}-\d\d-\d\d_SP0\.pgn$/);
    } finally {
      await page.close();
    }
  });

  test('with several engine lines, one arrow per line, thinner for later lines', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await page.goto('/analysis?start=518');
      await page.locator('[data-testid=board] cg-board piece').first().waitFor();
      await page.locator('[data-testid=multipv]').selectOption('3');
      await page.locator('[data-testid=engine-toggle]').click();
      await eventually(async () => (await page.locator('[data-testid=engine-lines] li').count()) === 3, 'three engine lines');
      const arrows = await eventually(async () => {
        const list = ((await page.locator('[data-testid=board]').getAttribute('data-arrows')) ?? '').split(' ').filter(Boolean);
        return list.length === 3 ? list : null;
      }, 'three arrows');
      assert.equal(new Set(arrows).size, 3, `three different moves: ${arrows}`);
      const widths = await page
        .locator('[data-testid=board] svg.cg-shapes line')
        .evaluateAll(lines => lines.map(l => Number(l.getAttribute('stroke-width'))));
      assert.equal(widths.length, 3, `three arrows drawn: ${widths}`);
      const sorted = [...widths].sort((a, b) => b - a);
      assert.ok(sorted[0] > sorted[1] && sorted[1] > sorted[2], `each later line thinner: ${widths}`);
      await shot(page, 'home-defects-analysis-lines-1366');
      await page.setViewportSize(PHONE);
      // On a phone the board comes first, the engine's lines under it.
      const board = await page.locator('[data-testid=board]').boundingBox();
      const lines = await page.locator('[data-testid=engine-lines]').boundingBox();
      assert.ok(board.y < lines.y, `the board (${Math.round(board.y)}) above the engine lines (${Math.round(lines.y)})`);
      assert.equal(await sideways(page), false);
      await shot(page, 'home-defects-analysis-lines-phone');
      await page.locator('[data-testid=engine-toggle]').click();
    } finally {
      await page.close();
    }
  });
});

describe('no sideways scroll at 390 px', () => {
  test('home, positions, a position page (also as 960), projector and analysis fit the phone', async () => {
    const page = await pageAt(PHONE);
    try {
      const wide = [];
      for (const path of ['/', '/positions', '/positions/518', '/positions/960', '/positions/518?moves=e2e4,e7e5', '/projector', '/analysis', '/analysis?start=0']) {
        await page.goto(path);
        await page.waitForTimeout(600);
        if (await sideways(page)) wide.push(path);
      }
      // The home page with a draw and its steps.
      await freshHome(page);
      await page.locator('[data-testid=method]').selectOption('bag-wheeler');
      await page.locator('[data-testid=draw]').click();
      await eventually(async () => (await previewId(page)) !== null, 'the drawn position');
      if (await sideways(page)) wide.push('/ with a draw');
      assert.deepEqual(wide, []);
    } finally {
      await page.close();
    }
  });
});

test('screenshots of the changed pages at both sizes', async () => {
  for (const [name, size] of [['1366', DESKTOP], ['phone', PHONE]]) {
    const page = await pageAt(size);
    try {
      await freshHome(page);
      await shot(page, `home-defects-home-${name}`);
      await page.goto('/positions');
      await page.locator('[data-testid=positions] li').first().waitFor();
      await page.locator('table.fairness').waitFor();
      await shot(page, `home-defects-positions-${name}`);
      await page.goto('/positions/77');
      await page.locator('[data-testid=explorer-summary]', { hasText: 'reached' }).waitFor();
      await shot(page, `home-defects-position-${name}`);
      await page.goto('/analysis?start=0');
      await page.locator('[data-testid=board] cg-board piece').first().waitFor();
      await page.waitForTimeout(500); // the pieces' move from the standard start
      await shot(page, `home-defects-analysis-${name}`);
    } finally {
      await page.close();
    }
  }
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
