// A round's pairing list and result sheet to print (/events/<key>/print?round=N): the event,
// the round's position, every board with the players' points and a blank for the result.

import { describeError } from '../api';
import { fill, h } from '../dom';
import type { Page } from '../page';
import { events, who } from './eventApi';

export function eventPrint(key: string, round: number): Page {
  const el = h('section', { class: 'event-print' }, h('p', {}, 'Loading…'));
  void events
    .get(key)
    .then(e => {
      const r = e.round_list[round - 1];
      if (!r?.paired) {
        fill(el, h('p', { class: 'message' }, `Round ${round} is not paired.`));
        return;
      }
      const pointsBefore = (player: number): number => {
        let pts = 0;
        for (const earlier of e.round_list.slice(0, round - 1)) {
          for (const b of earlier.boards) {
            const white = b.white === player;
            if (!white && b.black !== player) continue;
            if (b.result === '1/2-1/2') pts += 0.5;
            else if ((white && (b.result === '1-0' || b.result === '+/-')) || (!white && (b.result === '0-1' || b.result === '-/+'))) pts += 1;
          }
          for (const y of earlier.byes) if (y.player === player) pts += y.kind === 'half' ? 0.5 : y.kind === 'pab' || y.kind === 'full' ? 1 : 0;
        }
        return pts;
      };
      fill(
        el,
        h('p', { class: 'no-print' }, h('button', { type: 'button', onclick: () => window.print() }, 'Print'), ' ', h('a', { href: `/events/${key}` }, 'Back to the event')),
        h('h1', {}, `${e.name} — round ${round}`),
        r.draw ? h('p', { 'data-testid': 'print-position' }, `Start position ${r.draw.position.id}: ${r.draw.position.back_rank}   (X-FEN ${r.draw.position.fen})`) : null,
        h(
          'table',
          { class: 'print-sheet' },
          h('thead', {}, h('tr', {}, ['Board', 'White', 'Pts', 'Black', 'Pts', 'Result'].map(t => h('th', {}, t)))),
          h(
            'tbody',
            {},
            r.boards.map(b =>
              h(
                'tr',
                {},
                h('td', {}, b.board),
                h('td', {}, who(e, b.white)),
                h('td', {}, pointsBefore(b.white)),
                h('td', {}, who(e, b.black)),
                h('td', {}, pointsBefore(b.black)),
                h('td', { class: 'result-blank' }, b.result ?? ''),
              ),
            ),
          ),
        ),
        r.byes.length > 0 ? h('p', {}, 'Byes: ', r.byes.map(y => `${who(e, y.player)} (${y.kind})`).join(', ')) : null,
      );
    })
    .catch((error: unknown) => fill(el, h('p', { class: 'message' }, describeError(error))));
  return { el, title: `Round ${round}` };
}
