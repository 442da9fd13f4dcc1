// The new-game page (/): the lobby's open challenges first, then the form: start position,
// opponent, colour, level, time control, study time; or a PGN / FEN to continue from. The last
// choices are remembered in localStorage. A logged-in player plays under their account's name,
// and may make a challenge rated. A position drawn by hand is drawn by the server, or replayed
// from the outcomes a person got at a real board (dice, cards, coins, ...), and shown before
// Play starts exactly that position; on a phone the preview stands right under the draw's steps.

import { loginHref, onAccount } from '../account';
import { api, describeError } from '../api';
import { startLabel, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { DRAW_METHODS, drawFromOutcomes, drawMethod, drawMethodLabel, randomSeed } from '../drawMethods';
import { formatTimeControl } from '../timeControl';
import type { Navigate, Page } from '../page';
import type { DrawnPosition, NewGame } from '../types';
import { MAX_NAME, playerName, setPlayerName } from '../playerName';
import type { LevelJson } from '../generated/api';
import { lobbyPanel } from './lobby';
import { quickPairing } from './quickPairing';
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
  levelKind: 'elo' | 'depth' | 'full';
  elo: number;
  depth: number;
  /** Full strength: the most seconds a move. */
  moveSeconds: number;
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
  moveSeconds: 1,
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

/** The engine's level as the form sets it. */
function levelOf(s: Settings): LevelJson {
  if (s.levelKind === 'depth') return { depth: s.depth };
  if (s.levelKind === 'full') return { full: { movetime_ms: Math.round(s.moveSeconds * 1000) } };
  return { elo: s.elo };
}

export function newGamePage(navigate: Navigate): Page {
  const settings = loadSettings();
  const lobby = lobbyPanel(navigate);
  const asked = startFromAddress();
  if (asked !== null) {
    settings.startKind = 'id';
    settings.id = asked;
  }
  // The position drawn by hand and shown: Play starts exactly this one, with its draw (the
  // seed the server drew it with, or the outcomes a person typed).
  let drawn: (DrawnPosition & { outcomes?: string }) | null = null;
  const preview = miniBoard('preview', 'Preview of the start position');
  const previewLabel = h('p', { class: 'preview-label', 'data-testid': 'preview-label' });
  // The label and board together: beside the form on a wide screen, under the start
  // position's options (and the draw's steps) on a phone.
  const previewBox = h('div', { class: 'preview-box', 'data-testid': 'preview' }, previewLabel, preview.el);
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
  // The outcomes a person got at a real board, replayed by the server as they are typed.
  const outcomesInput = h('input', {
    type: 'text',
    name: 'outcomes',
    maxlength: 1000,
    autocomplete: 'off',
    spellcheck: false,
    'aria-label': 'Outcomes got at the board, in order, separated by commas',
    'aria-describedby': 'outcomes-hint',
    'data-testid': 'outcomes',
  });
  const outcomesHint = h('p', { class: 'muted hint outcomes-hint', id: 'outcomes-hint', 'data-testid': 'outcomes-hint' });
  const importText = h('textarea', {
    name: 'import',
    rows: 5,
    placeholder: 'Paste a PGN (the game goes on from its last move) or a FEN',
    'aria-label': 'PGN or FEN to continue from',
    'data-testid': 'import',
  });

  const chooseDraw = (): void => {
    const radioDraw = form.querySelector<HTMLInputElement>('input[name="start"][value="draw"]');
    if (radioDraw) radioDraw.checked = true;
  };
  /** Shows a drawn position and its steps. */
  const showDrawn = (position: DrawnPosition & { outcomes?: string }): void => {
    drawn = position;
    fill(steps, position.steps.map(step => h('li', {}, step)));
    refresh();
  };
  /** The server draws at random (the outcomes typed, if any, are cleared). */
  const drawNow = async (): Promise<void> => {
    message.textContent = '';
    chooseDraw();
    clearDrawn();
    outcomesInput.value = '';
    describeOutcomes();
    try {
      showDrawn(await api.draw(methodSelect.value, randomSeed()));
    } catch (error) {
      message.textContent = describeError(error);
    }
  };
  /** The outcomes typed, replayed: the position and its steps, or why they do not fit yet. */
  let replaying = 0;
  const replayOutcomes = async (): Promise<void> => {
    const mine = ++replaying;
    const method = methodSelect.value;
    const outcomes = outcomesInput.value.trim();
    clearDrawn();
    refresh();
    if (!outcomes) {
      describeOutcomes();
      return;
    }
    try {
      const position = await drawFromOutcomes(method, outcomes);
      if (mine !== replaying) return;
      describeOutcomes();
      showDrawn({ ...position, outcomes });
    } catch (error) {
      if (mine !== replaying) return;
      outcomesHint.textContent = describeError(error);
      outcomesHint.classList.add('problem');
    }
  };
  let replayTimer: number | undefined;
  const replaySoon = (): void => {
    window.clearTimeout(replayTimer);
    replayTimer = window.setTimeout(() => void replayOutcomes(), 250);
  };
  /** What the outcomes of the chosen method are, under their input. */
  function describeOutcomes(): void {
    const m = drawMethod(methodSelect.value);
    outcomesInput.placeholder = m ? `e.g. ${m.example}` : '';
    outcomesHint.classList.remove('problem');
    outcomesHint.textContent = m ? `Rolled at a real board? Type ${m.outcomes}, in order, separated by commas.` : '';
    showHint();
  }
  /** Forgets the drawn position and its steps (another method was chosen). */
  const clearDrawn = (): void => {
    drawn = null;
    fill(steps);
  };

  // Where the preview stands on a phone: right under the draw's steps.
  const previewSlot = h('div', { class: 'preview-slot' });
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
    h('div', { class: 'option' }, radio('start', 'import', settings.startKind === 'import', 'Continue from a PGN or FEN'), importText),
    h(
      'div',
      { class: 'option draw-option' },
      radio('start', 'draw', settings.startKind === 'draw', 'Drawn by hand:'),
      ' ',
      methodSelect,
      ' ',
      h('button', { type: 'button', 'data-testid': 'draw', title: 'The server rolls for you', onclick: () => void drawNow() }, 'Draw'),
      h('label', { class: 'outcomes' }, h('span', {}, 'or the outcomes you got:'), outcomesInput),
      outcomesHint,
      steps,
    ),
    previewSlot,
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
  // Full strength thinks at most this long a move (and keeps to its clock in a timed game).
  const moveSecondsInput = number('move-seconds', settings.moveSeconds, 0.1, 10, { step: '0.1', 'aria-label': 'Most seconds a move at full strength' });
  void api
    .levels()
    .then(levels => {
      if (!levels.full) return;
      const { min, max } = levels.full.movetime_ms;
      moveSecondsInput.min = String(min / 1000);
      moveSecondsInput.max = String(max / 1000);
    })
    .catch(() => undefined);
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
    { class: 'new-game', id: 'new-game', novalidate: true, onsubmit: (event: Event) => void submit(event) },
    h('div', { class: 'form-grid' }, startFieldset, h('div', { class: 'form-side' }, ...sideFieldsets())),
    h('div', { class: 'form-foot' }, message, h('button', { type: 'submit', class: 'primary', 'data-testid': 'start-game' }, 'Play')),
  );

  /** Opponent, colour, level and time: beside the start position on a wide screen. */
  function sideFieldsets(): HTMLElement[] {
    const opponent = h(
      'fieldset',
      { class: 'opponent' },
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
    );
    const you = h(
      'fieldset',
      {},
      h('legend', {}, 'You play'),
      h('div', { class: 'option' }, h('label', {}, 'Your name ', nameInput, accountName)),
      radio('color', 'white', settings.color === 'white', 'White'),
      radio('color', 'black', settings.color === 'black', 'Black'),
      radio('color', 'random', settings.color === 'random', 'Random'),
    );
    const level = h(
      'fieldset',
      { class: 'engine-only' },
      h('legend', {}, 'Engine level'),
      h('div', { class: 'option' }, radio('level', 'elo', settings.levelKind === 'elo', 'Elo'), ' ', eloInput, eloRange),
      h('div', { class: 'option' }, radio('level', 'depth', settings.levelKind === 'depth', 'Fixed depth'), ' ', depthInput),
      h(
        'div',
        { class: 'option' },
        radio('level', 'full', settings.levelKind === 'full', 'Full strength'),
        ' ',
        h('label', { title: 'The engine with nothing held back: its whole search, at most this long a move; with a clock it also keeps to its clock' }, 'at most ', moveSecondsInput, ' s a move'),
      ),
    );
    const time = h(
      'fieldset',
      {},
      h('legend', {}, 'Time'),
      h('div', { class: 'option' }, h('label', {}, 'Time control ', clockSelect), ' ', customClock),
      h('div', { class: 'option engine-only' }, h('label', {}, 'Study time before the clock starts ', studyInput, ' s')),
    );
    return [opponent, you, level, time];
  }

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
    // The PGN / FEN box only while that start is chosen: it is tall.
    importText.hidden = kind !== 'import';
    // Nothing to show yet: a phone leaves the empty board out.
    previewBox.dataset.empty = String(!(kind === 'id' || (kind === 'draw' && drawn)));
    if (kind === 'id') void previewNumber();
    else if (kind === 'draw' && drawn) showPreview(drawn.id, drawn.back_rank);
    else if (kind === 'draw') {
      fill(previewLabel, `Press Draw to draw a position with ${drawMethodLabel(methodSelect.value)}, or type the outcomes you got at the board.`);
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
      moveSeconds: Number.parseFloat(moveSecondsInput.value) || DEFAULTS.moveSeconds,
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
        // Never start a position nobody has seen: draw it (or replay the outcomes typed), show
        // it, and let Play start it.
        const outcomes = outcomesInput.value.trim();
        if (!drawn || drawn.method !== s.method || (drawn.outcomes ?? '') !== outcomes) {
          window.clearTimeout(replayTimer);
          if (outcomes) await replayOutcomes();
          else await drawNow();
          if (drawn) message.textContent = 'Here is the drawn position: press Play to start it.';
          else if (outcomes) message.textContent = outcomesHint.textContent ?? '';
          return null;
        }
        // The server replays the draw from its seed or its outcomes, and refuses it unless it
        // gives this very position: the game's record of the draw is the server's.
        const draw =
          drawn.outcomes !== undefined
            ? { method: drawn.method, outcomes: drawn.outcomes }
            : drawn.seed === undefined
              ? undefined
              : { method: drawn.method, seed: drawn.seed };
        return { start: { id: drawn.id }, drawn: draw };
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
    if (engine) inputs.push(value('level') === 'depth' ? depthInput : value('level') === 'full' ? moveSecondsInput : eloInput);
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
              level: levelOf(s),
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
  // Another method: the drawn position is not one of its draws, so it and its steps go (the
  // outcomes typed, if any, are replayed as the new method's).
  methodSelect.addEventListener('change', () => {
    describeOutcomes();
    if (drawn && drawn.method !== methodSelect.value) clearDrawn();
    if (outcomesInput.value.trim()) replaySoon();
  });
  outcomesInput.addEventListener('input', () => {
    chooseDraw();
    message.textContent = '';
    showHint();
    replaySoon();
  });
  // What to type shows while the outcomes are typed (the placeholder gives an example before).
  const showHint = (): void => {
    outcomesHint.parentElement?.classList.toggle('typing', document.activeElement === outcomesInput || outcomesInput.value.trim() !== '');
  };
  outcomesInput.addEventListener('focus', showHint);
  outcomesInput.addEventListener('blur', showHint);
  // Enter in the outcomes box shows their position rather than starting the game unseen.
  outcomesInput.addEventListener('keydown', event => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    window.clearTimeout(replayTimer);
    void replayOutcomes();
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

  const previewColumn = h('div', { class: 'preview-column' }, previewBox);
  const el = h(
    'section',
    { class: 'home-page' },
    h('h1', {}, 'New game'),
    // The lobby first, where a player looks for a game; its list scrolls within a bounded
    // height, so challenges coming and going never push the form's Play out of sight.
    quickPairing(navigate, () => levelOf(readSettings())),
    lobby.el,
    h('h2', { class: 'custom-game-head' }, 'Custom game'),
    h('div', { class: 'home-columns' }, form, previewColumn),
  );
  // On a phone the preview goes right under the start position's options (the draw's steps
  // end them), not a screen further down below the whole form.
  const narrow = window.matchMedia('(max-width: 720px)');
  const placePreview = (): void => {
    const home = narrow.matches ? previewSlot : previewColumn;
    if (previewBox.parentElement !== home) {
      home.append(previewBox);
      preview.redraw();
    }
  };
  placePreview();
  narrow.addEventListener('change', placePreview);
  describeOutcomes();
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
      narrow.removeEventListener('change', placePreview);
      window.clearTimeout(replayTimer);
      preview.destroy();
      lobby.dispose();
    },
  };
}
