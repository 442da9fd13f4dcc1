// How the game's start position was drawn by hand (method, what repeats the draw, steps): for
// an arbiter the record of a fair draw. The server replays it from the game's tags.

import { h } from '../dom';
import { DRAW_METHODS } from '../drawMethods';
import type { GameView } from '../types';

/** The `<dt>`/`<dd>` pair for the game's info list; none when the position was not drawn. */
export function drawnInfo(view: GameView): HTMLElement[] {
  const drawn = view.drawn;
  if (!drawn) return [];
  // The players' own placement is no draw: it says so, not "Drawn by: chosen".
  const placed = drawn.method === 'chosen';
  const method = placed
    ? "Placed by the players in turn, Black first (Northam's placement)"
    : (DRAW_METHODS.find(m => m.value === drawn.method)?.label ?? drawn.method);
  const repeat =
    drawn.seed !== null
      ? `chess960 draw --method ${drawn.method} --seed ${drawn.seed}`
      : `chess960 draw --method ${drawn.method} --outcomes '${drawn.outcomes ?? ''}'`;
  return [
    h('dt', {}, placed ? 'Start placed' : 'Drawn by'),
    h(
      'dd',
      { class: 'drawn-record', 'data-testid': 'drawn-record' },
      h('span', { class: 'drawn-method' }, method),
      h('ol', { class: 'draw-steps' }, drawn.steps.map(step => h('li', {}, step))),
      h('span', { class: 'muted' }, 'Repeat it: ', h('code', {}, repeat)),
    ),
  ];
}
