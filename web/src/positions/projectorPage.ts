// The projector view (/projector): one drawn start position, as large as the screen allows, for
// an arbiter to put on the wall. Space, Enter or N draws the next one; S shows the steps.

import { api, describeError } from '../api';
import { figurines, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { DRAW_METHODS } from '../drawMethods';
import { miniBoard } from '../home/miniBoard';
import type { Page } from '../page';

export function projectorPage(): Page {
  const number = h('div', { class: 'projector-number', 'data-testid': 'projector-number' }, '—');
  const rank = h('div', { class: 'projector-rank', 'data-testid': 'projector-rank' });
  const glyphs = h('div', { class: 'projector-figurines', 'aria-hidden': 'true' });
  const steps = h('ol', { class: 'projector-steps', 'data-testid': 'projector-steps', hidden: true });
  const board = miniBoard('projector-board', 'The drawn start position');
  const message = h('p', { class: 'message', role: 'alert' });
  const method = h(
    'select',
    { 'aria-label': 'Drawing method' },
    DRAW_METHODS.map(m => h('option', { value: m.value }, m.label)),
  );

  async function drawNext(): Promise<void> {
    message.textContent = '';
    try {
      const drawn = await api.draw(method.value);
      number.textContent = String(drawn.id);
      rank.textContent = drawn.back_rank;
      glyphs.textContent = figurines(drawn.back_rank);
      fill(steps, drawn.steps.map(step => h('li', {}, step)));
      board.show(startPlacement(drawn.back_rank));
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  function toggleSteps(): void {
    steps.hidden = !steps.hidden;
    el.classList.toggle('steps-shown', !steps.hidden);
  }

  const onKey = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement | null;
    if (target?.tagName === 'SELECT' || target?.tagName === 'INPUT') return;
    if (event.key === ' ' || event.key === 'Enter' || event.key === 'n') {
      event.preventDefault();
      void drawNext();
    } else if (event.key === 's') {
      toggleSteps();
    }
  };
  document.addEventListener('keydown', onKey);

  // The controls come first: on top of the screen, never below the fold.
  const el = h(
    'section',
    { class: 'projector-page' },
    h(
      'div',
      { class: 'projector-controls' },
      method,
      h('button', { type: 'button', class: 'primary', 'data-testid': 'draw-next', onclick: () => void drawNext() }, 'Draw next (Space)'),
      h('button', { type: 'button', 'data-testid': 'toggle-steps', onclick: () => toggleSteps() }, 'Steps (S)'),
      h('a', { href: '/positions' }, 'Leave'),
      message,
    ),
    h('div', { class: 'projector-text' }, h('div', { class: 'projector-caption' }, 'Chess960 start position'), number, rank, glyphs, steps),
    board.el,
  );
  requestAnimationFrame(() => void drawNext());
  return {
    el,
    title: 'Projector',
    dispose: () => {
      document.removeEventListener('keydown', onKey);
      board.destroy();
    },
  };
}
