// Browser tests for the defects of issue 14 §1 (1–5, 7, 10) and `/?start=<id>`: the real server,
// headless Chromium, at 1366×900 and a 390×844 phone where layout matters.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/defects.test.mjs

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, PHONE, eventually, freshHome, gameKey, newFenGame, openAt, previewId, quickSettings, shot, sideways, start, stepsShown, takeSeat } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

const pageAt = size => openAt(env, size);

describe('1. the drawn position', () => {
  test('switching the method clears the drawn position; Play starts exactly the one shown, and the game page shows its draw', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      await quickSettings(page);
      await page.locator('[data-testid=start-draw]').check();
      await page.locator('[data-testid=method]').selectOption('die');
      await page.locator('[data-testid=draw]').click();
      await eventually(async () => (await previewId(page)) !== null, 'the die draw in the preview');
      assert.ok((await stepsShown(page)).some(s => s.startsWith('roll')), 'the die steps are shown');

      // Another method: the die's position and steps go.
      await page.locator('[data-testid=method]').selectOption('cards');
      await eventually(async () => (await stepsShown(page)).length === 0, 'the steps to clear');
      assert.equal(await previewId(page), null, 'the die position is no longer shown');
      await shot(page, 'defects-draw-cleared');

      // Play without a cards draw: the position is drawn and shown first, not started unseen.
      await page.locator('[data-testid=start-game]').click();
      await page.locator('[data-testid=message]', { hasText: 'press Play' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/');
      const shownId = await previewId(page);
      assert.notEqual(shownId, null);
      const steps = await stepsShown(page);
      assert.ok(steps.some(s => s.startsWith('card')), `the cards' steps are shown: ${steps}`);
      await shot(page, 'defects-draw-cards');

      await page.locator('[data-testid=start-game]').click();
      const key = await gameKey(page);
      const view = await env.api('GET', `/api/games/${key}`);
      assert.equal(view.start_id, shownId, 'the game starts at the position shown');
      assert.equal(view.drawn.method, 'cards');
      assert.deepEqual(view.drawn.steps, steps);

      const record = page.locator('[data-testid=drawn-record]');
      await record.waitFor();
      assert.deepEqual(await record.locator('li').allTextContents(), steps);
      assert.match(await record.textContent(), /Eight numbered cards/);
      assert.match(await record.textContent(), /chess960 draw --method cards --seed \d+/);
      const pgn = await (await fetch(`${env.base}/api/games/${key}/pgn`)).text();
      assert.match(pgn, /\[StartDrawMethod "cards"\]/);
      await shot(page, 'defects-draw-game');
    } finally {
      await page.close();
    }
  });
});

describe('2. only the chosen option is checked; 960 is 0', () => {
  test('an invalid number under an unchosen option does not block Play', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      await quickSettings(page);
      await page.locator('[data-testid=id]').fill('1234');
      await page.locator('[data-testid=start-random]').check();
      await page.locator('[data-testid=level-elo]').check();
      await page.locator('[data-testid=depth]').fill('99'); // unchosen: Elo is
      await page.locator('[data-testid=start-game]').click();
      await gameKey(page);
    } finally {
      await page.close();
    }
  });

  test('960 is accepted as 0, as the CLI and the API take it, and the page says so', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      await quickSettings(page);
      assert.match(await page.locator('.start').textContent(), /960 = 0/);
      await page.locator('[data-testid=id]').fill('960');
      await page.locator('[data-testid=preview-label]', { hasText: '#0' }).waitFor();
      await page.locator('[data-testid=start-game]').click();
      const key = await gameKey(page);
      assert.equal((await env.api('GET', `/api/games/${key}`)).start_id, 0);
    } finally {
      await page.close();
    }
  });

  test('a chosen field that is out of range still stops Play, with the browser saying why', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page);
      await quickSettings(page);
      await page.locator('[data-testid=id]').fill('961');
      await page.locator('[data-testid=start-game]').click();
      await page.waitForTimeout(500);
      assert.equal(new URL(page.url()).pathname, '/');
      assert.equal(await page.locator('[data-testid=id]').evaluate(el => el.validity.rangeOverflow), true);
    } finally {
      await page.close();
    }
  });
});

/** Whether the page scrolls sideways. */

describe('3. the positions grid', () => {
  test('no entry runs into the next at 1366 px, every column shows, no sideways scroll on a phone', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await page.goto('/positions');
      await page.locator('[data-testid=positions] li').nth(959).waitFor({ state: 'attached' });
      const layout = await page.evaluate(() => {
        const list = document.querySelector('[data-testid=positions]');
        const items = [...list.querySelectorAll('li')].slice(0, 12);
        const boxes = items.map(li => {
          const parts = [...li.children].map(c => c.getBoundingClientRect());
          return { li: li.getBoundingClientRect(), right: Math.max(...parts.map(p => p.right)), left: Math.min(...parts.map(p => p.left)) };
        });
        return { boxes, listRight: list.getBoundingClientRect().right, scroll: list.scrollWidth - list.clientWidth };
      });
      assert.equal(layout.scroll, 0, 'the list does not scroll sideways');
      for (let i = 0; i < layout.boxes.length; i++) {
        const b = layout.boxes[i];
        assert.ok(b.right <= b.li.right + 0.5, `entry ${i}: its content stays in its cell`);
        assert.ok(b.right <= layout.listRight, `entry ${i}: its Play link is inside the list`);
        const next = layout.boxes[i + 1];
        if (next && Math.abs(next.li.top - b.li.top) < 1) assert.ok(b.right <= next.left, `entry ${i} ends before entry ${i + 1} begins`);
      }
      await shot(page, 'defects-positions-1366');
      await page.setViewportSize(PHONE);
      await page.goto('/positions');
      await page.locator('[data-testid=positions] li').first().waitFor();
      await page.locator('table.fairness').waitFor();
      assert.equal(await sideways(page), false, 'the phone page does not scroll sideways');
      await shot(page, 'defects-positions-phone');
    } finally {
      await page.close();
    }
  });

  test('no page scrolls sideways on a phone', async () => {
    const page = await pageAt(PHONE);
    try {
      for (const path of ['/', '/positions', '/projector']) {
        await page.goto(path);
        await page.waitForTimeout(500);
        assert.equal(await sideways(page), false, `${path} scrolls sideways`);
      }
    } finally {
      await page.close();
    }
  });
});

describe('4. pages open at the top', () => {
  test('the game page opens at its top on a phone, though the new-game page was scrolled down', async () => {
    const page = await pageAt(PHONE);
    try {
      await freshHome(page);
      await quickSettings(page);
      await page.locator('[data-testid=id]').fill('350');
      await page.locator('[data-testid=start-game]').scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      assert.ok((await page.evaluate(() => window.scrollY)) > 200, 'the form was scrolled down');
      await page.locator('[data-testid=start-game]').click();
      await gameKey(page);
      await page.locator('[data-testid=board] cg-board piece').first().waitFor();
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      await shot(page, 'defects-game-top-phone');
    } finally {
      await page.close();
    }
  });
});

/** WCAG contrast of two sRGB colours [r, g, b] (0..255). */
function contrast(a, b) {
  const lum = ([r, g, bl]) =>
    [r, g, bl]
      .map(v => v / 255)
      .map(v => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The rendered colour of the page at (x, y), read from a screenshot. */
async function pixel(page, x, y) {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  return page.evaluate(async data => {
    const blob = await (await fetch(`data:image/png;base64,${data}`)).blob();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(1, 1);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, png.toString('base64'));
}

describe('5. board coordinates', () => {
  for (const [name, size] of [
    ['1366', DESKTOP],
    ['phone', PHONE],
  ]) {
    test(`square names are large and contrast with both square colours (${name})`, async () => {
      const view = await newFenGame(env, 'nrkqrbbn/pppppppp/8/8/8/8/PPPPPPPP/NRKQRBBN w KQkq - 0 1');
      const page = await pageAt(size);
      try {
        await page.goto(`/game/${view.key}`);
        await page.locator('[data-testid=board] coords.ranks coord').first().waitFor();
        // Rank 1 stands on a1 (dark), rank 2 on a2 (light); the file letter a on a1, b on b1 (light).
        const labels = await page.evaluate(() => {
          const read = el => {
            const style = getComputedStyle(el);
            const coords = getComputedStyle(el.parentElement);
            const rgba = style.color.match(/[\d.]+/g).map(Number);
            const box = el.getBoundingClientRect();
            return { text: el.textContent, size: Number.parseFloat(style.fontSize), rgba, opacity: Number(coords.opacity), box: { x: box.x, y: box.y, w: box.width, h: box.height } };
          };
          const ranks = [...document.querySelectorAll('[data-testid=board] coords.ranks coord')];
          const files = [...document.querySelectorAll('[data-testid=board] coords.files coord')];
          const board = document.querySelector('[data-testid=board] cg-board').getBoundingClientRect();
          return { ranks: ranks.map(read), files: files.map(read), board: { x: board.x, y: board.y, w: board.width } };
        });
        const square = labels.board.w / 8;
        // The labels stand on a1 (dark), a2 (light) and b1 (light). The two square colours are
        // read on a3 (dark) and a4 (light), which are empty: on a1 and a2 a piece's outline can
        // reach any point a label leaves free, depending on how the board's width rounds.
        const at = (file, rank) => pixel(page, labels.board.x + (file + 0.5) * square, labels.board.y + (7 - rank + 0.5) * square);
        const dark = await at(0, 2);
        const light = await at(0, 3);
        assert.ok(contrast(dark, light) > 1.2, `two square colours read: ${dark} ${light}`);
        for (const label of [...labels.ranks, ...labels.files]) {
          assert.ok(label.size >= 12, `'${label.text}' is ${label.size}px`);
          const [r, g, b, alpha = 1] = label.rgba;
          const a = alpha * label.opacity;
          for (const bg of [dark, light]) {
            const seen = [r, g, b].map((v, i) => v * a + bg[i] * (1 - a));
            const ratio = contrast(seen, bg);
            assert.ok(ratio >= 4.5, `'${label.text}' on ${bg}: contrast ${ratio.toFixed(2)}`);
          }
        }
        await shot(page, `defects-coords-${name}`);
      } finally {
        await page.close();
      }
    });
  }
});

describe('7. the projector fits one screen', () => {
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
    { width: 1366, height: 900 },
  ]) {
    test(`with the steps shown, at ${size.width}×${size.height}`, async () => {
      const page = await pageAt(size);
      try {
        await page.goto('/projector');
        await page.locator('.projector-page select').selectOption('cards'); // the longest steps
        await page.locator('[data-testid=draw-next]').click();
        await page.locator('.projector-steps li').first().waitFor({ state: 'attached' });
        await page.keyboard.press('s');
        await page.locator('.projector-steps li').first().waitFor();
        await page.waitForTimeout(200);
        const fit = await page.evaluate(() => {
          const rect = sel => document.querySelector(sel).getBoundingClientRect();
          return {
            scroll: document.documentElement.scrollHeight,
            height: window.innerHeight,
            controls: rect('.projector-controls').bottom,
            board: rect('.projector-board').bottom,
            number: rect('[data-testid=projector-number]').bottom,
            steps: rect('.projector-steps').bottom,
          };
        });
        assert.ok(fit.scroll <= fit.height, `the page is ${fit.scroll}px high on a ${fit.height}px screen`);
        for (const part of ['controls', 'board', 'number', 'steps']) {
          assert.ok(fit[part] <= fit.height, `${part} ends at ${fit[part]}, below the fold (${fit.height})`);
        }
        await shot(page, `defects-projector-${size.width}x${size.height}`);
      } finally {
        await page.close();
      }
    });
  }
});

describe('10. wording, time controls, PGN file names', () => {
  test('a set-up start is said properly, a 12-second clock is 12s+0, the PGN is named by players, date and start', async () => {
    const setUp = await env.api('POST', '/api/games', {
      start: { fen: '4k3/8/8/8/8/8/8/4K2R w K - 0 1' },
      level: { depth: 1 },
      time_control: { initial_ms: 12_000, increment_ms: 0 },
      study_ms: 600_000,
    });
    const page = await pageAt(DESKTOP);
    try {
      await page.goto(`/game/${setUp.key}`);
      const banner = page.locator('[data-testid=start-banner]');
      await banner.locator('.start-label').waitFor();
      assert.equal((await banner.textContent()).trim(), 'Start position: a set-up position, not one of the 960 Chess960 starts');
      assert.match(await page.locator('dl.info').textContent(), /Time control12s\+0/);

      const game = await env.api('POST', '/api/games', {
        start: { id: 350 },
        name: 'Alice Zoë',
        level: { depth: 1 },
        time_control: { initial_ms: 30_000, increment_ms: 2_000 },
        study_ms: 600_000,
      });
      await takeSeat(page, game);
      await page.goto(`/game/${game.key}`);
      await page.locator('dl.info', { hasText: '½+2' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download-pgn]').click()]);
      assert.match(download.suggestedFilename(), /^Alice-Zo-vs-chess960-engine-depth-1_\d{4}-\d\d-\d\d_SP350\.pgn$/);
      await shot(page, 'defects-wording-game');

      // The new-game page writes its clocks the same way.
      await freshHome(page);
      const options = await page.locator('[data-testid=clock] option').allTextContents();
      assert.ok(options.includes('3+2 (minutes + seconds)'), options.join(' | '));
    } finally {
      await page.close();
    }
  });
});

describe('/?start=<id>', () => {
  test('pre-fills the new-game form with that start, also from the positions page', async () => {
    const page = await pageAt(DESKTOP);
    try {
      await freshHome(page, '/?start=123');
      assert.equal(await page.locator('[data-testid=id]').inputValue(), '123');
      assert.equal(await page.locator('[data-testid=start-id]').isChecked(), true);
      await page.locator('[data-testid=preview-label]', { hasText: '#123' }).waitFor();

      await page.goto('/positions');
      await page.locator('[data-testid=position-search]').fill('777');
      await page.locator('[data-testid=positions] li[data-id="777"] a', { hasText: 'Play' }).click();
      await page.waitForURL(/\/\?start=777$/);
      assert.equal(await page.locator('[data-testid=id]').inputValue(), '777');
      await page.locator('[data-testid=preview-label]', { hasText: '#777' }).waitFor();
    } finally {
      await page.close();
    }
  });
});

test('screenshots of every page at both sizes', async () => {
  const view = await env.api('POST', '/api/games', { start: { id: 350 }, level: { depth: 1 }, study_ms: 600_000 });
  for (const [name, size] of [
    ['1366', DESKTOP],
    ['phone', PHONE],
  ]) {
    const page = await pageAt(size);
    try {
      for (const [pageName, path] of [
        ['home', '/'],
        ['positions', '/positions'],
        ['projector', '/projector'],
        ['game', `/game/${view.key}`],
      ]) {
        await page.goto(path);
        await page.waitForTimeout(600);
        await shot(page, `defects-page-${pageName}-${name}`);
      }
    } finally {
      await page.close();
    }
  }
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
