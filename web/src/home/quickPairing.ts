// Quick pairing, as lichess's home page leads with: a grid of common time controls that starts a
// game at once, against a person or the engine. Against a person a click takes the oldest open
// lobby challenge with that clock (not one's own, not rated for a guest, in one's rating range),
// else opens one in the lobby from a random Chess960 start and waits on its page; against the
// engine it starts the game at the level chosen. The full form stays one click away.

import { account, knownUser } from '../account';
import { ApiError, api, describeError } from '../api';
import { h } from '../dom';
import { seatOf } from '../seats';
import { formatTimeControl } from '../timeControl';
import type { LevelJson } from '../generated/api';
import { type LobbyEntry, inRange, loadRange } from './lobby';

/** The grid's clocks, minutes + seconds of increment, in lichess's order. */
export const QUICK_CLOCKS: readonly [number, number][] = [
  [1, 0],
  [2, 1],
  [3, 0],
  [3, 2],
  [5, 0],
  [5, 3],
  [10, 0],
  [10, 5],
  [15, 10],
  [30, 0],
  [30, 20],
];

type Opponent = 'human' | 'engine';

const KEY = 'chess960.quick';

interface QuickChoice {
  opponent: Opponent;
  rated: boolean;
}

function loadChoice(): QuickChoice {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<QuickChoice>;
    return { opponent: saved.opponent === 'engine' ? 'engine' : 'human', rated: saved.rated === true };
  } catch {
    return { opponent: 'human', rated: false };
  }
}

/** The speed class of a clock, by lichess's estimate (initial + 40 × increment seconds). */
export function speedOf(minutes: number, increment: number): string {
  const estimate = minutes * 60 + 40 * increment;
  if (estimate < 180) return 'Bullet';
  if (estimate < 480) return 'Blitz';
  if (estimate < 1500) return 'Rapid';
  return 'Classical';
}

/**
 * The quick-pairing panel. `level` gives the engine's level from the full form (its choice is
 * kept there); `navigate` opens the game.
 */
export function quickPairing(navigate: (path: string) => void, level: () => LevelJson | undefined): HTMLElement {
  const choice = loadChoice();
  const note = h('p', { class: 'quick-note', 'aria-live': 'polite', 'data-testid': 'quick-note' });
  const save = (): void => {
    try {
      localStorage.setItem(KEY, JSON.stringify(choice));
    } catch {
      // storage refused: the choice holds for this page
    }
  };
  let busy = false;

  const ratedBox = h('input', {
    type: 'checkbox',
    'data-testid': 'quick-rated',
    checked: choice.rated,
    onchange: (e: Event) => {
      choice.rated = (e.target as HTMLInputElement).checked;
      save();
    },
  });
  const ratedLabel = h('label', { class: 'quick-rated', title: 'Rated games are between two logged-in players' }, ratedBox, ' Rated');
  const showRated = (): void => {
    ratedLabel.hidden = choice.opponent !== 'human' || !knownUser();
  };

  const opponentSwitch = h(
    'div',
    { class: 'quick-opponent', role: 'radiogroup', 'aria-label': 'Opponent' },
    (['human', 'engine'] as const).map(value =>
      h(
        'label',
        {},
        h('input', {
          type: 'radio',
          name: 'quick-opponent',
          value,
          'data-testid': `quick-${value}`,
          checked: choice.opponent === value,
          onchange: () => {
            choice.opponent = value;
            save();
            showRated();
          },
        }),
        value === 'human' ? ' A person' : ' The engine',
      ),
    ),
    ratedLabel,
  );

  /** The oldest open challenge with this clock that this player may take. */
  const match = async (initial_ms: number, increment_ms: number): Promise<LobbyEntry | undefined> => {
    const lobby = await api.lobby();
    const me = knownUser()?.name?.toLowerCase();
    const range = loadRange();
    return lobby.challenges
      .filter(
        c =>
          c.time_control?.initial_ms === initial_ms &&
          c.time_control?.increment_ms === increment_ms &&
          c.rated === (choice.rated && !!me) &&
          seatOf(c.key) === undefined &&
          (c.account ?? '').toLowerCase() !== me &&
          inRange(c, range),
      )
      .sort((a, b) => a.created_ms - b.created_ms)[0];
  };

  const play = async (minutes: number, increment: number): Promise<void> => {
    if (busy) return;
    busy = true;
    const time_control = { initial_ms: minutes * 60_000, increment_ms: increment * 1000 };
    note.textContent = choice.opponent === 'human' ? `Looking for a ${formatTimeControl(time_control)} game…` : 'Starting…';
    try {
      if (choice.opponent === 'engine') {
        const view = await api.newGame({ opponent: 'engine', start: { random: true, exclude_classical: false }, color: 'random', time_control, level: level() });
        navigate(`/game/${view.key}`);
        return;
      }
      await account().catch(() => null);
      const rated = choice.rated && !!knownUser();
      const open = await match(time_control.initial_ms, time_control.increment_ms);
      if (open) {
        try {
          await api.join(open.key);
          navigate(`/game/${open.key}`);
          return;
        } catch (error) {
          // Someone else took it first: open our own instead.
          if (!(error instanceof ApiError) || error.status !== 409) throw error;
        }
      }
      const view = await api.newGame({ opponent: 'human', lobby: true, rated, start: { random: true, exclude_classical: false }, color: 'random', time_control });
      navigate(`/game/${view.key}`);
    } catch (error) {
      note.textContent = describeError(error);
    } finally {
      busy = false;
    }
  };

  const grid = h(
    'div',
    { class: 'quick-grid', 'data-testid': 'quick-grid' },
    QUICK_CLOCKS.map(([minutes, increment]) =>
      h(
        'button',
        {
          type: 'button',
          class: 'quick-tile',
          'data-testid': `quick-${minutes}+${increment}`,
          onclick: () => void play(minutes, increment),
        },
        h('span', { class: 'quick-clock' }, `${minutes}+${increment}`),
        h('span', { class: 'quick-speed' }, speedOf(minutes, increment)),
      ),
    ),
    h(
      'a',
      { class: 'quick-tile quick-custom', href: '#new-game', 'data-testid': 'quick-custom' },
      h('span', { class: 'quick-clock' }, 'Custom'),
      h('span', { class: 'quick-speed' }, 'every option'),
    ),
  );
  showRated();
  // The rated box appears once the server says who is logged in.
  void account()
    .then(showRated)
    .catch(() => undefined);
  return h('section', { class: 'quick-pairing', 'aria-label': 'Quick pairing', 'data-testid': 'quick-pairing' }, h('div', { class: 'quick-head' }, h('h2', {}, 'Quick pairing'), opponentSwitch), grid, note);
}
