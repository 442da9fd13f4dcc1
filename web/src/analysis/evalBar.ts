// The evaluation bar beside the analysis board, as lichess draws it: White's share from the
// bottom, by White's winning chances from the engine's score of the position shown (lichess's
// formula, the one docs/analysis.md gives for `win`); a mate fills it for the side that mates.

import { h } from '../dom';
import { formatScore } from '../game/describe';
import type { Color, Score } from '../types';

/** White's share of the bar, 0..100, from a score in White's view; `turn` is the side to move
 * (a `{"mate": 0}` means it is checkmated). */
export function whiteShare(score: Score, turn: Color): number {
  if ('mate' in score) {
    if (score.mate === 0) return turn === 'white' ? 0 : 100;
    return score.mate > 0 ? 100 : 0;
  }
  const win = 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * score.cp)) - 1);
  return Math.max(0, Math.min(100, win));
}

export class EvalBar {
  readonly el: HTMLElement;
  private readonly white = h('div', { class: 'eval-bar-white' });
  private readonly label = h('span', { class: 'eval-bar-label' });

  constructor() {
    this.el = h(
      'div',
      { class: 'eval-bar', 'data-testid': 'eval-bar', role: 'img', hidden: true },
      this.white,
      h('div', { class: 'eval-bar-mid', 'aria-hidden': 'true' }),
      this.label,
    );
  }

  /** Shows the score (null: hides the bar, the engine being off). */
  show(score: Score | null, turn: Color): void {
    if (!score) {
      this.el.hidden = true;
      return;
    }
    const share = whiteShare(score, turn);
    this.el.hidden = false;
    this.white.style.height = `${share}%`;
    this.el.dataset.white = share.toFixed(1);
    this.label.textContent = formatScore(score);
    this.el.setAttribute('aria-label', `Evaluation ${formatScore(score)}: White's share ${Math.round(share)}%`);
    this.el.classList.toggle('white-better', share >= 50);
  }

  /** While the engine thinks about a new position: kept as it was, marked as pending. */
  pending(on: boolean): void {
    this.el.classList.toggle('pending', on);
  }
}
