// Words for the game's state: the end-of-game message, scores, levels.

import { formatTimeControl as formatClock } from '../timeControl';
import type { Color, GameView, Level, Score } from '../types';

export function resultMessage(view: GameView): string {
  if (view.reason === 'aborted') return 'Game aborted: no result (not both sides had moved).';
  const reason = view.reason ? ` by ${view.reason}` : '';
  switch (view.result) {
    case '1-0':
      return `White wins${reason} (1-0)`;
    case '0-1':
      return `Black wins${reason} (0-1)`;
    case '1/2-1/2':
      // "Draw agreed", not "Draw (draw agreed)": the reason says it once.
      if (view.reason === 'draw agreed') return 'Draw agreed (½-½)';
      return `Draw${reason} (½-½)`;
    default:
      return view.reason ? `Game over: ${view.reason}` : 'Game over';
  }
}

/** "+0.34" / "−1.20" / "#3" / "#-2", from White's point of view. */
export function formatScore(score: Score): string {
  if ('mate' in score) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

export function formatLevel(level: Level): string {
  if ('elo' in level) return `Elo ${level.elo}`;
  if ('depth' in level) return `depth ${level.depth}`;
  // The engine at full strength, with its time per move.
  const full = (level as { full?: { movetime_ms?: number } }).full;
  return full?.movetime_ms ? `full strength, ${full.movetime_ms / 1000} s a move` : 'full strength';
}

/** True for a game played outside this server (an engine event's, an imported one): both
 * players are `outside`, nobody plays it here, and the page only shows it. */
export function playedOutside(view: GameView): boolean {
  return view.sides?.white.type === 'outside' && view.sides.black.type === 'outside';
}

export function formatTimeControl(view: GameView): string {
  return view.time_control ? formatClock(view.time_control) : 'no clock';
}

/** The names the server gives a player who gave none: "Player", and "?" for a seat still open. */
const UNNAMED = new Set(['', 'Player', '?']);

/** Whether `name` is a name its player gave (not the server's stand-in for none). */
export function named(name: string): boolean {
  return !UNNAMED.has(name.trim());
}

/** A player's name as the page shows it: between people (not at one device), a player who gave
 * no name is called by their colour ("White – Black", never "Player – Player"). */
export function shownName(view: GameView, color: Color): string {
  const name = color === 'white' ? view.white : view.black;
  if (view.human === null && !view.hotseat && !named(name)) return color === 'white' ? 'White' : 'Black';
  return name;
}
