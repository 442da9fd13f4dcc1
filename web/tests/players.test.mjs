// Browser test of players' accounts and ratings (issue 39): Ann and Bob register through the UI
// in browsers of their own; Ann creates a rated 3+2 challenge (the "Rated" box), Bob accepts it
// by its link, they play, Bob resigns, and both pages show the ratings with their change. Ann's
// page shows her blitz rating with its chart, her games and her results per start position; the
// players page lists both. Ann logs in from another browser and moves there in a game of hers
// that is going on (her seat is her account's). A guest cannot tick "Rated" nor accept a rated
// challenge (told to log in), and still plays a casual challenge with another guest.
// Screenshots of each new page at 1366×900 and on a 390×844 phone, with no sideways overflow.
//   cd web && CHESS960_BIN=../target/ci/chess960 node --test --test-concurrency=1 tests/players.test.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { drag, eventually, launchChromium, shot, startServer } from './harness.mjs';

let server;
let browser;
const errors = [];
const PASSWORD = 'a quiet lantern 960';

before(async () => {
  server = await startServer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page in a browser context of its own: its own cookies and local storage. */
async function person(viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ baseURL: server.base, viewport });
  const page = await context.newPage();
  page.on('pageerror', error => errors.push(String(error)));
  page.on('dialog', dialog => void dialog.accept());
  return page;
}

const view = async key => (await fetch(`${server.base}/api/games/${key}`)).json();

async function typeMove(page, san) {
  await page.locator('[data-testid=move-input]').fill(san);
  await page.locator('[data-testid=move-input]').press('Enter');
}

async function register(page, name) {
  await page.goto('/');
  await page.locator('[data-testid=nav-register]').click();
  await page.waitForURL(/\/register$/);
  await page.locator('[data-testid=register-name]').fill(name);
  await page.locator('[data-testid=register-password]').fill(PASSWORD);
  await page.locator('[data-testid=register-submit]').click();
  await page.waitForURL(url => url.pathname === '/');
  await page.locator('[data-testid=nav-user]', { hasText: name }).waitFor();
}

/** A challenge from the new-game form: start 518, `color`, a clock, rated or not. */
async function challenge(page, { clock = '3+2', rated = false, color = 'white', lobby = false, name } = {}) {
  await page.goto('/');
  // Once the account is known, the Rated box says whether it may be ticked.
  await page.locator('[data-testid=nav-user], [data-testid=nav-login]').first().waitFor();
  await page.locator('[data-testid=start-id]').check();
  await page.locator('[data-testid=id]').fill('518');
  await page.locator(`[data-testid=color-${color}]`).check();
  await page.locator('[data-testid=opponent-human]').check();
  await page.locator('[data-testid=clock]').selectOption(clock);
  if (name) await page.locator('[data-testid=player-name]').fill(name);
  const box = page.locator('[data-testid=rated]');
  if (rated) {
    await eventually(async () => !(await box.isDisabled()), 'the Rated box enabled');
    await box.check();
  } else if (await box.isEnabled()) {
    await box.uncheck();
  }
  if (lobby) await page.locator('[data-testid=lobby-listed]').check();
  else await page.locator('[data-testid=lobby-listed]').uncheck();
  await page.locator('[data-testid=start-game]').click();
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  return page.url().split('/').pop();
}

/** Both sizes of a page: the screenshots, and nothing wider than a phone's screen. */
async function shots(page, name) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-wide`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${name}: ${overflow} px wider than a phone`);
  await shot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('two players register, play a rated game, see their ratings change; one plays from a second browser; guests still play', async () => {
  const ann = await person();
  const bob = await person();
  await register(ann, 'ann');
  await register(bob, 'bob');

  // Ann's rated 3+2 challenge; Bob opens its link and accepts it.
  const key = await challenge(ann, { rated: true });
  await ann.locator('[data-testid=game-kind]', { hasText: 'Rated · Blitz' }).waitFor();
  const link = await ann.locator('[data-testid=invite-link]').inputValue();
  assert.equal((await view(key)).rated, 'blitz');
  await bob.goto(link);
  await bob.locator('[data-testid=join]', { hasText: 'Play as Black' }).waitFor();
  assert.equal(await bob.locator('[data-testid=join-name]').isVisible(), false, 'logged in, no name to type');
  await bob.locator('[data-testid=join]').click();
  await bob.locator('[data-testid=status]', { hasText: 'Your opponent is to move' }).waitFor();
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  // The names are the accounts', each with its provisional rating and a link to its page.
  await ann.locator('[data-testid=rating-black]', { hasText: '1500?' }).waitFor();
  assert.match(await ann.locator('[data-testid=name-white]').textContent(), /^ann 1500\? \(you\)$/);
  assert.equal(await ann.locator('[data-testid=name-black] a').getAttribute('href'), '/@/bob');

  await drag(ann, 'e2', 'e4');
  for (const [page, san] of [[bob, 'e5'], [ann, 'Nf3'], [bob, 'Nc6']]) {
    await page.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
    await typeMove(page, san);
  }
  await eventually(async () => (await view(key)).moves.length === 4, 'four moves');
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await bob.locator('[data-testid=resign]').click();
  for (const page of [ann, bob]) {
    await page.locator('[data-testid=status]', { hasText: 'White wins by resignation' }).waitFor();
    await page.locator('[data-testid=rating-white] .rating-change', { hasText: /^\+\d+$/ }).waitFor();
    await page.locator('[data-testid=rating-black] .rating-change', { hasText: /^−\d+$/ }).waitFor();
  }
  const ended = await view(key);
  assert.ok(ended.sides.white.rating.change > 0 && ended.sides.black.rating.change < 0, JSON.stringify(ended.sides));
  await shots(ann, 'players-game-rated');

  // Ann's page: her blitz rating with its chart, the game, her results by start position.
  await ann.locator('[data-testid=nav-user]').click();
  await ann.waitForURL(/\/@\/ann$/);
  const blitz = ann.locator('[data-testid=rating-blitz]');
  await blitz.waitFor();
  assert.equal(await blitz.locator('[data-testid=rating-value]').textContent(), `${1500 + ended.sides.white.rating.change}?`);
  assert.equal(await blitz.locator('svg[data-testid=rating-chart-blitz] path[data-testid=rating-line]').count(), 1);
  await ann.locator(`[data-testid=player-game][data-key="${key}"]`, { hasText: 'won' }).waitFor();
  // Her games narrowed to a result: none where Black won; back to all.
  await ann.locator('[data-testid=player-games-result]').selectOption('0-1');
  await ann.locator('[data-testid=player-games-count]', { hasText: '0 games' }).waitFor();
  await ann.locator('[data-testid=player-games-result]').selectOption('1-0');
  await ann.locator(`[data-testid=player-game][data-key="${key}"]`).waitFor();
  await ann.locator('[data-testid=player-games-start]').fill('7');
  await ann.locator('[data-testid=player-games-start]').dispatchEvent('change');
  await ann.locator('[data-testid=player-games-count]', { hasText: '0 games' }).waitFor();
  await ann.locator('[data-testid=player-games-start]').fill('');
  await ann.locator('[data-testid=player-games-start]').dispatchEvent('change');
  await ann.locator('[data-testid=player-games-result]').selectOption('');
  await ann.locator(`[data-testid=player-game][data-key="${key}"]`).waitFor();
  const row = ann.locator('[data-testid=start-row][data-start="518"]');
  await row.waitFor();
  assert.match(await row.textContent(), /RNBQKBNR/);
  await ann.locator('[data-testid=castling-none]').waitFor();
  await shots(ann, 'players-page');
  // Its start opens the explorer of her games only.
  await row.locator('a').first().click();
  await ann.waitForURL(/\/positions\/518\?account=ann/);
  await ann.locator('[data-testid=explorer-account]', { hasText: 'ann' }).waitFor();
  await ann.locator('[data-testid=explorer-summary]', { hasText: '1 game reached this position' }).waitFor();

  // The players by rating: Ann above Bob in blitz.
  await ann.locator('header nav a', { hasText: 'Players' }).click();
  await ann.waitForURL(/\/players/);
  await ann.locator('[data-testid=tab-blitz][aria-selected=true]').waitFor();
  await eventually(async () => (await ann.locator('[data-testid=leader]').count()) === 2, 'two players rated');
  assert.deepEqual(
    (await ann.locator('[data-testid=leader] a').allTextContents()),
    ['ann', 'bob'],
  );
  await shots(ann, 'players-leaderboard');
  await ann.locator('[data-testid=tab-bullet]').click();
  await ann.locator('[data-testid=leaderboard-empty]').waitFor();

  // Ann's account page: this browser's session, marked.
  await ann.locator('[data-testid=nav-account]').click();
  await ann.locator('[data-testid=session][data-current=true]').waitFor();
  await shots(ann, 'players-account');

  // A second game, going on: Ann from her second browser plays in it by her account alone.
  const second = await challenge(ann, { clock: '5+3' });
  await ann.locator('[data-testid=game-kind]', { hasText: 'Casual' }).waitFor();
  await bob.goto(`/game/${second}`);
  await bob.locator('[data-testid=join]').click();
  await ann.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(ann, 'd4');
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(bob, 'd5');
  await eventually(async () => (await view(second)).moves.length === 2, 'two moves in the second game');
  const ann2 = await person();
  await ann2.goto(`/game/${second}`);
  await ann2.locator('[data-testid=status]', { hasText: 'You are watching' }).waitFor();
  await ann2.locator('[data-testid=nav-login]').click();
  await ann2.waitForURL(url => url.pathname === '/login' && url.searchParams.get('next') === `/game/${second}`);
  await ann2.locator('[data-testid=login-name]').fill('ann');
  await ann2.locator('[data-testid=login-password]').fill('not her password');
  await ann2.locator('[data-testid=login-submit]').click();
  await ann2.locator('[data-testid=message]', { hasText: 'wrong name or password' }).waitFor();
  await shots(ann2, 'players-login');
  await ann2.locator('[data-testid=login-password]').fill(PASSWORD);
  await ann2.locator('[data-testid=login-submit]').click();
  await ann2.waitForURL(new RegExp(`/game/${second}$`));
  await ann2.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  assert.equal(await ann2.evaluate(() => localStorage.getItem('chess960.seats')), null, 'no seat token in the second browser');
  await typeMove(ann2, 'c4');
  await eventually(async () => (await view(second)).moves.length === 3, 'the move from the second browser');
  // Both of Ann's browsers and Bob's follow it.
  await bob.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await ann.locator('[data-testid=moves] button.move', { hasText: 'c4' }).waitFor();
  // Ann's first browser sees two sessions now.
  await ann.goto('/account');
  await eventually(async () => (await ann.locator('[data-testid=session]').count()) === 2, 'two sessions');

  // A guest: no rated box, no rated challenge from the lobby, a casual game with another guest.
  const carl = await person();
  await carl.goto('/');
  await carl.locator('[data-testid=opponent-human]').check();
  await carl.locator('[data-testid=rated-hint]', { hasText: 'Log in' }).waitFor();
  assert.equal(await carl.locator('[data-testid=rated]').isDisabled(), true);
  const listed = await challenge(ann, { rated: true, lobby: true, color: 'black' });
  await carl.goto('/');
  const entry = carl.locator(`[data-testid=lobby-entry][data-key="${listed}"]`);
  await entry.waitFor();
  assert.match(await entry.textContent(), /ann \d+\?/);
  assert.match(await entry.textContent(), /Rated/);
  await shots(carl, 'players-lobby');
  await entry.locator('[data-testid=lobby-accept]').click();
  await carl.locator('[data-testid=lobby-login]').waitFor();
  assert.equal(await carl.locator('[data-testid=lobby-login]').getAttribute('href'), `/login?next=%2Fgame%2F${listed}`);
  // A rating range leaves out challenges of players outside it (and remembers it).
  await carl.locator('[data-testid=lobby-min]').fill('2000');
  await eventually(async () => (await carl.locator(`[data-key="${listed}"]`).count()) === 0, 'the challenge filtered out');
  await carl.reload();
  assert.equal(await carl.locator('[data-testid=lobby-min]').inputValue(), '2000');
  await carl.locator('[data-testid=lobby-min]').fill('');
  await entry.waitFor();
  // On the game's page, the guest is told why and where to log in.
  await carl.goto(`/game/${listed}`);
  await carl.locator('[data-testid=rated-login]').waitFor();
  await carl.locator('[data-testid=join]').click();
  await carl.locator('[data-testid=message] [data-testid=join-login]').waitFor();
  await shots(carl, 'players-rated-guest');
  assert.equal((await view(listed)).status, 'waiting');

  const casual = await challenge(carl, { clock: '5+3', name: 'Carl' });
  await carl.locator('[data-testid=game-kind]', { hasText: 'Casual' }).waitFor();
  const dora = await person();
  await dora.goto(`/game/${casual}`);
  await dora.locator('[data-testid=join-name]').fill('Dora');
  await dora.locator('[data-testid=join]').click();
  await carl.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(carl, 'e4');
  await dora.locator('[data-testid=status]', { hasText: 'Your move' }).waitFor();
  await typeMove(dora, 'c5');
  const played = await eventually(async () => {
    const v = await view(casual);
    return v.moves.length === 2 ? v : null;
  }, 'the guests played');
  assert.deepEqual([played.white, played.black, played.rated], ['Carl', 'Dora', null]);
  assert.equal(played.sides.white.account, undefined);

  // Logging out: a guest again.
  await ann.locator('[data-testid=nav-account]').click();
  await ann.locator('[data-testid=logout]').click();
  await ann.locator('[data-testid=nav-login]').waitFor();
  assert.deepEqual(errors, []);
});

test('registration pages: an invitation code where asked, closed where closed; an unknown player', async () => {
  const page = await person();
  await page.goto('/@/nobody');
  await page.locator('h1', { hasText: 'No such player' }).waitFor();
  await shots(page, 'players-unknown');
  await page.goto('/register?next=/players');
  await page.locator('[data-testid=register-name]').fill('x');
  await page.locator('[data-testid=register-password]').fill(PASSWORD);
  // The browser checks the name's form before the server is asked.
  await page.locator('[data-testid=register-submit]').click();
  assert.equal(await page.locator('[data-testid=register-name]').evaluate(el => el.validity.valid), false);
  await page.locator('[data-testid=register-name]').fill('carol');
  await page.locator('[data-testid=register-password]').fill('password');
  await page.locator('[data-testid=register-submit]').click();
  await page.locator('[data-testid=message]', { hasText: /password/i }).waitFor();
  await shots(page, 'players-register');
  assert.deepEqual(errors, []);

  for (const [mode, testid] of [
    ['invite', 'invite-note'],
    ['closed', 'registration-closed'],
  ]) {
    const other = await startServer(['--registration', mode]);
    try {
      const context = await browser.newContext({ baseURL: other.base, viewport: { width: 1366, height: 900 } });
      const p = await context.newPage();
      p.on('pageerror', error => errors.push(String(error)));
      await p.goto('/register');
      await p.locator(`[data-testid=${testid}]`).waitFor();
      if (mode === 'invite') {
        await p.locator('[data-testid=register-name]').fill('dave');
        await p.locator('[data-testid=register-password]').fill(PASSWORD);
        await p.locator('[data-testid=register-invite]').fill('no-such-code');
        await p.locator('[data-testid=register-submit]').click();
        await p.locator('[data-testid=message]:not(:empty)').waitFor();
      }
      await shots(p, `players-register-${mode}`);
      await context.close();
    } finally {
      await other.close();
    }
  }
  assert.deepEqual(errors, []);
});
