// The hall's screen for an event (/events/<key>/projector): the round's position as large as
// the screen allows, its number and back rank, the draw's steps, and the pairings. It follows
// the arbiter by itself (every three seconds). An event with engines shows the boards the
// server plays instead of the start position: large, with the clocks and the evaluation.

import { describeError } from '../api';
import { figurines, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { miniBoard } from '../home/miniBoard';
import type { Page } from '../page';
import { boardLabel, bracketView, knockoutRound, roundName, stageTitle } from './bracket';
import { currentRound, events, who, type EventRoundView, type EventView } from './eventApi';
import { liveBroadcast, type LiveBroadcast } from './live';

export function eventProjector(key: string): Page {
  const heading = h('div', { class: 'projector-caption', 'data-testid': 'projector-round' }, 'Chess960');
  const number = h('div', { class: 'projector-number', 'data-testid': 'projector-number' }, '—');
  const rank = h('div', { class: 'projector-rank', 'data-testid': 'projector-rank' });
  const glyphs = h('div', { class: 'projector-figurines', 'aria-hidden': 'true' });
  const steps = h('ol', { class: 'projector-steps', 'data-testid': 'projector-steps' });
  const pairings = h('table', { class: 'projector-pairings', 'data-testid': 'projector-pairings' });
  const message = h('p', { class: 'message', role: 'alert' });
  /** A knockout's tiebreak stages' positions, and its bracket (empty for the other formats). */
  const stages = h('div', { class: 'projector-stages', 'data-testid': 'projector-stages' });
  const bracket = h('div', { class: 'projector-bracket', 'data-testid': 'projector-bracket' });
  const board = miniBoard('projector-board', 'The round’s start position');
  let shown = '';
  /** The engine games, once a player is an engine. */
  const liveBox = h('div', { class: 'projector-live', 'data-testid': 'projector-live' });
  let live: LiveBroadcast | null = null;
  /** The live view's status and boards as last seen: a change (a round paired, a game over) asks for the event again. */
  let liveSeen = '';

  async function refresh(): Promise<void> {
    try {
      const e = await events.get(key);
      const knockout = e.format === 'knockout' && !!e.knockout;
      el.classList.toggle('knockout', knockout);
      if (!live && e.players.some(p => p.engine)) {
        live = liveBroadcast(key, {
          large: true,
          onView: v => {
            const seen = [v.status, ...v.boards.map(b => `${b.round}-${b.board}:${b.result ?? ''}`)].join();
            if (seen === liveSeen) return;
            liveSeen = seen;
            void refresh();
          },
        });
        fill(liveBox, live.el);
        el.classList.add('engines');
      }
      const r = knockout ? knockoutCurrent(e) : currentRound(e);
      const signature = `${e.revision}`;
      if (signature === shown) return;
      shown = signature;
      if (!r) {
        heading.textContent = `${e.name} — no round drawn yet`;
        return;
      }
      heading.textContent = `${e.name} — round ${r.round}`;
      if (knockout && e.knockout) {
        const total = e.knockout.bracket.length;
        if (total > 0) heading.textContent += ` (${roundName(r.round, total).toLowerCase()})`;
        const draws = r.stage_draws ?? [];
        fill(
          stages,
          draws.map((d, i) =>
            h(
              'div',
              { class: 'projector-stage', 'data-testid': `projector-stage-${d.stage ?? i + 1}` },
              h('div', { class: 'projector-stage-caption' }, `Tiebreak stage ${d.stage ?? i + 1}: ${stageTitle(e, d.stage ?? i + 1)} — position ${d.position.id}`),
              h('div', { class: 'projector-rank' }, d.position.back_rank),
              h('div', { class: 'projector-figurines', 'aria-hidden': 'true' }, figurines(d.position.back_rank)),
            ),
          ),
        );
        fill(bracket, bracketView(e));
        // The board shows the position to be played next: the newest tiebreak stage's.
        const newest = draws.at(-1);
        if (newest) board.show(startPlacement(newest.position.back_rank));
      } else {
        fill(stages);
        fill(bracket);
      }
      if (r.draw) {
        const p = r.draw.position;
        number.textContent = String(p.id);
        rank.textContent = p.back_rank;
        glyphs.textContent = figurines(p.back_rank);
        fill(steps, r.draw.steps.map(s => h('li', {}, s)));
        if (!knockout || (r.stage_draws ?? []).length === 0) board.show(startPlacement(p.back_rank));
      }
      // A knockout's games in play (all of the round's once every one has its result): its
      // tiebreaks add boards, and the bracket shows the scores.
      const open = r.boards.filter(b => b.result === null);
      const listed = knockout && open.length > 0 ? open : r.boards;
      fill(
        pairings,
        listed.map(b =>
          h(
            'tr',
            {},
            h('td', {}, b.board),
            knockout ? h('td', { class: 'board-label' }, boardLabel(e, r, b) ?? '') : null,
            h('td', {}, who(e, b.white)),
            h('td', {}, '–'),
            h('td', {}, who(e, b.black)),
            h('td', { class: 'result' }, b.result ?? ''),
          ),
        ),
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
    h('div', { class: 'projector-text' }, heading, number, rank, glyphs, steps, stages, h('div', { class: 'projector-pairings-box' }, pairings)),
    board.el,
    liveBox,
    bracket,
  );
  return {
    el,
    title: 'Projector',
    dispose: () => {
      window.clearInterval(timer);
      board.destroy();
      live?.dispose();
    },
  };
}

/** A knockout's round on the screen: the one under way, or the next once its position is drawn. */
function knockoutCurrent(e: EventView): EventRoundView | null {
  const n = knockoutRound(e);
  const r = e.round_list[n - 1];
  if (r && (r.paired || r.draw)) return r;
  return e.rounds_paired > 0 ? (e.round_list[e.rounds_paired - 1] ?? null) : null;
}
