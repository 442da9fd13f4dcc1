// The new-game page (/): start position, colour, level, time control, study time; or a PGN /
// FEN to continue from. The last choices are remembered in localStorage. A logged-in player
// plays under their account's name, and may make a challenge rated.

import { loginHref, onAccount } from '../account';
import { api, describeError } from '../api';
import { startLabel, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { DRAW_METHODS, drawMethodLabel, randomSeed } from '../drawMethods';
import { formatTimeControl } from '../timeControl';
import type { Navigate, Page } from '../page';
import type { DrawnPosition, NewGame } from '../types';
import { MAX_NAME, playerName, setPlayerName } from '../playerName';
import { lobbyPanel } from './lobby';
import { miniBoard } from './miniBoard';

const SETTINGS_KEY = 'chess960.newGame';

type StartKind = 'id' | 'random' | 'random-not-518' | 'draw' | 'import' | 'chosen';

interface Settings {
  startKind: StartKind;
  id: number;
  method: string;
  color: 'white' | 'black' | 'random';
  /** The engine, or a friend who joins by the game's link. */
  opponent: 'engine' | 'human' | 'hotseat';
  /** At one device: the other player's name. */
  opponentName?: string;
  /** A challenge listed in the lobby. */
  listed?: boolean;
  /** A rated challenge (logged in, with a clock, from a Chess960 start). */
  rated?: boolean;
  levelKind: 'elo' | 'depth';
  elo: number;
  depth: number;
  clock: string; // "none", "5+3", … or "custom"
  minutes: number;
  increment: number;
  studySeconds: number;
}

const DEFAULTS: Settings = {
  startKind: 'random-not-518',
  id: 518,
  method: 'die',
  color: 'white',
  opponent: 'engine',
  levelKind: 'elo',
  elo: 1500,
  depth: 4,
  clock: '10+5',
  minutes: 10,
  increment: 5,
  studySeconds: 0,
};

const CLOCKS = ['none', '1+0', '3+2', '5+3', '10+5', '15+10', '30+20', 'custom'];

/** A clock choice "3+2" (minutes + seconds) as the UI writes time controls everywhere. */
function clockLabel(value: string): string {
  const [minutes = 0, increment = 0] = value.split('+').map(Number);
  return formatTimeControl({ initial_ms: minutes * 60_000, increment_ms: increment * 1000 });
}

function loadSettings(): Settings {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}');
    return { ...DEFAULTS, ...(stored && typeof stored === 'object' ? (stored as Partial<Settings>) : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

/** The start number of `/?start=<id>` (a link from a position's page), 960 read as 0. */
function startFromAddress(): number | null {
  const text = new URLSearchParams(location.search).get('start');
  if (text === null || !/^\s*\d{1,4}\s*$/.test(text)) return null;
  const n = Number.parseInt(text, 10);
  return n >= 0 && n <= 960 ? n % 960 : null;
}

/** A FEN is one line of eight ranks and a side to move; anything else is taken for PGN. */
export function looksLikeFen(text: string): boolean {
  return /^\s*([1-8pnbrqkPNBRQK]+\/){7}[1-8pnbrqkPNBRQK]+\s+[wb](\s|$)/.test(text) && !text.trim().includes('\n');
}

export function newGamePage(navigate: Navigate): Page {
  const settings = loadSettings();
  const lobby = lobbyPanel(navigate);
  const asked = startFromAddress();
  if (asked !== null) {
    settings.startKind = 'id';
    settings.id = asked;
  }
  // The position drawn by hand and shown: Play starts exactly this one, with its draw.
  let drawn: DrawnPosition | null = null;
  const preview = miniBoard('preview', 'Preview of the start position');
  const previewLabel = h('p', { class: 'preview-label', 'data-testid': 'preview-label' });
  const message = h('p', { class: 'message', role: 'alert', 'data-testid': 'message' });
  const steps = h('ol', { class: 'draw-steps', 'data-testid': 'draw-steps' });

  const radio = (name: string, value: string, checked: boolean, label: string): HTMLLabelElement =>
    h('label', { class: 'radio' }, h('input', { type: 'radio', name, value, checked, 'data-testid': `${name}-${value}` }), ' ', label);
  const number = (name: string, value: number, min: number, max: number, attrs: Record<string, string> = {}): HTMLInputElement =>
    h('input', { type: 'number', name, value, min, max, step: 1, inputmode: 'numeric', 'data-testid': name, ...attrs });

  // 960 is 0 in the 1..960 numbering, as the CLI and the API take it.
  const idInput = number('id', settings.id, 0, 960, { 'aria-label': 'Start position number (0 to 959; 960 is 0)' });
  const methodSelect = h(
    'select',
    { name: 'method', 'aria-label': 'Drawing method', 'data-testid': 'method' },
    DRAW_METHODS.map(m => h('option', { value: m.value, selected: m.value === settings.method }, m.label)),
  );
  const importText = h('textarea', {
    name: 'import',
    rows: 5,
    placeholder: 'Paste a PGN (the game goes on from its last move) or a FEN',
    'aria-label': 'PGN or FEN to continue from',
    'data-testid': 'import',
  });

  const drawNow = async (): Promise<void> => {
    message.textContent = '';
    const radioDraw = form.querySelector<HTMLInputElement>('input[name="start"][value="draw"]');
    if (radioDraw) radioDraw.checked = true;
    clearDrawn();
    try {
      drawn = await api.draw(methodSelect.value, randomSeed());
      fill(steps, drawn.steps.map(step => h('li', {}, step)));
      refresh();
    } catch (error) {
      message.textContent = describeError(error);
    }
  };
  /** Forgets the drawn position and its steps (another method was chosen). */
  const clearDrawn = (): void => {
    drawn = null;
    fill(steps);
  };

  const startFieldset = h(
    'fieldset',
    { class: 'start' },
    h('legend', {}, 'Start position'),
    h(
      'div',
      { class: 'option' },
      radio('start', 'id', settings.startKind === 'id', 'Number'),
      ' ',
      idInput,
      h('span', { class: 'muted' }, ' 0 to 959 (960 = 0)'),
    ),
    h('div', { class: 'option' }, radio('start', 'random', settings.startKind === 'random', 'Random (any of the 960)')),
    h(
      'div',
      { class: 'option' },
      radio('start', 'random-not-518', settings.startKind === 'random-not-518', 'Random, but not the classical start (518)'),
    ),
    h(
      'div',
      { class: 'option people-only' },
      radio('start', 'chosen', settings.startKind === 'chosen', 'Placed by both players in turn, Black first (Northam), once the game begins'),
    ),
    h(
      'div',
      { class: 'option' },
      radio('start', 'draw', settings.startKind === 'draw', 'Drawn by hand:'),
      ' ',
      methodSelect,
      ' ',
      h('button', { type: 'button', 'data-testid': 'draw', onclick: () => void drawNow() }, 'Draw'),
      steps,
    ),
    h('div', { class: 'option' }, radio('start', 'import', settings.startKind === 'import', 'Continue from a PGN or FEN'), importText),
  );

  // The range comes from the server (GET /api/levels), which knows what the engine is
  // calibrated for; until it answers the input takes what the server will check anyway. The
  // browser counts steps from `min`, so the step must divide the calibrated minimum (1110)
  // and the default (1500), or the form would refuse to submit.
  const eloInput = number('elo', settings.elo, 0, 9999, { step: '10', 'aria-label': 'Engine Elo' });
  const eloRange = h('span', { class: 'muted', 'data-testid': 'elo-range' });
  void api
    .levels()
    .then(levels => {
      const { min, max } = levels.elo;
      eloInput.min = String(min);
      eloInput.max = String(max);
      const elo = Number.parseInt(eloInput.value, 10);
      if (!Number.isInteger(elo) || elo < min || elo > max) eloInput.value = String(Math.min(Math.max(elo || min, min), max));
      eloRange.textContent = ` ${min}–${max}, on the scale of Stockfish's UCI_Elo`;
    })
    .catch(() => undefined);
  const depthInput = number('depth', settings.depth, 1, 30, { 'aria-label': 'Engine search depth' });
  const clockSelect = h(
    'select',
    { name: 'clock', 'aria-label': 'Time control', 'data-testid': 'clock' },
    CLOCKS.map(value =>
      h('option', { value, selected: value === settings.clock }, value === 'none' ? 'No clock' : value === 'custom' ? 'Custom…' : `${clockLabel(value)} (minutes + seconds)`),
    ),
  );
  const minutesInput = number('minutes', settings.minutes, 0, 600, { step: 'any', 'aria-label': 'Minutes per player' });
  const incrementInput = number('increment', settings.increment, 0, 600, { 'aria-label': 'Increment in seconds' });
  const customClock = h('span', { class: 'custom-clock' }, minutesInput, ' min + ', incrementInput, ' s');
  const studyInput = number('study', settings.studySeconds, 0, 3600, { 'aria-label': 'Study time in seconds' });
  // Set once, remembered in this browser (playerName.ts).
  const nameInput = h('input', {
    type: 'text',
    name: 'name',
    value: playerName(),
    maxlength: MAX_NAME,
    placeholder: 'Player',
    autocomplete: 'nickname',
    'aria-label': 'Your name',
    'data-testid': 'player-name',
  });

  // Logged in, the player is named by their account (shown instead of the name box).
  const accountName = h('strong', { class: 'account-name', 'data-testid': 'account-name', hidden: true });

  const opponentNameInput = h('input', {
    type: 'text',
    name: 'opponent-name',
    value: settings.opponentName ?? '',
    maxlength: MAX_NAME,
    placeholder: 'Player 2',
    'aria-label': 'The other player\'s name',
    'data-testid': 'opponent-name',
  });

  // Rated: only a challenge between two logged-in players, with a clock, from a Chess960 start
  // (the server's rules); the box says why it cannot be ticked now.
  const ratedBox = h('input', { type: 'checkbox', name: 'rated', checked: settings.rated ?? false, 'data-testid': 'rated', 'aria-describedby': 'rated-hint' });
  const ratedHint = h('span', { class: 'muted hint', id: 'rated-hint', 'data-testid': 'rated-hint' });
  /** The account logged in (`undefined` until the server says). */
  let user: string | null | undefined;

  const form = h(
    'form',
    { class: 'new-game', novalidate: true, onsubmit: (event: Event) => void submit(event) },
    startFieldset,
    h(
      'fieldset',
      {},
      h('legend', {}, 'You play'),
      h('div', { class: 'option' }, h('label', {}, 'Your name ', nameInput, accountName)),
      radio('color', 'white', settings.color === 'white', 'White'),
      radio('color', 'black', settings.color === 'black', 'Black'),
      radio('color', 'random', settings.color === 'random', 'Random'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Opponent'),
      radio('opponent', 'engine', settings.opponent === 'engine', 'The engine'),
      radio('opponent', 'human', settings.opponent === 'human', 'A friend: you get a link to send them'),
      radio('opponent', 'hotseat', settings.opponent === 'hotseat', 'Someone here: take turns on this screen'),
      h('div', { class: 'option hotseat-only' }, h('label', {}, 'Their name ', opponentNameInput)),
      h(
        'div',
        { class: 'option human-only' },
        h(
          'label',
          {},
          h('input', { type: 'checkbox', name: 'listed', checked: settings.listed ?? false, 'data-testid': 'lobby-listed' }),
          ' List it in the lobby too: anyone may accept it while you wait on its page',
        ),
      ),
      h('div', { class: 'option human-only' }, h('label', {}, ratedBox, ' Rated: the result changes both players’ ratings'), ' ', ratedHint),
    ),
    h(
      'fieldset',
      { class: 'engine-only' },
      h('legend', {}, 'Engine level'),
      h('div', { class: 'option' }, radio('level', 'elo', settings.levelKind === 'elo', 'Elo'), ' ', eloInput, eloRange),
      h('div', { class: 'option' }, radio('level', 'depth', settings.levelKind === 'depth', 'Fixed depth'), ' ', depthInput),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Time'),
      h('div', { class: 'option' }, h('label', {}, 'Time control ', clockSelect), ' ', customClock),
      h('div', { class: 'option engine-only' }, h('label', {}, 'Study time before the clock starts ', studyInput, ' s')),
    ),
    message,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'start-game' }, 'Play'),
  );

  const value = (name: string): string =>
    form.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value ?? '';

  function showPreview(id: number, backRank: string): void {
    fill(previewLabel, startLabel(id, backRank));
    preview.show(startPlacement(backRank));
  }

  async function previewNumber(): Promise<void> {
    const id = Number.parseInt(idInput.value, 10);
    if (!Number.isInteger(id) || id < 0 || id > 960) {
      fill(previewLabel, 'Enter a number from 0 to 959 (960 counts as 0).');
      return;
    }
    try {
      const position = await api.position(id);
      showPreview(position.id, position.back_rank);
    } catch (error) {
      fill(previewLabel, describeError(error));
    }
  }

  /** Why the game cannot be rated as the form stands, or null when it can. */
  function whyNotRated(): (Node | string)[] | null {
    if (user === undefined) return ['Checking whether you are logged in…'];
    if (user === null) return [h('a', { href: loginHref('/') }, 'Log in'), ' to play rated games: guests play casual ones.'];
    const clock = clockSelect.value;
    if (clock === 'none' || (clock === 'custom' && !(Number.parseFloat(minutesInput.value) > 0))) return ['A rated game needs a clock.'];
    if (value('start') === 'import') return ['A rated game starts from one of the 960 start positions, not from a PGN or FEN.'];
    return null;
  }

  function refreshRated(): void {
    const why = whyNotRated();
    ratedBox.disabled = why !== null;
    ratedBox.title = why === null ? '' : why.map(part => (typeof part === 'string' ? part : part.textContent)).join('');
    fill(ratedHint, why === null ? '' : why);
  }

  function refresh(): void {
    refreshRated();
    customClock.hidden = clockSelect.value !== 'custom';
    // A game between people has no engine level and (for now) no study time.
    for (const part of form.querySelectorAll<HTMLElement>('.engine-only')) part.hidden = value('opponent') !== 'engine';
    for (const part of form.querySelectorAll<HTMLElement>('.hotseat-only')) part.hidden = value('opponent') !== 'hotseat';
    for (const part of form.querySelectorAll<HTMLElement>('.human-only')) part.hidden = value('opponent') !== 'human';
    for (const part of form.querySelectorAll<HTMLElement>('.people-only')) part.hidden = value('opponent') === 'engine';
    const kind = value('start');
    if (kind === 'id') void previewNumber();
    else if (kind === 'draw' && drawn) showPreview(drawn.id, drawn.back_rank);
    else if (kind === 'draw') {
      fill(previewLabel, `Press Draw to draw a position with ${drawMethodLabel(methodSelect.value)}.`);
      preview.show('8/8/8/8/8/8/8/8');
    } else {
      fill(previewLabel, kind === 'import' ? 'The position comes from the PGN or FEN.' : 'The position is drawn when the game starts.');
      preview.show('8/8/8/8/8/8/8/8');
    }
  }

  function readSettings(): Settings {
    return {
      startKind: (value('start') || 'random') as StartKind,
      id: (Number.parseInt(idInput.value, 10) || 0) % 960,
      method: methodSelect.value,
      color: (value('color') || 'white') as Settings['color'],
      opponent: value('opponent') === 'human' ? 'human' : value('opponent') === 'hotseat' ? 'hotseat' : 'engine',
      opponentName: opponentNameInput.value.trim(),
      listed: form.querySelector<HTMLInputElement>('input[name="listed"]')?.checked ?? false,
      rated: ratedBox.checked,
      levelKind: (value('level') || 'elo') as Settings['levelKind'],
      elo: Number.parseInt(eloInput.value, 10) || DEFAULTS.elo,
      depth: Number.parseInt(depthInput.value, 10) || DEFAULTS.depth,
      clock: clockSelect.value,
      minutes: Number.parseFloat(minutesInput.value) || 0,
      increment: Number.parseInt(incrementInput.value, 10) || 0,
      studySeconds: Number.parseInt(studyInput.value, 10) || 0,
    };
  }

  /** The start of the new game; `null` when a position was drawn now and must be seen first. */
  async function startSpec(s: Settings): Promise<Pick<NewGame, 'start' | 'drawn'> | null> {
    switch (s.startKind) {
      case 'id':
        return { start: { id: s.id } };
      case 'random':
        return { start: { random: true, exclude_classical: false } };
      case 'random-not-518':
        return { start: { random: true, exclude_classical: true } };
      case 'draw': {
        // Never start a position nobody has seen: draw it, show it, and let Play start it.
        if (!drawn || drawn.method !== s.method) {
          await drawNow();
          if (drawn) message.textContent = 'Here is the drawn position: press Play to start it.';
          return null;
        }
        const draw = drawn.seed === undefined ? null : { method: drawn.method, seed: drawn.seed };
        return { start: { id: drawn.id }, drawn: draw ?? undefined };
      }
      case 'chosen':
        if (s.opponent === 'engine') throw new Error('The engine does not place pieces: choose another start, or play a person.');
        return { start: { chosen: true } };
      case 'import': {
        const text = importText.value.trim();
        if (!text) throw new Error('Paste a PGN or a FEN first.');
        return { start: looksLikeFen(text) ? { fen: text } : { pgn: text } };
      }
    }
  }

  /** The inputs that belong to the options chosen now: only these are checked. */
  function chosenInputs(): HTMLInputElement[] {
    const inputs: HTMLInputElement[] = [];
    if (value('start') === 'id') inputs.push(idInput);
    const engine = value('opponent') === 'engine';
    if (engine) inputs.push(value('level') === 'depth' ? depthInput : eloInput);
    if (clockSelect.value === 'custom') inputs.push(minutesInput, incrementInput);
    if (engine) inputs.push(studyInput);
    return inputs;
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    message.textContent = '';
    // The form is not validated by the browser as a whole (a hidden, unchosen field must not
    // block Play): each chosen field is, and says what is wrong where it is.
    for (const input of chosenInputs()) {
      if (!input.reportValidity()) return;
    }
    const s = readSettings();
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
    // A logged-in player's name is their account's: the guest's name stays as it was.
    if (!user) setPlayerName(nameInput.value);
    const rated = s.opponent === 'human' && s.rated === true && !ratedBox.disabled;
    try {
      const clock = s.clock === 'custom' ? `${s.minutes}+${s.increment}` : s.clock;
      const [minutes, increment] = clock.split('+').map(Number);
      const start = await startSpec(s);
      if (!start) return;
      const engine = s.opponent === 'engine';
      const spec: NewGame = {
        ...start,
        color: s.color,
        ...(engine
          ? {
              opponent: 'engine' as const,
              level: s.levelKind === 'elo' ? { elo: s.elo } : { depth: s.depth },
              study_ms: s.studySeconds * 1000,
            }
          : s.opponent === 'hotseat'
            ? { opponent: 'hotseat' as const, opponent_name: s.opponentName || undefined }
            : { opponent: 'human' as const, ...(s.listed ? { lobby: true } : {}), ...(rated ? { rated: true } : {}) }),
        time_control:
          clock === 'none' || minutes === undefined || increment === undefined
            ? null
            : { initial_ms: Math.round(minutes * 60_000), increment_ms: increment * 1000 },
        name: user ? undefined : playerName() || undefined,
      };
      const view = await api.newGame(spec, { startKind: s.startKind, method: s.method });
      navigate(`/game/${view.key}`);
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  form.addEventListener('change', refresh);
  // Another method: the drawn position is not one of its draws, so it and its steps go.
  methodSelect.addEventListener('change', () => {
    if (drawn && drawn.method !== methodSelect.value) clearDrawn();
  });
  idInput.addEventListener('input', () => {
    const radioId = form.querySelector<HTMLInputElement>('input[name="start"][value="id"]');
    if (radioId) radioId.checked = true;
    refresh();
  });
  importText.addEventListener('input', () => {
    const radioImport = form.querySelector<HTMLInputElement>('input[name="start"][value="import"]');
    if (radioImport) radioImport.checked = true;
  });

  const el = h(
    'section',
    { class: 'home-page' },
    h('h1', {}, 'New game'),
    // The lobby beside the form, under the preview: challenges coming and going never move the
    // form under the pointer.
    h('div', { class: 'home-columns' }, form, h('div', { class: 'preview-column' }, previewLabel, preview.el, lobby.el)),
  );
  requestAnimationFrame(refresh);
  clockSelect.addEventListener('change', refreshRated);
  minutesInput.addEventListener('input', refreshRated);
  const stopAccount = onAccount(a => {
    user = a.user?.name ?? null;
    // Logged in, the server names the player by their account.
    nameInput.hidden = user !== null;
    accountName.hidden = user === null;
    fill(accountName, user ?? '', user ? h('span', { class: 'muted' }, ' (your account)') : '');
    refreshRated();
  });
  return {
    el,
    title: 'New game',
    dispose: () => {
      stopAccount();
      preview.destroy();
      lobby.dispose();
    },
  };
}
