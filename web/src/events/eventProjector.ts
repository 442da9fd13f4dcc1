// The hall's screen for an event (/events/<key>/projector): the round's position as large as
// the screen allows, its number and back rank, the draw's steps, and the pairings. It follows
// the arbiter by itself (every three seconds).

import { describeError } from '../api';
import { figurines, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { miniBoard } from '../home/miniBoard';
import type { Page } from '../page';
import { currentRound, events, who } from './eventApi';

export function eventProjector(key: string): Page {
  const heading = h('div', { class: 'projector-caption', 'data-testid': 'projector-round' }, 'Chess960');
  const number = h('div', { class: 'projector-number', 'data-testid': 'projector-number' }, '—');
  const rank = h('div', { class: 'projector-rank', 'data-testid': 'projector-rank' });
  const glyphs = h('div', { class: 'projector-figurines', 'aria-hidden': 'true' });
  const steps = h('ol', { class: 'projector-steps', 'data-testid': 'projector-steps' });
  const pairings = h('table', { class: 'projector-pairings', 'data-testid': 'projector-pairings' });
  const message = h('p', { class: 'message', role: 'alert' });
  const board = miniBoard('projector-board', 'The round’s start position');
  let shown = '';

  async function refresh(): Promise<void> {
    try {
      const e = await events.get(key);
      const r = currentRound(e);
      const signature = `${e.revision}`;
      if (signature === shown) return;
      shown = signature;
      if (!r) {
        heading.textContent = `${e.name} — no round drawn yet`;
        return;
      }
      heading.textContent = `${e.name} — round ${r.round}`;
      if (r.draw) {
        const p = r.draw.position;
        number.textContent = String(p.id);
        rank.textContent = p.back_rank;
        glyphs.textContent = figurines(p.back_rank);
        fill(steps, r.draw.steps.map(s => h('li', {}, s)));
        board.show(startPlacement(p.back_rank));
      }
      fill(
        pairings,
        r.boards.map(b => h('tr', {}, h('td', {}, b.board), h('td', {}, who(e, b.white)), h('td', {}, '–'), h('td', {}, who(e, b.black)), h('td', {}, b.result ?? ''))),
        r.byes.filter(y => y.kind === 'pab').map(y => h('tr', {}, h('td', {}, ''), h('td', { colspan: 4 }, `${who(e, y.player)}: bye`))),
      );
    } catch (error) {
      message.textContent = describeError(error);
    }
  }
  void refresh();
  const timer = window.setInterval(() => void refresh(), 3000);
  const el = h(
    'section',
    { class: 'projector-page event-projector steps-shown' },
    h('div', { class: 'projector-controls' }, h('a', { href: `/events/${key}` }, 'Leave'), message),
    h('div', { class: 'projector-text' }, heading, number, rank, glyphs, steps, pairings),
    board.el,
  );
  return {
    el,
    title: 'Projector',
    dispose: () => {
      window.clearInterval(timer);
      board.destroy();
    },
  };
}
