// The live broadcast of an event's engine games (the event page and its projector): every
// board the server is playing, or has just played, with the two engines and their clocks, the
// position, what the engine to move thinks (its evaluation from White's view, depth, speed,
// nodes and line), an evaluation graph of the game so far, the moves with their evaluations,
// and the result with its reason. It asks the server every second while the page is seen.
//
// Engine names, reasons and lines come from engines and the server's owner: they are shown as
// text only, never as markup.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { describeError } from '../api';
import { fill, h } from '../dom';
import { formatClock } from '../game/clocks';
// GET /api/events/{key}/live's shapes (docs/api.md), generated from the server's types.
import type { LiveBoard, LiveMove, LiveScore, LiveView } from '../generated/api';
import { events } from './eventApi';
import { svg } from '../svg';

/** How often the server is asked. */
const POLL_MS = 1000;
/** Evaluations beyond this many pawns (and mates) are drawn at the graph's edge. */
const CLIP = 5;

export interface LiveBroadcast {
  el: HTMLElement;
  dispose(): void;
}

/**
 * The live boards of event `key`. `onView` hears every answer (the event page refreshes its
 * standings when a game ends, and shows the arbiter's buttons by `running`); `large` is the
 * projector's form.
 */
export function liveBroadcast(key: string, o: { large?: boolean; onView?: (v: LiveView) => void } = {}): LiveBroadcast {
  const status = h('p', { class: 'live-status', 'data-testid': 'live-status', 'aria-live': 'polite' });
  const note = h('p', { class: 'live-note hint', 'data-testid': 'live-note' });
  const list = h('div', { class: 'live-boards', 'data-testid': 'live-boards' });
  const cards = new Map<string, BoardCard>();
  let running = false;
  let stopped = false;
  let timer: number | undefined;
  let asking = false;

  function show(v: LiveView): void {
    running = v.running;
    status.textContent = v.status;
    const boards = [...v.boards].sort((a, b) => a.round - b.round || a.board - b.board);
    const now = performance.now();
    const keep = new Set<string>();
    for (const b of boards) {
      const id = `${b.round}-${b.board}`;
      keep.add(id);
      let card = cards.get(id);
      if (!card) {
        card = boardCard(o.large ?? false);
        cards.set(id, card);
      }
      card.update(b, v.running, now);
    }
    for (const [id, card] of cards) {
      if (keep.has(id)) continue;
      card.destroy();
      card.el.remove();
      cards.delete(id);
    }
    // The cards in board order; one already in its place is left there (its board stays drawn).
    boards.forEach((b, i) => {
      const card = cards.get(`${b.round}-${b.board}`)!;
      if (list.children[i] !== card.el) list.insertBefore(card.el, list.children[i] ?? null);
    });
    for (const card of cards.values()) card.shown();
  }

  /** One question at a time: the next is asked a second after the answer (or the failure). */
  async function poll(): Promise<void> {
    timer = undefined;
    if (stopped || document.hidden) return;
    asking = true;
    try {
      const v = await events.live(key);
      if (stopped) return;
      note.textContent = '';
      show(v);
      o.onView?.(v);
    } catch (error) {
      // Quietly: the boards stay as they were, and the next question may well be answered.
      note.textContent = `The live boards are not updated just now (${describeError(error)}).`;
    } finally {
      asking = false;
      if (!stopped && !document.hidden) timer = window.setTimeout(() => void poll(), POLL_MS);
    }
  }

  /** A hidden page asks nothing; shown again, it asks at once. */
  function visibility(): void {
    if (!document.hidden && !asking && timer === undefined) void poll();
  }
  document.addEventListener('visibilitychange', visibility);
  // The running clocks count down between answers.
  const ticker = window.setInterval(() => {
    if (!running) return;
    const now = performance.now();
    for (const card of cards.values()) card.tick(now);
  }, 100);
  void poll();

  return {
    el: h('div', { class: `live${o.large ? ' live-large' : ''}`, 'data-testid': 'live' }, status, note, list),
    dispose() {
      stopped = true;
      if (timer !== undefined) window.clearTimeout(timer);
      window.clearInterval(ticker);
      document.removeEventListener('visibilitychange', visibility);
      for (const card of cards.values()) card.destroy();
      cards.clear();
    },
  };
}

interface BoardCard {
  el: HTMLElement;
  update(b: LiveBoard, running: boolean, now: number): void;
  /** Draws the board once the card is in the document (chessground measures its element). */
  shown(): void;
  tick(now: number): void;
  destroy(): void;
}

/** One board: the players and clocks around the position, the engine's line, the graph, the moves. */
function boardCard(large: boolean): BoardCard {
  const title = h('h3', { class: 'live-title' });
  const meta = h('span', { class: 'live-meta' });
  const sides = { white: side('white'), black: side('black') };
  const board = viewBoard();
  const evaluation = h('span', { class: 'live-eval', 'data-testid': 'live-eval' });
  const who = h('span', { class: 'live-who' });
  const depth = h('span', { class: 'live-depth', 'data-testid': 'live-depth' });
  const speed = h('span', { class: 'live-speed', 'data-testid': 'live-speed' });
  const nodes = h('span', { class: 'live-nodes', 'data-testid': 'live-nodes' });
  const pv = h('p', { class: 'live-pv', 'data-testid': 'live-pv' });
  const graph = h('div', { class: 'live-graph', 'data-testid': 'live-graph' });
  const moves = h('div', { class: 'live-moves', 'data-testid': 'live-moves' });
  const result = h('p', { class: 'live-result', 'data-testid': 'live-result', hidden: true });
  let current: LiveBoard | null = null;
  let live = false;
  let at = 0;
  /** What the moves and the graph were drawn from: drawn again only when it changes. */
  let drawn = '';
  const el = h(
    'article',
    { class: `live-board${large ? ' large' : ''}`, 'data-testid': 'live-board' },
    h('header', {}, title, meta),
    h(
      'div',
      { class: 'live-main' },
      h('div', { class: 'live-position' }, sides.black.el, board.el, sides.white.el),
      h(
        'div',
        { class: 'live-info' },
        h('div', { class: 'live-engine' }, evaluation, who, depth, speed, nodes),
        pv,
        graph,
        moves,
        result,
      ),
    ),
  );

  function update(b: LiveBoard, running: boolean, now: number): void {
    current = b;
    live = running && b.result === null && b.thinking !== null;
    at = now;
    el.dataset.round = String(b.round);
    el.dataset.board = String(b.board);
    el.classList.toggle('over', b.result !== null);
    title.textContent = `Round ${b.round} · Board ${b.board}`;
    meta.textContent = `Position ${b.start_id} · ${b.time_control}`;
    sides.white.name.textContent = b.white;
    sides.black.name.textContent = b.black;
    // A long name is cut short on the line: whole on hover.
    sides.white.name.title = b.white;
    sides.black.name.title = b.black;
    for (const c of ['white', 'black'] as const) sides[c].el.classList.toggle('to-move', b.result === null && b.turn === c);
    const last = b.moves.at(-1);
    board.show(b.fen, last ? lastMove(last.uci) : null);
    showEngine(b, running);
    const signature = `${b.start_fen}|${b.moves.length}|${last?.uci ?? ''}`;
    if (signature !== drawn) {
      drawn = signature;
      fill(graph, evalGraph(b.moves));
      showMoves(b);
    }
    result.hidden = b.result === null;
    fill(
      result,
      b.result ? h('strong', {}, b.result) : null,
      b.reason ? ` · ${b.reason}` : '',
      b.game ? ' · ' : null,
      b.game ? h('a', { href: `/game/${encodeURIComponent(b.game)}` }, 'the game') : null,
    );
    tick(now);
  }

  /** The thinking engine's search; between two searches (once over, or paused), the last move's. */
  function showEngine(b: LiveBoard, running: boolean): void {
    const t = running && b.result === null ? b.thinking : null;
    const last = b.moves.at(-1);
    if (t) {
      const name = t.side === 'white' ? b.white : b.black;
      who.textContent = `${name} thinking`;
      evaluation.textContent = t.score ? formatScore(t.score) : '…';
      depth.textContent = t.depth !== null ? `depth ${t.depth}${t.seldepth !== null ? `/${t.seldepth}` : ''}` : '';
      speed.textContent = t.nps !== null ? formatSpeed(t.nps) : '';
      nodes.textContent = t.nodes !== null ? `${formatCount(t.nodes)} nodes` : '';
      pv.textContent = pvText(b.fen, t.pv);
    } else if (last) {
      who.textContent = `after ${moveNumber(b.moves.length - 1, b.start_fen)}${last.san}`;
      evaluation.textContent = last.score ? formatScore(last.score) : '';
      depth.textContent = last.depth !== null ? `depth ${last.depth}` : '';
      speed.textContent = last.nps !== null ? formatSpeed(last.nps) : '';
      nodes.textContent = last.nodes !== null ? `${formatCount(last.nodes)} nodes` : '';
      // The line it expected after that move (its line began with the move played).
      pv.textContent = last.pv.length > 1 && last.pv[0] === last.san ? pvText(b.fen, last.pv.slice(1)) : '';
    } else {
      who.textContent = b.result === null ? 'waiting for the first move' : '';
      for (const x of [evaluation, depth, speed, nodes, pv]) x.textContent = '';
    }
    evaluation.classList.toggle('black-better', evaluation.textContent.startsWith('-') || evaluation.textContent.startsWith('#-'));
  }

  function showMoves(b: LiveBoard): void {
    const items = b.moves.map((m, i) => {
      const number = moveNumber(i, b.start_fen);
      return h(
        'span',
        { class: 'live-move' },
        i === 0 || number.endsWith('. ') ? h('span', { class: 'live-move-number' }, number.trim()) : null,
        h('span', { class: 'live-san' }, m.san),
        m.score ? h('small', { class: 'live-move-eval' }, formatScore(m.score)) : null,
      );
    });
    fill(moves, items);
    // The newest move in sight (the list scrolls within its box, never the page).
    moves.scrollTop = moves.scrollHeight;
  }

  /** The clocks: the side to move's counts down from the snapshot, the other stands. */
  function tick(now: number): void {
    const b = current;
    if (!b) return;
    const spent = live && b.thinking ? b.thinking.elapsed_ms + (now - at) : 0;
    for (const c of ['white', 'black'] as const) {
      const base = c === 'white' ? b.clocks.white_ms : b.clocks.black_ms;
      const ms = live && b.thinking?.side === c ? base - spent : base;
      sides[c].clock.textContent = formatClock(ms);
      sides[c].clock.classList.toggle('low', ms < 10_000);
      sides[c].clock.classList.toggle('running', live && b.thinking?.side === c);
    }
  }

  return {
    el,
    update,
    shown: () => board.redraw(),
    tick,
    destroy: () => board.destroy(),
  };
}

/** A player's line above or below the board: the name and the clock. */
function side(color: 'white' | 'black'): { el: HTMLElement; name: HTMLElement; clock: HTMLElement } {
  const name = h('span', { class: 'live-name', 'data-testid': `live-${color}` });
  const clock = h('span', { class: 'live-clock', 'data-testid': `live-clock-${color}` });
  const el = h('div', { class: `live-side ${color}` }, h('span', { class: `live-piece ${color}`, 'aria-hidden': 'true' }), name, clock);
  return { el, name, clock };
}

/** A board that only shows a position and its last move (chessground, made once in the document). */
function viewBoard(): { el: HTMLElement; show(fen: string, last: [Key, Key] | null): void; redraw(): void; destroy(): void } {
  const boardEl = h('div', { class: 'board' });
  const el = h('div', { class: 'mini-board live-diagram', role: 'img', 'aria-label': 'The position now' }, boardEl);
  let cg: Api | null = null;
  let fen = '8/8/8/8/8/8/8/8';
  let last: [Key, Key] | null = null;
  const config = () => ({ fen, lastMove: last ?? undefined });
  const ensure = (): void => {
    if (cg || !boardEl.isConnected) return;
    cg = Chessground(boardEl, {
      viewOnly: true,
      coordinates: false,
      animation: { enabled: true, duration: 150 },
      highlight: { lastMove: true, check: false },
      ...config(),
    });
  };
  return {
    el,
    show(f: string, l: [Key, Key] | null) {
      const placement = f.split(' ')[0] ?? f;
      if (placement === fen && l?.join() === last?.join()) return;
      fen = placement;
      last = l;
      if (cg) {
        // A cleared last move (a new game on the board) is not undone by `lastMove: undefined`.
        if (!l) cg.state.lastMove = undefined;
        cg.set(config());
      }
    },
    redraw() {
      ensure();
      if (!cg) requestAnimationFrame(ensure);
    },
    destroy() {
      cg?.destroy();
    },
  };
}

/** The squares of a UCI move ("e2e4", "e7e8q"; a Chess960 castling is king to rook). */
function lastMove(uci: string): [Key, Key] | null {
  if (!/^[a-h][1-8][a-h][1-8]/.test(uci)) return null;
  return [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key];
}

/** "+0.35", "-1.20", "0.00", "#5" (White mates in 5), "#-3" (Black mates in 3). */
export function formatScore(s: LiveScore): string {
  if (s.mate !== null) return `#${s.mate}`;
  const pawns = (s.cp ?? 0) / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

/** Nodes a second: "850 kN/s", "1.24 MN/s". */
export function formatSpeed(nps: number): string {
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(2)} MN/s`;
  if (nps >= 1e3) return `${Math.round(nps / 1e3)} kN/s`;
  return `${nps} N/s`;
}

/** "950", "12.3 k", "4.56 M", "1.20 G". */
export function formatCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

/** The move number before ply `ply` of a game from `startFen`: "12. " for White, "12… " for Black. */
function moveNumber(ply: number, startFen: string): string {
  const f = startFen.split(' ');
  const blackFirst = f[1] === 'b';
  const first = Number(f[5]) || 1;
  const p = ply + (blackFirst ? 1 : 0);
  const n = first + Math.floor(p / 2);
  return p % 2 === 0 ? `${n}. ` : `${n}… `;
}

/** A line in SAN from position `fen`, numbered: "23. Nf3 Nc6 24. e4" or "23… Nc6 24. e4". */
export function pvText(fen: string, sans: string[]): string {
  const f = fen.split(' ');
  let white = f[1] !== 'b';
  let n = Number(f[5]) || 1;
  const out: string[] = [];
  sans.forEach((san, i) => {
    if (white) out.push(`${n}.`);
    else if (i === 0) out.push(`${n}…`);
    out.push(san);
    if (!white) n += 1;
    white = !white;
  });
  return out.join(' ');
}

/** A score in pawns for the graph: clipped to ±CLIP, a mate at the clip (null: none). */
function graphValue(s: LiveScore | null): number | null {
  if (!s) return null;
  if (s.mate !== null) return s.mate > 0 ? CLIP : s.mate < 0 ? -CLIP : null;
  return Math.max(-CLIP, Math.min(CLIP, (s.cp ?? 0) / 100));
}

const GW = 320;
const GH = 80;


/** The evaluation after each move (White's view, ±5 pawns): x the move, y the score, 0 the middle line. */
export function evalGraph(moves: LiveMove[]): SVGSVGElement {
  // At least 40 moves (80 plies) wide, so that the first moves do not stretch across the whole graph.
  const span = Math.max(moves.length, 80);
  const x = (ply: number): number => ((ply + 1) / span) * GW;
  const y = (v: number): number => GH / 2 - (v / CLIP) * (GH / 2);
  const points = moves.flatMap((m, i) => {
    const v = graphValue(m.score);
    return v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`];
  });
  const root = svg('svg', {
    viewBox: `0 0 ${GW} ${GH}`,
    preserveAspectRatio: 'none',
    class: 'live-graph-svg',
    role: 'img',
    'aria-label': `Evaluation after each move, White’s view (${points.length} moves)`,
    'data-points': points.length,
  });
  root.append(svg('rect', { x: 0, y: 0, width: GW, height: GH / 2, class: 'live-graph-white' }));
  root.append(svg('rect', { x: 0, y: GH / 2, width: GW, height: GH / 2, class: 'live-graph-black' }));
  root.append(svg('line', { x1: 0, y1: GH / 2, x2: GW, y2: GH / 2, class: 'live-graph-zero' }));
  if (points.length > 0) {
    const area = [`${points[0]!.split(',')[0]},${GH / 2}`, ...points, `${points.at(-1)!.split(',')[0]},${GH / 2}`];
    root.append(svg('polygon', { points: area.join(' '), class: 'live-graph-area' }));
    root.append(svg('polyline', { points: points.join(' '), class: 'live-graph-line', 'data-testid': 'live-graph-line' }));
  }
  return root;
}
