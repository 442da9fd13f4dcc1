// Browser tests of the game flow (issue 14 §2, defects 6 and 8): abort before both sides have
// moved, no clock running before that, rematch with colours swapped and the same start, a new
// game with the same settings, "Analyse this game", the player's name remembered, deleting from
// the games list with a confirmation, the games list on a phone, the declined draw's reason,
// castling-rights marks and the king's castling targets while it is held.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/flow.test.mjs

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, newFenGame, shot, squareCenter, start, takeSeat } from './harness.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

const view = key => env.api('GET', `/api/games/${key}`);

/** A game created from the new-game form (depth 1, 5+3, start `id`), with the name given. */
async function formGame(page, id, { name, color = 'white', clock = '5+3' } = {}) {
  await page.goto('/');
  await page.locator('[data-testid=start-id]').check();
  await page.locator('[data-testid=id]').fill(String(id));
  await page.locator(`[data-testid=color-${color}]`).check();
  await page.locator('[data-testid=level-depth]').check();
  await page.locator('[data-testid=depth]').fill('1');
  await page.locator('[data-testid=clock]').selectOption(clock);
  await page.locator('[data-testid=study]').fill('0');
  if (name !== undefined) await page.locator('[data-testid=player-name]').fill(name);
  await page.locator('[data-testid=start-game]').click();
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  return page.url().split('/').pop();
}

describe('game flow', () => {
  test('no clock runs before both sides move; the game can be aborted until then', async () => {
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    const key = await formGame(page, 518, { name: 'Ada' });
    await page.locator('[data-testid=abort]').waitFor();
    // The clock shows the full time and does not run (the issue saw 9:58 on opening).
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('[data-testid=clock-white]').textContent(), '5:00');
    assert.equal((await view(key)).clocks.running, null);
    await page.locator('[data-testid=status]', { hasText: 'once both sides have moved' }).waitFor();
    await shot(page, 'flow-game-start-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'flow-game-start-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.locator('[data-testid=abort]').click();
    await page.locator('[data-testid=status]', { hasText: 'aborted' }).waitFor();
    const v = await view(key);
    assert.deepEqual([v.status, v.result, v.reason], ['finished', '*', 'aborted']);
    await page.locator('[data-testid=status]', { hasText: 'Game aborted' }).waitFor();
    // Not in the default games list; the filter shows it.
    const list = await env.api('GET', '/api/games');
    assert.ok(!list.games.some(g => g.key === key));
    await page.goto('/games');
    await page.locator('[data-testid=filter-result]').selectOption('aborted');
    await page.locator(`[data-testid=game-row][data-key="${key}"]`).waitFor();
    await page.close();
  });

  test('after the game: rematch with colours swapped from the same start, same settings, analyse', async () => {
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    const key = await formGame(page, 321, { name: 'Ada' });
    // Play one move so that the game is a real one, then resign.
    const first = await view(key);
    const move = first.legal.find(m => !m.castle && !m.promotion);
    await page.evaluate(async ([k, uci]) => {
      const seats = JSON.parse(localStorage.getItem('chess960.seats'));
      await fetch(`/api/games/${k}/moves`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Seat-Token': seats[k] },
        body: JSON.stringify({ move: uci, ply: 0 }),
      });
    }, [key, move.uci]);
    await eventually(async () => (await view(key)).moves.length === 2, 'the engine reply');
    await page.locator('[data-testid=abort]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=resign]').click();
    await page.locator('[data-testid=rematch]').waitFor();
    const analyse = page.locator('[data-testid=analyse-game]');
    assert.equal(await analyse.getAttribute('href'), `/analysis?game=${key}`);
    await shot(page, 'flow-game-over-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'flow-game-over-390');
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.locator('[data-testid=rematch]').click();
    await page.waitForURL(url => /\/game\/[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(key));
    const rematch = await view(page.url().split('/').pop());
    const old = await view(key);
    assert.equal(rematch.start_id, 321);
    assert.equal(rematch.start_fen, old.start_fen);
    assert.equal(rematch.human, 'black');
    assert.equal(rematch.black, 'Ada');
    assert.deepEqual(rematch.level, old.level);
    assert.deepEqual(rematch.time_control, old.time_control);
    // This browser holds the new game's seat: it can play it.
    await page.locator('[data-testid=abort]').waitFor();

    // The same settings from a random start: a new game, random again, the same level and clock.
    const random = await env.newPage();
    await random.goto('/');
    await random.locator('[data-testid=start-random]').check();
    await random.locator('[data-testid=level-depth]').check();
    await random.locator('[data-testid=depth]').fill('2');
    await random.locator('[data-testid=clock]').selectOption('3+2');
    await random.locator('[data-testid=start-game]').click();
    await random.waitForURL(/\/game\/[0-9a-f]{32}$/);
    const randomKey = random.url().split('/').pop();
    await random.locator('[data-testid=abort]').click();
    await random.locator('[data-testid=same-settings]').click();
    await random.waitForURL(url => /\/game\/[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(randomKey));
    const next = await view(random.url().split('/').pop());
    assert.deepEqual(next.level, { depth: 2 });
    assert.deepEqual(next.time_control, { initial_ms: 180000, increment_ms: 2000 });
    await random.close();
    await page.close();
  });

  test('the player name is set once and remembered', async () => {
    const page = await env.newPage();
    const key = await formGame(page, 7, { name: 'Grace Hopper' });
    assert.equal((await view(key)).white, 'Grace Hopper');
    await page.goto('/');
    assert.equal(await page.locator('[data-testid=player-name]').inputValue(), 'Grace Hopper');
    const second = await formGame(page, 8, { color: 'black' });
    assert.equal((await view(second)).black, 'Grace Hopper');
    await page.close();
  });

  test('a declined draw offer says why, as the terminal does', async () => {
    const page = await env.newPage();
    const key = await formGame(page, 9);
    await page.locator('[data-testid=offer-draw]').click();
    await page.locator('[data-testid=message]', { hasText: 'no draw before move 31' }).waitFor();
    await page.locator('[data-testid=abort]').click();
    // The click only sends the request: its end shows on the page before the view is read.
    await page.locator('[data-testid=status]', { hasText: 'aborted' }).waitFor();
    assert.equal((await view(key)).reason, 'aborted');
    await page.close();
  });
});

describe('castling on the board', () => {
  test('the rooks that may castle are marked; holding the king highlights both targets', async () => {
    // White: king e1, rooks b1 and g1 (both rights); Black: only the b8 rook keeps its right.
    const game = await newFenGame(env, '1r2k1r1/pppppppp/8/8/8/8/8/1R2K1R1 w GBb - 0 1');
    const page = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await takeSeat(page, game);
    await page.goto(`/game/${game.key}`);
    await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
    const marked = async cls =>
      page.locator('[data-testid=board] cg-board').evaluate(
        // chessground hides squares it no longer uses rather than removing them.
        (board, c) => [...board.querySelectorAll(`square.${c}`)].filter(sq => sq.style.display !== 'none').map(sq => sq.cgKey).sort(),
        cls,
      );
    await eventually(async () => (await marked('castle-right')).length === 3, 'three castling marks');
    assert.deepEqual(await marked('castle-right'), ['b1', 'b8', 'g1']);
    // Hold the king: both castling targets light up at once.
    const king = await squareCenter(page, 'e1');
    await page.mouse.move(king.x, king.y);
    await page.mouse.down();
    await page.mouse.move(king.x + 5, king.y - 5, { steps: 2 });
    const targets = await eventually(async () => {
      const t = await marked('castle-target');
      return t.includes('b1') && t.includes('g1') ? t : null;
    }, 'both castling targets highlighted');
    // The king's destinations (c1, g1) castle too, the rook squares (b1, g1) always.
    assert.deepEqual(targets, ['b1', 'c1', 'g1']);
    await page.mouse.up();
    // Released where it was, the king stays selected: the targets stay; a click elsewhere clears them.
    // (chessground redraws on its next animation frame: wait for it.)
    await eventually(async () => (await marked('castle-target')).join() === 'b1,c1,g1', 'the targets to stay after release');
    // The screenshot only after the release: taken while the king was held, a full-page
    // screenshot sometimes moved the board under the pointer, and chessground then dropped the
    // selection on release (CI failed this test that way; 6 of 6 runs pass since).
    await shot(page, 'flow-castling-targets-1366');
    // A new state from the server (here: the engine declines a draw offer, answered over HTTP
    // and pushed over the socket) keeps them while the king stays selected.
    await page.locator('[data-testid=offer-draw]').click();
    await page.locator('[data-testid=message]', { hasText: 'no draw before move' }).waitFor();
    assert.equal((await marked('castle-target')).join(), 'b1,c1,g1', 'the targets after the answer');
    await page.waitForTimeout(500); // the socket's copy of the same state
    assert.equal((await marked('castle-target')).join(), 'b1,c1,g1', 'the targets after the pushed state');
    const empty = await squareCenter(page, 'd5');
    await page.mouse.click(empty.x, empty.y);
    await eventually(async () => (await marked('castle-target')).length === 0, 'the targets to clear');
    // The king steps: White's marks go, Black's stays.
    await page.locator('[data-testid=move-input]').fill('Kf1');
    await page.locator('[data-testid=move-input]').press('Enter');
    await eventually(async () => (await marked('castle-right')).join() === 'b8', 'only b8 marked');
    await page.close();
  });
});

describe('games list', () => {
  test('date and time, delete with confirmation, and a phone layout without sideways scrolling', async () => {
    const page = await env.newPage();
    const keys = [];
    for (const id of [11, 12]) {
      const key = await formGame(page, id, { name: 'Lister' });
      await page.locator('[data-testid=resign]').click();
      await page.locator('[data-testid=rematch]').waitFor();
      keys.push(key);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/games');
    const row = key => page.locator(`[data-testid=game-row][data-key="${key}"]`);
    await row(keys[0]).waitFor();
    assert.match(await row(keys[0]).locator('[data-testid=game-time]').textContent(), /^\d\d:\d\d$/);
    assert.equal(await row(keys[0]).locator('[data-testid=analyse-game]').getAttribute('href'), `/analysis?game=${keys[0]}`);
    await shot(page, 'flow-games-1366');

    // A phone: every field of a game visible, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await row(keys[0]).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    for (const label of ['Result', 'Reason']) {
      const cell = row(keys[0]).locator(`td[data-label=${label}]`);
      const box = await cell.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${label} is on screen: ${JSON.stringify(box)}`);
    }
    const replay = await row(keys[0]).locator('a', { hasText: 'Replay' }).boundingBox();
    assert.ok(replay && replay.x + replay.width <= 390, 'the Replay link is on screen');
    await shot(page, 'flow-games-390');

    // Delete asks first: dismissed, nothing happens; accepted, the game is gone.
    const dialogs = [];
    page.removeAllListeners('dialog');
    page.once('dialog', dialog => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await row(keys[1]).locator('[data-testid=delete-game]').click();
    await eventually(async () => dialogs.length === 1, 'the confirmation');
    assert.match(dialogs[0], /Delete this game/);
    assert.equal((await view(keys[1])).key, keys[1]);
    page.once('dialog', dialog => void dialog.accept());
    await row(keys[1]).locator('[data-testid=delete-game]').click();
    await row(keys[1]).waitFor({ state: 'detached' });
    await assert.rejects(view(keys[1]), /404/);
    await page.close();
  });
});

test('no script errors on any page', () => {
  assert.deepEqual(env.pageErrors, []);
});
