// The evaluation graph of a whole-game analysis: White's win percentage after every ply as an SVG
// plot (White's share below the line), the judged moves marked, the shown ply as a bar; a click
// picks the nearest ply.

import type { Judgement, MoveJudged, PositionEval } from './types';
import { svg } from '../svg';

const W = 600;
const H = 120;


export const JUDGEMENT_WORD: Record<Judgement, string> = {
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
};

export function evalGraph(
  positions: PositionEval[],
  moves: MoveJudged[],
  shownPly: number | null,
  pick: (ply: number) => void,
  /** The number of positions the finished graph will have (while the analysis runs). */
  total: number = positions.length,
): SVGSVGElement {
  const n = Math.max(total - 1, positions.length - 1, 1);
  const x = (ply: number): number => (ply / n) * W;
  const y = (win: number): number => H - (win / 100) * H;
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'eval-graph',
    role: 'img',
    'aria-label': 'Evaluation graph: White’s winning chances after each move; click to go to a move',
    'data-testid': 'eval-graph-svg',
  });
  root.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-black' }));
  const points = positions.map(p => `${x(p.ply).toFixed(1)},${y(p.win).toFixed(1)}`);
  root.append(svg('polygon', { points: [`0,${H}`, ...points, `${x(positions.length - 1)},${H}`].join(' '), class: 'graph-white' }));
  root.append(svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }));
  root.append(svg('polyline', { points: points.join(' '), class: 'graph-line', 'data-testid': 'eval-line' }));
  if (shownPly !== null && shownPly <= n) {
    root.append(svg('line', { x1: x(shownPly), y1: 0, x2: x(shownPly), y2: H, class: 'graph-cursor', 'data-testid': 'graph-cursor' }));
  }
  for (const move of moves) {
    const p = positions[move.ply];
    if (!move.judgement || !p) continue;
    const dot = svg('circle', {
      cx: x(move.ply),
      cy: y(p.win),
      r: 4,
      class: `graph-mark ${move.judgement}`,
      'data-ply': move.ply,
      'data-judgement': move.judgement,
    });
    const title = svg('title', {});
    title.textContent = `${JUDGEMENT_WORD[move.judgement]}: ${move.san}`;
    dot.append(title);
    root.append(dot);
  }
  root.addEventListener('click', event => {
    const box = root.getBoundingClientRect();
    if (box.width <= 0) return;
    const ply = Math.round(((event.clientX - box.left) / box.width) * n);
    pick(Math.max(0, Math.min(positions.length - 1, ply)));
  });
  return root;
}
