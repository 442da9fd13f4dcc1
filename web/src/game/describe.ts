// Words for the game's state: the end-of-game message, scores, levels.

import { formatTimeControl as formatClock } from '../timeControl';
import type { GameView, Level, Score } from '../types';

export function resultMessage(view: GameView): string {
  if (view.reason === 'aborted') return 'Game aborted: no result (not both sides had moved).';
  const reason = view.reason ? ` by ${view.reason}` : '';
  switch (view.result) {
    case '1-0':
      return `White wins${reason} (1-0)`;
    case '0-1':
      return `Black wins${reason} (0-1)`;
    case '1/2-1/2':
      return `Draw${reason ? ` (${view.reason})` : ''} (½-½)`;
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
  return 'elo' in level ? `Elo ${level.elo}` : `depth ${level.depth}`;
}

export function formatTimeControl(view: GameView): string {
  return view.time_control ? formatClock(view.time_control) : 'no clock';
}
