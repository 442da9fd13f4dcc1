// The player's settings, kept in this browser (localStorage) and applied to every page: the look
// (colour scheme, board, pieces, coordinates), how moves are made, premoves, confirmations and
// sound. Nothing is sent to the server: a guest has them as much as an account.

/** Light or dark pages, or whatever the system asks for. */
export type ColorScheme = 'system' | 'light' | 'dark';
/** The squares' colours. */
export type BoardTheme = 'brown' | 'blue' | 'green' | 'grey';
/** The pieces' drawing: cburnett's (chessground's, GPL), the font's figurines, or letters. */
export type PieceSet = 'cburnett' | 'figurine' | 'letters';
/** How a move is made on the board: drag, click the piece then its square, or both. The text
 * box (keyboard) is always there; `keyboard` puts the focus in it when the game page opens. */
export type MoveInput = 'both' | 'drag' | 'click' | 'keyboard';

/** Everything the settings page sets. */
export interface Settings {
  colorScheme: ColorScheme;
  board: BoardTheme;
  pieces: PieceSet;
  coordinates: boolean;
  moveInput: MoveInput;
  premoves: boolean;
  confirmResign: boolean;
  confirmDraw: boolean;
  sound: boolean;
}

/** What a browser without saved settings gets. */
export const DEFAULTS: Readonly<Settings> = Object.freeze({
  colorScheme: 'system',
  board: 'brown',
  pieces: 'cburnett',
  coordinates: true,
  moveInput: 'both',
  premoves: true,
  confirmResign: true,
  confirmDraw: false,
  sound: true,
});

/** The choices of each setting that is not a switch, in the order the settings page lists them. */
export const CHOICES = {
  colorScheme: ['system', 'light', 'dark'],
  board: ['brown', 'blue', 'green', 'grey'],
  pieces: ['cburnett', 'figurine', 'letters'],
  moveInput: ['both', 'drag', 'click', 'keyboard'],
} as const satisfies { [K in keyof Settings]?: readonly Settings[K][] };

const KEY = 'chess960-settings';
let current: Settings = load();
const listeners = new Set<(s: Settings) => void>();

/** Reads the saved settings, keeping only known values (an old or edited entry never breaks a page). */
function load(): Settings {
  const out: Settings = { ...DEFAULTS };
  let saved: unknown;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) ?? '{}');
  } catch {
    return out;
  }
  if (typeof saved !== 'object' || saved === null) return out;
  const s = saved as Record<string, unknown>;
  for (const [name, choices] of Object.entries(CHOICES) as [keyof typeof CHOICES, readonly string[]][]) {
    const value = s[name];
    if (typeof value === 'string' && choices.includes(value)) (out as unknown as Record<string, string>)[name] = value;
  }
  for (const name of ['coordinates', 'premoves', 'confirmResign', 'confirmDraw', 'sound'] as const) {
    if (typeof s[name] === 'boolean') out[name] = s[name];
  }
  return out;
}

/** The settings now. */
export function settings(): Readonly<Settings> {
  return current;
}

/** Changes some settings, saves them and tells every listener (pages apply them at once). */
export function saveSettings(change: Partial<Settings>): void {
  current = { ...current, ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Private windows may refuse storage: the settings still hold for this page.
  }
  applySettings();
  for (const listener of listeners) listener(current);
}

/** Calls `listener` whenever the settings change; returns a function that stops it. */
export function onSettings(listener: (s: Settings) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
systemDark.addEventListener('change', () => applySettings());

/** Puts the look on the document: `data-theme` (as chosen), `data-scheme` (light or dark, as
 * shown), `data-board`, `data-pieces`, `data-coords` on `<html>`, which style.css reads. */
export function applySettings(): void {
  const root = document.documentElement;
  root.dataset.theme = current.colorScheme;
  // The scheme shown: the one chosen, or the system's (followed as it changes, below).
  root.dataset.scheme = current.colorScheme === 'system' ? (systemDark.matches ? 'dark' : 'light') : current.colorScheme;
  root.dataset.board = current.board;
  root.dataset.pieces = current.pieces;
  root.dataset.coords = current.coordinates ? 'on' : 'off';
  // The browser's own controls (scroll bars, form fields) follow the chosen scheme too.
  const meta = document.querySelector<HTMLMetaElement>('meta[name=color-scheme]');
  if (meta) meta.content = current.colorScheme === 'system' ? 'light dark' : current.colorScheme;
}

// Another tab changed them: follow it.
window.addEventListener('storage', event => {
  if (event.key !== KEY) return;
  current = load();
  applySettings();
  for (const listener of listeners) listener(current);
});
