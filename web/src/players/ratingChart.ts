// A rating's history as a small SVG line chart (no chart library): the rating after each rated
// game, oldest on the left, the lowest and highest written on the axis. For screen readers the
// chart is one image with a title and a description in words; each point has its own title.

import type { RatingPoint } from '../types';
import { speedLabel } from '../rating';
import { svg } from '../svg';

const W = 420;
const H = 150;
/** Room for the ratings on the left, and above and below the line. */
const LEFT = 44;
const TOP = 12;
const BOTTOM = 12;


const day = (ms: number): string => new Date(ms).toLocaleDateString([], { year: 'numeric', month: 'short', day: 'numeric' });

/** The chart of one speed class's history (`id` makes its title's id unique on the page). */
export function ratingChart(speed: string, history: RatingPoint[], id: string): SVGSVGElement {
  const ratings = history.map(p => p.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  // At least 100 points of height, so that a change of a few points does not look like a cliff.
  const middle = (low + high) / 2;
  const half = Math.max((high - low) / 2, 50) + 10;
  const min = middle - half;
  const max = middle + half;
  const x = (i: number): number => (history.length === 1 ? LEFT + (W - LEFT) / 2 : LEFT + (i / (history.length - 1)) * (W - LEFT - 6));
  const y = (rating: number): number => TOP + ((max - rating) / (max - min)) * (H - TOP - BOTTOM);

  const first = history[0];
  const last = history[history.length - 1];
  const words =
    first && last
      ? `${history.length} rated game${history.length === 1 ? '' : 's'} from ${day(first.at_ms)} to ${day(last.at_ms)}: ` +
        `${history.length === 1 ? `${last.rating} after the first` : `from ${first.rating} to ${last.rating}`}, lowest ${low}, highest ${high}.`
      : 'No rated game yet.';
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'rating-chart',
    role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`,
    'data-testid': `rating-chart-${speed}`,
  });
  root.append(svg('title', { id: `${id}-title` }, `${speedLabel(speed)} rating after each rated game`), svg('desc', { id: `${id}-desc` }, words));
  for (const value of low === high ? [low] : [low, high]) {
    root.append(
      svg('line', { x1: LEFT, x2: W, y1: y(value), y2: y(value), class: 'chart-grid' }),
      svg('text', { x: LEFT - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'chart-label' }, String(value)),
    );
  }
  // One game: a level line through its point, so that the chart is not a lone dot.
  const d =
    history.length === 1 && last
      ? `M${LEFT} ${y(last.rating).toFixed(1)} H${W}`
      : history.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(' ');
  root.append(svg('path', { d, class: 'chart-line', 'data-testid': 'rating-line' }));
  // The points themselves only while they can be told apart.
  if (history.length <= 60) {
    history.forEach((p, i) => {
      const dot = svg('circle', { cx: x(i), cy: y(p.rating), r: 3.5, class: 'chart-point' });
      dot.append(svg('title', {}, `${p.rating} (±${p.deviation}) after game ${i + 1}, ${day(p.at_ms)}`));
      root.append(dot);
    });
  }
  return root;
}
