// A round's pairing list and result sheet to print (/events/<key>/print?round=N): the event,
// the round's position with a diagram of it, every board with the players' points and a blank
// for the result.

import { describeError } from '../api';
import { figurines } from '../backRank';
import { fill, h } from '../dom';
import type { Page } from '../page';
import { boardLabel, stageTitle } from './bracket';
import { events, who } from './eventApi';
import { svg } from '../svg';

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
      const knockout = e.format === 'knockout';
      fill(
        el,
        h('p', { class: 'no-print' }, h('button', { type: 'button', onclick: () => window.print() }, 'Print'), ' ', h('a', { href: `/events/${key}` }, 'Back to the event')),
        h('h1', {}, `${e.name} — round ${round}`),
        r.draw ? h('p', { 'data-testid': 'print-position' }, `Start position ${r.draw.position.id}: ${r.draw.position.back_rank}   (X-FEN ${r.draw.position.fen})`) : null,
        r.draw
          ? h(
              'figure',
              { class: 'print-diagram' },
              startDiagram(r.draw.position.back_rank),
              h('figcaption', {}, `Position ${r.draw.position.id}: `, r.draw.position.back_rank, ' ', figurines(r.draw.position.back_rank), ' (White below)'),
            )
          : null,
        // A knockout's tiebreak stages' positions.
        (r.stage_draws ?? []).map((d, i) =>
          h(
            'p',
            { 'data-testid': `print-stage-${d.stage ?? i + 1}` },
            `Tiebreak stage ${d.stage ?? i + 1}, ${stageTitle(e, d.stage ?? i + 1)}: position ${d.position.id}: ${d.position.back_rank} ${figurines(d.position.back_rank)}`,
          ),
        ),
        h(
          'div',
          { class: 'table-scroll' },
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
                  h('td', {}, b.board, knockout ? ` · ${boardLabel(e, r, b) ?? ''} (${b.time_control ?? e.time_control})` : ''),
                  h('td', {}, who(e, b.white)),
                  h('td', {}, pointsBefore(b.white)),
                  h('td', {}, who(e, b.black)),
                  h('td', {}, pointsBefore(b.black)),
                  h('td', { class: 'result-blank' }, b.result ?? ''),
                ),
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

const ROLES: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const GLYPHS: Record<string, string> = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟' };


/**
 * The pieces' drawings the boards use (chessground's cburnett set, from the page's style
 * sheet), as image addresses by "white king" etc.: an <image> prints where a CSS background
 * would not. Empty where the style sheet draws none (the diagram then uses figurines).
 */
function pieceImages(): Record<string, string> {
  const wrap = h('div', { class: 'cg-wrap', style: 'position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden' });
  document.body.append(wrap);
  const out: Record<string, string> = {};
  for (const color of ['white', 'black']) {
    for (const role of Object.values(ROLES)) {
      const piece = document.createElement('piece');
      piece.className = `${role} ${color}`;
      wrap.append(piece);
      const match = /^url\("?(.*?)"?\)$/.exec(getComputedStyle(piece).backgroundImage);
      if (match?.[1]) out[`${color} ${role}`] = match[1];
    }
  }
  wrap.remove();
  return out;
}

/** A diagram of a start position (White below, files and ranks named), as SVG to print. */
export function startDiagram(backRank: string): SVGElement {
  const square = 40;
  const margin = 18;
  const size = margin + 8 * square;
  const root = svg('svg', {
    viewBox: `0 0 ${size} ${size}`,
    class: 'start-diagram',
    role: 'img',
    'aria-label': `Start position: ${backRank}`,
    'data-testid': 'print-diagram',
  });
  const images = pieceImages();
  const rows: Record<number, string> = { 1: backRank.toUpperCase(), 2: 'PPPPPPPP', 7: 'pppppppp', 8: backRank.toLowerCase() };
  for (let rank = 8; rank >= 1; rank--) {
    const y = (8 - rank) * square;
    root.append(svg('text', { x: margin / 2, y: y + square / 2 + 4, 'text-anchor': 'middle', 'font-size': 12 }, String(rank)));
    for (let file = 0; file < 8; file++) {
      const x = margin + file * square;
      const name = `${'abcdefgh'[file]}${rank}`;
      root.append(svg('rect', { x, y, width: square, height: square, fill: (file + rank) % 2 === 1 ? '#b58863' : '#f0d9b5' }));
      const letter = rows[rank]?.[file];
      if (!letter) continue;
      const color = letter === letter.toUpperCase() ? 'white' : 'black';
      const role = ROLES[letter.toUpperCase()] ?? 'pawn';
      const src = images[`${color} ${role}`];
      const attrs = { 'data-square': name, 'data-piece': `${color} ${role}` };
      root.append(
        src
          ? svg('image', { ...attrs, href: src, x, y, width: square, height: square })
          : svg(
              'text',
              {
                ...attrs,
                x: x + square / 2,
                y: y + square * 0.8,
                'text-anchor': 'middle',
                'font-size': square * 0.85,
                fill: color === 'white' ? '#fff' : '#000',
                stroke: '#000',
                'stroke-width': color === 'white' ? 1 : 0,
              },
              GLYPHS[letter.toUpperCase()] ?? '?',
            ),
      );
    }
  }
  for (let file = 0; file < 8; file++) {
    root.append(svg('text', { x: margin + file * square + square / 2, y: 8 * square + 14, 'text-anchor': 'middle', 'font-size': 12 }, 'abcdefgh'[file] ?? ''));
  }
  root.append(svg('rect', { x: margin, y: 0, width: 8 * square, height: 8 * square, fill: 'none', stroke: '#333', 'stroke-width': 1 }));
  return root;
}
