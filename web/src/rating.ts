// One way to write ratings everywhere in the UI, as lichess does: "1500?" while provisional,
// a change "+12" / "−12" (a true minus sign), the speed classes by name.

import { h } from './dom';
import type { GameRating, Speed } from './types';

/** The speed classes, fastest first (the server's order). */
export const SPEEDS: Speed[] = ['bullet', 'blitz', 'rapid', 'classical'];

export function isSpeed(text: string | null): text is Speed {
  return SPEEDS.includes(text as Speed);
}

/** "Blitz". */
export function speedLabel(speed: string): string {
  return speed.charAt(0).toUpperCase() + speed.slice(1);
}

/** "1500?" while provisional (a deviation above 110), else "1500". */
export function ratingText(rating: { rating: number; provisional: boolean }): string {
  return `${rating.rating}${rating.provisional ? '?' : ''}`;
}

/** "+12", "−12" (U+2212), "±0". */
export function changeText(change: number): string {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return '±0';
}

/** A rating beside a name, with its change once the game was rated: `1500? +242`. */
export function ratingBadge(rating: GameRating, testid?: string): HTMLElement {
  const title = rating.provisional ? 'Provisional rating: too few rated games to be sure of it' : 'Rating';
  return h(
    'span',
    { class: 'rating', 'data-testid': testid },
    h('span', { class: 'rating-value', title }, ratingText(rating)),
    rating.change === undefined
      ? null
      : h(
          'span',
          { class: `rating-change ${rating.change > 0 ? 'up' : rating.change < 0 ? 'down' : 'even'}`, title: 'The change this game made' },
          changeText(rating.change),
        ),
  );
}
