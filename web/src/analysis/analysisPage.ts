// The analysis board (/analysis): a board on which moves and variations are played without
// touching any game (the server gives each position's legal moves), the engine's live lines
// (MultiPV 1–5, an arrow for each), and a whole-game analysis run on the server with a progress
// bar, an evaluation graph, every move judged as lichess does, the best move as an arrow, and the
// PGN with [%eval], named by its players, date and start position. Beside the engine lines, the
// explorer of the stored games for the position shown (a click on a move plays it), and beside
// the board an evaluation bar while the engine runs.
//
//   /analysis?game=<key>   analyses a saved game at once
//   /analysis?fen=<FEN>    a position
//   /analysis?start=<id>   a start position
//   /analysis              the standard start, and a box to paste a FEN or a PGN

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { api, describeError, request } from '../api';
import { GameBoard } from '../board/gameBoard';
import { copyText, fill, h } from '../dom';
import { explorerOfFen, movesView } from '../explorer/explorerPanel';
import { formatScore } from '../game/describe';
import type { Page } from '../page';
import type { Color, GameView, LegalMove } from '../types';
import { EvalBar } from './evalBar';
import { analysisFileName } from './fileName';
import { evalGraph, JUDGEMENT_WORD } from './graph';
import { AnalysisSocket } from './socket';
import { moveNumber, MoveTree, onMainline, pathOf, tokens, type TreeNode } from './tree';
import type { AnalysisPosition, Counts, MoveJudged, PositionEval, ServerMessage } from './types';

const STANDARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** The width of each live engine line's arrow (chessground's units, 15 its pale default): the
 * best line boldest, each later one thinner. */
const LINE_WIDTHS = [15, 11, 8, 6, 5];
/** A FEN rather than a PGN in the paste box. */
const FEN_LIKE = /^\s*[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}\s+[wb]\s/;

/** A line in SAN with its move numbers: "12. Nf3 Nf6 13. d4" or "12… Nf6 13. d4". */
function numbered(fen: string, sans: string[]): string {
  let { number, black } = moveNumber(fen);
  const out: string[] = [];
  sans.forEach((san, i) => {
    if (!black) out.push(`${number}.`);
    else if (i === 0) out.push(`${number}…`);
    out.push(san);
    if (black) number += 1;
    black = !black;
  });
  return out.join(' ');
}

/** A move's evaluation and judgement, for its tooltip: "+0.21", "−9.14 · Blunder, Bc4 was best". */
function describeMove(node: TreeNode): string | null {
  const parts: string[] = [];
  if (node.eval) parts.push(formatScore(node.eval.eval));
  const j = node.judged;
  if (j?.judgement) parts.push(`${JUDGEMENT_WORD[j.judgement]}${j.better_san ? `, ${j.better_san} was best` : ''}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export function analysisPage(params: URLSearchParams): Page {
  return new AnalysisPage(params).page;
}

interface GameReport {
  positions: PositionEval[];
  moves: MoveJudged[];
  summary: { white: Counts; black: Counts };
  pgn: string;
}

class AnalysisPage {
  readonly page: Page;
  private tree = new MoveTree(STANDARD_FEN);
  private current: TreeNode = this.tree.root;
  /** Positions the server described, by FEN path key. */
  private readonly described = new Map<string, AnalysisPosition>();
  private report: GameReport | null = null;
  /** While a whole-game analysis runs: the evaluations so far. */
  private running: { done: number; total: number; positions: PositionEval[] } | null = null;
  private engineOn = false;
  private multipv = 1;
  private linesId = 0;
  private lastLines: Extract<ServerMessage, { type: 'lines' }> | null = null;
  private players = '';
  private readonly board: GameBoard;
  private readonly boardEl: HTMLElement;
  private pgnUrl: string | null = null;
  private readonly socket: AnalysisSocket;
  private readonly onKey = (event: KeyboardEvent): void => this.key(event);

  private readonly title = h('h1', { class: 'analysis-title', 'data-testid': 'analysis-title' }, 'Analysis board');
  private readonly message = h('p', { class: 'message', role: 'alert', 'data-testid': 'analysis-message' });
  private readonly moves = h('div', { class: 'moves-box tree', 'data-testid': 'analysis-moves' });
  private readonly comment = h('p', { class: 'move-comment', 'data-testid': 'move-comment' });
  private readonly engineButton = h('button', { type: 'button', 'data-testid': 'engine-toggle', 'aria-pressed': 'false' }, 'Start engine');
  private readonly multipvSelect = h(
    'select',
    { 'data-testid': 'multipv', 'aria-label': 'Engine lines' },
    [1, 2, 3, 4, 5].map(n => h('option', { value: n }, `${n} ${n === 1 ? 'line' : 'lines'}`)),
  );
  private readonly engineInfo = h('p', { class: 'engine-info', 'data-testid': 'engine-info' });
  private readonly engineLines = h('ol', { class: 'engine-lines', 'data-testid': 'engine-lines' });
  private readonly evalBar = new EvalBar();
  private readonly explorerSummary = h('p', { class: 'explorer-summary', 'data-testid': 'explorer-summary' });
  private readonly explorerBox = h('div', { 'aria-live': 'polite' });
  private explorerRequest = 0;
  private readonly analyseButton = h('button', { type: 'button', 'data-testid': 'analyse-game' }, 'Analyse the main line');
  private readonly timeSelect = h(
    'select',
    { 'data-testid': 'analysis-time', 'aria-label': 'Time per position' },
    h('option', { value: '100' }, '0.1 s a position'),
    h('option', { value: '300', selected: true }, '0.3 s a position'),
    h('option', { value: '1000' }, '1 s a position'),
  );
  private readonly progress = h('progress', { 'data-testid': 'analysis-progress', max: 1, value: 0, hidden: true });
  private readonly progressText = h('span', { class: 'progress-text', 'data-testid': 'analysis-status' });
  private readonly summary = h('div', { class: 'analysis-summary', 'data-testid': 'analysis-summary' });
  private readonly graph = h('div', { class: 'graph-box', 'data-testid': 'eval-graph' });
  private readonly exportBox = h('div', { class: 'export', 'data-testid': 'analysis-export' });
  private readonly paste = h('textarea', {
    class: 'paste',
    rows: 3,
    'data-testid': 'paste',
    'aria-label': 'FEN or PGN',
    placeholder: 'Paste a FEN or a PGN',
  });

  constructor(params: URLSearchParams) {
    const boardEl = h('div', {
      class: 'board',
      'data-testid': 'board',
      role: 'group',
      'aria-label': 'Analysis board: play moves and variations; the game is not changed',
    });
    this.boardEl = boardEl;
    this.board = new GameBoard(boardEl, {
      move: move => void this.play(move),
      premove: () => {},
    });
    this.multipvSelect.addEventListener('change', () => {
      this.multipv = Number(this.multipvSelect.value) || 1;
      if (this.engineOn) this.askLines();
    });
    this.engineButton.addEventListener('click', () => this.toggleEngine());
    this.analyseButton.addEventListener('click', () => this.analyseMainline());
    const el = h(
      'section',
      { class: 'game-page analysis-page' },
      h(
        'div',
        { class: 'board-column' },
        this.title,
        h('div', { class: 'analysis-board-row' }, this.evalBar.el, h('div', { class: 'board-wrap' }, boardEl)),
        h(
          'div',
          { class: 'move-nav', role: 'group', 'aria-label': 'Browse moves' },
          this.navButton('«', 'First position (Home)', () => this.select(this.tree.root)),
          this.navButton('‹', 'Previous move (←)', () => this.select(this.current.parent ?? this.current)),
          this.navButton('›', 'Next move (→)', () => this.select(this.current.children[0] ?? this.current)),
          this.navButton('»', 'End of the line (End)', () => this.select(this.lineEnd(this.current))),
        ),
        this.graph,
      ),
      h(
        'aside',
        { class: 'side-column' },
        this.message,
        h(
          'div',
          { class: 'engine-panel' },
          h('div', { class: 'actions' }, this.engineButton, this.multipvSelect),
          this.engineInfo,
          this.engineLines,
        ),
        h(
          'section',
          { class: 'analysis-explorer', 'data-testid': 'analysis-explorer', 'aria-label': 'Explorer of the stored games' },
          h('h2', {}, 'Explorer'),
          this.explorerSummary,
          this.explorerBox,
        ),
        this.moves,
        this.comment,
        h(
          'div',
          { class: 'game-analysis' },
          h('div', { class: 'actions' }, this.analyseButton, this.timeSelect),
          h('div', { class: 'progress-row' }, this.progress, this.progressText),
          this.summary,
        ),
        this.exportBox,
        h(
          'form',
          { class: 'paste-form', onsubmit: (event: Event) => this.load(event) },
          h('label', {}, 'Load a position or a game', this.paste),
          h('button', { type: 'submit', 'data-testid': 'load-paste' }, 'Load'),
        ),
      ),
    );
    this.socket = new AnalysisSocket(
      message => this.onMessage(message),
      connected => {
        if (!connected) this.say('The connection to the server was lost; trying again…');
        else if (this.message.textContent?.startsWith('The connection')) this.say('');
        if (connected && this.engineOn) this.askLines();
      },
    );
    document.addEventListener('keydown', this.onKey);
    this.page = {
      el,
      title: 'Analysis',
      dispose: () => {
        document.removeEventListener('keydown', this.onKey);
        this.socket.close();
        this.board.destroy();
        if (this.pgnUrl) URL.revokeObjectURL(this.pgnUrl);
      },
    };
    void this.start(params);
  }

  private async start(params: URLSearchParams): Promise<void> {
    const game = params.get('game');
    const fen = params.get('fen');
    const start = params.get('start');
    try {
      if (game) {
        this.title.textContent = 'Analysis of a game';
        this.socket.send({ type: 'analyse_game', game, movetime_ms: this.movetime() });
        this.showRunning(0, 1);
      } else if (fen) {
        await this.setPosition(fen);
      } else if (start !== null) {
        const position = await api.position(Number.parseInt(start, 10));
        this.title.textContent = `Analysis of start position #${position.id}`;
        await this.setPosition(position.fen);
      } else {
        await this.setPosition(STANDARD_FEN);
      }
    } catch (error) {
      this.say(describeError(error));
      this.render();
    }
  }

  // ---- the tree and the board --------------------------------------------------------------

  private setRoot(fen: string, moves: { uci: string; san: string; fen: string }[]): void {
    this.tree = new MoveTree(fen);
    let node = this.tree.root;
    for (const move of moves) node = this.tree.add(node, move);
    this.current = this.tree.root;
    this.report = null;
  }

  /** A position typed or linked: checked by the server, then shown as the root. */
  private async setPosition(fen: string): Promise<void> {
    const described = await this.describe(fen, []);
    this.setRoot(described.fen, []);
    this.described.set(this.keyOf(this.tree.root), described);
    this.select(this.tree.root);
  }

  private keyOf(node: TreeNode): string {
    return `${this.tree.root.fen}|${pathOf(node).join(' ')}`;
  }

  private describe(fen: string, moves: string[]): Promise<AnalysisPosition> {
    return request<AnalysisPosition>('POST', '/api/analysis/position', { fen, moves });
  }

  /** The server's description of `node`'s position (legal moves, check), cached. */
  private async positionOf(node: TreeNode): Promise<AnalysisPosition> {
    const key = this.keyOf(node);
    const known = this.described.get(key);
    if (known) return known;
    const fresh = await this.describe(this.tree.root.fen, pathOf(node));
    this.described.set(key, fresh);
    return fresh;
  }

  private async play(move: LegalMove): Promise<void> {
    const parent = this.current;
    try {
      const after = await this.describe(this.tree.root.fen, [...pathOf(parent), move.uci]);
      const node = this.tree.add(parent, { uci: move.uci, san: move.san, fen: after.fen });
      this.described.set(this.keyOf(node), after);
      this.select(node);
    } catch (error) {
      this.say(describeError(error));
      this.select(parent);
    }
  }

  private select(node: TreeNode): void {
    this.current = node;
    this.render();
    void this.showBoard(node);
    this.loadExplorer(node);
    if (this.engineOn) this.askLines();
  }

  /** The explorer of the position shown: the stored games that reached it (from the board's
   * start, a Chess960 start position or any FEN, followed by the moves played). */
  private loadExplorer(node: TreeNode): void {
    const mine = ++this.explorerRequest;
    const moves = pathOf(node);
    if (moves.length > 300) {
      this.explorerSummary.textContent = 'The explorer follows lines of at most 300 half-moves.';
      fill(this.explorerBox);
      return;
    }
    explorerOfFen(this.tree.root.fen, moves).then(
      e => {
        if (mine !== this.explorerRequest) return;
        const t = e.total;
        this.explorerSummary.textContent =
          t.games === 0
            ? ''
            : `${t.games} stored game${t.games === 1 ? '' : 's'} reached this position` + (t.score !== null ? `; White scored ${t.score.toFixed(2)}.` : '.');
        fill(this.explorerBox, movesView(e, uci => void this.playUci(node, uci)));
      },
      error => {
        if (mine !== this.explorerRequest) return;
        this.explorerSummary.textContent = `Explorer: ${describeError(error)}`;
        fill(this.explorerBox);
      },
    );
  }

  /** Plays a move given as UCI (the explorer's) from `node`, if it is still the position shown. */
  private async playUci(node: TreeNode, uci: string): Promise<void> {
    if (node !== this.current) return;
    try {
      const position = await this.positionOf(node);
      const move = position.legal.find(m => m.uci === uci);
      if (move && node === this.current) await this.play(move);
    } catch (error) {
      this.say(describeError(error));
    }
  }

  private async showBoard(node: TreeNode): Promise<void> {
    let position: AnalysisPosition;
    try {
      position = await this.positionOf(node);
    } catch (error) {
      this.say(describeError(error));
      return;
    }
    if (this.current !== node) return; // another move was chosen meanwhile
    const view = {
      fen: position.fen,
      turn: position.turn,
      human: position.turn,
      check: position.check,
      last_move: node.uci ? { from: node.uci.slice(0, 2), to: node.uci.slice(2, 4) } : null,
      legal: position.legal,
      status: 'playing',
      premove: null,
    } as unknown as GameView;
    this.board.showLive(view, position.turn);
    this.drawArrows();
  }

  /** The engine's moves as arrows: green for the best move of the whole-game analysis, blue for
   * the first move of each live line, the first line's the boldest and each later line's
   * thinner and lighter (as lichess draws them). */
  private drawArrows(): void {
    const shapes: DrawShape[] = [];
    const best = this.current.eval?.best;
    if (best) shapes.push({ orig: best.slice(0, 2) as Key, dest: best.slice(2, 4) as Key, brush: 'green' });
    const lines = this.engineOn && this.lastLines?.id === this.linesId ? this.lastLines.lines : [];
    const drawn = new Set(best ? [best] : []);
    lines.forEach((line, i) => {
      const move = line.pv[0];
      if (!move || drawn.has(move)) return;
      drawn.add(move);
      shapes.push({
        orig: move.slice(0, 2) as Key,
        dest: move.slice(2, 4) as Key,
        brush: i === 0 ? 'paleBlue' : 'paleGrey',
        modifiers: { lineWidth: LINE_WIDTHS[Math.min(i, LINE_WIDTHS.length - 1)] },
      });
    });
    this.board.cg.setAutoShapes(shapes);
    // For tests and assistive tools: the arrows drawn, as UCI squares.
    this.boardEl.dataset.arrows = shapes.map(s => `${s.orig}${s.dest ?? ''}`).join(' ');
  }

  private lineEnd(node: TreeNode): TreeNode {
    let n = node;
    while (n.children[0]) n = n.children[0];
    return n;
  }

  private key(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    const moves: Record<string, () => TreeNode> = {
      ArrowLeft: () => this.current.parent ?? this.current,
      ArrowRight: () => this.current.children[0] ?? this.current,
      Home: () => this.tree.root,
      End: () => this.lineEnd(this.current),
    };
    const go = moves[event.key];
    if (!go) return;
    event.preventDefault();
    this.select(go());
  }

  // ---- the engine ----------------------------------------------------------------------------

  private toggleEngine(): void {
    this.engineOn = !this.engineOn;
    if (this.engineOn) this.askLines();
    else {
      this.socket.send({ type: 'stop' });
      this.lastLines = null;
      this.evalBar.show(null, 'white');
    }
    this.renderEngine();
    this.drawArrows();
  }

  private askLines(): void {
    this.linesId += 1;
    this.lastLines = null;
    this.socket.send({
      type: 'lines',
      id: this.linesId,
      fen: this.tree.root.fen,
      moves: pathOf(this.current),
      multipv: this.multipv,
    });
    this.evalBar.pending(true);
    this.renderEngine();
  }

  /** The evaluation bar from the engine's best line; a position without a move is over: a
   * checkmate fills it for the side that gave it, a stalemate shows a draw. */
  private showEval(lines: Extract<ServerMessage, { type: 'lines' }>): void {
    const turn: Color = lines.fen.split(' ')[1] === 'b' ? 'black' : 'white';
    const best = lines.lines[0]?.score;
    this.evalBar.pending(false);
    if (best) {
      this.evalBar.show(best, turn);
      return;
    }
    const id = lines.id;
    void this.positionOf(this.current).then(
      position => {
        if (id === this.linesId && this.engineOn) this.evalBar.show(position.status === 'checkmate' ? { mate: 0 } : { cp: 0 }, turn);
      },
      () => {},
    );
  }

  private renderEngine(): void {
    this.engineButton.textContent = this.engineOn ? 'Stop engine' : 'Start engine';
    this.engineButton.setAttribute('aria-pressed', String(this.engineOn));
    const lines = this.engineOn ? this.lastLines : null;
    if (!this.engineOn) {
      fill(this.engineInfo, 'Engine off');
      fill(this.engineLines);
      return;
    }
    if (!lines) {
      fill(this.engineInfo, 'Engine: thinking…');
      fill(this.engineLines);
      return;
    }
    const nodes = lines.nodes >= 1e6 ? `${(lines.nodes / 1e6).toFixed(1)}M` : lines.nodes >= 1e3 ? `${Math.round(lines.nodes / 1e3)}k` : String(lines.nodes);
    fill(
      this.engineInfo,
      `Depth ${lines.depth} · ${nodes} nodes · ${Math.round(lines.nps / 1000)} kn/s${lines.done ? ' · done' : ''}`,
    );
    fill(
      this.engineLines,
      lines.lines.length === 0
        ? h('li', {}, 'No legal move: the game is over here.')
        : lines.lines.map(line =>
            h('li', { class: 'engine-line' }, h('strong', { class: 'score' }, formatScore(line.score)), ' ', numbered(lines.fen, line.pv_san)),
          ),
    );
  }

  // ---- the whole-game analysis ---------------------------------------------------------------

  private movetime(): number {
    return Number(this.timeSelect.value) || 300;
  }

  private analyseMainline(): void {
    const moves = this.tree.mainline().map(n => n.uci ?? '');
    this.socket.send({
      type: 'analyse_game',
      position: { fen: this.tree.root.fen, moves },
      movetime_ms: this.movetime(),
    });
    this.showRunning(0, moves.length + 1);
  }

  private showRunning(done: number, total: number): void {
    this.progress.hidden = false;
    this.progress.max = total;
    this.progress.value = done;
    this.progressText.textContent = done >= total ? 'Analysis complete' : `Analysing: ${done} of ${total} positions`;
    this.analyseButton.disabled = done < total;
  }

  private onMessage(message: ServerMessage): void {
    switch (message.type) {
      case 'ready':
        break;
      case 'game_started': {
        const same =
          message.start_fen === this.tree.root.fen &&
          message.moves.length === this.tree.mainline().length &&
          message.moves.every((m, i) => m.uci === this.tree.mainline()[i]?.uci);
        if (!same) this.setRoot(message.start_fen, message.moves);
        this.select(this.current);
        for (const n of this.tree.mainline()) {
          delete n.eval;
          delete n.judged;
        }
        delete this.tree.root.eval;
        this.report = null;
        this.running = { done: 0, total: message.total, positions: [] };
        if (message.white || message.black) {
          this.players = `${message.white ?? '?'} – ${message.black ?? '?'}`;
          this.title.textContent = `Analysis: ${this.players} (${message.result})`;
        }
        this.showRunning(0, message.total);
        this.render();
        break;
      }
      case 'progress':
        if (this.running) {
          this.running.done = message.done;
          this.running.positions.push(message.position);
        }
        this.showRunning(message.done, message.total);
        this.renderGraph();
        break;
      case 'game_done': {
        this.running = null;
        this.report = message;
        const nodes = [this.tree.root, ...this.tree.mainline()];
        message.positions.forEach((p, i) => {
          const node = nodes[i];
          if (node) node.eval = p;
        });
        for (const m of message.moves) {
          const node = nodes[m.ply];
          if (node) node.judged = m;
        }
        this.showRunning(message.positions.length, message.positions.length);
        this.render();
        this.drawArrows();
        break;
      }
      case 'game_cancelled':
        this.running = null;
        this.progress.hidden = true;
        this.progressText.textContent = 'Analysis stopped';
        this.analyseButton.disabled = false;
        break;
      case 'lines':
        if (message.id !== this.linesId || !this.engineOn) return;
        this.lastLines = message;
        this.showEval(message);
        this.renderEngine();
        this.drawArrows();
        break;
      case 'error':
        this.say(message.error);
        if (this.running || this.analyseButton.disabled) {
          this.running = null;
          this.analyseButton.disabled = false;
          this.progress.hidden = true;
          this.progressText.textContent = '';
        }
        break;
    }
  }

  // ---- loading ------------------------------------------------------------------------------

  private load(event: Event): void {
    event.preventDefault();
    const text = this.paste.value.trim();
    if (!text) return;
    this.say('');
    if (FEN_LIKE.test(text)) {
      void this.setPosition(text).catch((error: unknown) => this.say(describeError(error)));
    } else {
      this.socket.send({ type: 'analyse_game', pgn: text, movetime_ms: this.movetime() });
      this.showRunning(0, 1);
    }
  }

  // ---- rendering -----------------------------------------------------------------------------

  private say(text: string): void {
    this.message.textContent = text;
  }

  private navButton(label: string, title: string, action: () => void): HTMLButtonElement {
    return h('button', { type: 'button', title, 'aria-label': title, onclick: action }, label);
  }

  private render(): void {
    this.renderMoves();
    this.renderComment();
    this.renderGraph();
    this.renderSummary();
    this.renderExport();
    this.renderEngine();
  }

  private renderMoves(): void {
    const list = h('div', { class: 'tree-moves', 'aria-label': 'Moves and variations' });
    let box: HTMLElement = list;
    const boxes: HTMLElement[] = [];
    for (const token of tokens(this.tree)) {
      if (token.kind === 'open') {
        const variation = h('span', { class: 'variation', 'data-testid': 'variation' });
        box.append(variation);
        boxes.push(box);
        box = variation;
      } else if (token.kind === 'close') {
        box = boxes.pop() ?? list;
      } else {
        const node = token.node;
        const judged = node.judged?.judgement ?? null;
        if (token.number) box.append(h('span', { class: 'move-number' }, token.number));
        box.append(
          h(
            'button',
            {
              type: 'button',
              class: `move${judged ? ` ${judged}` : ''}`,
              'data-node': node.id,
              'data-ply': node.ply,
              'data-mainline': token.depth === 0 ? 'true' : null,
              'aria-current': node === this.current ? 'step' : null,
              title: describeMove(node),
              onclick: () => this.select(node),
            },
            node.san ?? '',
            node.judged?.glyph ? h('span', { class: 'glyph' }, node.judged.glyph) : null,
          ),
        );
      }
    }
    if (this.tree.root.children.length === 0) list.append(h('span', { class: 'muted' }, 'Play a move on the board.'));
    fill(this.moves, list);
    this.moves.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest' });
  }

  private renderComment(): void {
    const node = this.current;
    const parts: (string | HTMLElement)[] = [];
    const judged = node.judged;
    const before = node.parent?.eval;
    if (node.eval) parts.push(h('strong', { 'data-testid': 'current-eval' }, formatScore(node.eval.eval)), ' ');
    if (judged?.judgement) {
      const change = before && node.eval ? ` (${formatScore(before.eval)} → ${formatScore(node.eval.eval)})` : '';
      parts.push(
        h('span', { class: `judgement ${judged.judgement}` }, `${judged.san}${judged.glyph ?? ''} ${JUDGEMENT_WORD[judged.judgement]}${change}.`),
        judged.better_san ? ` Best was ${judged.better_san}.` : '',
      );
    } else if (node.eval?.best_san && node.eval.pv_san.length > 0) {
      parts.push(`Best: ${node.eval.pv_san.slice(0, 6).join(' ')}`);
    }
    if (!onMainline(node)) parts.push(h('span', { class: 'muted' }, ' (a variation)'));
    fill(this.comment, parts);
  }

  private renderGraph(): void {
    const positions = this.report?.positions ?? this.running?.positions ?? [];
    if (positions.length === 0) {
      fill(this.graph);
      return;
    }
    const shown = onMainline(this.current) ? this.current.ply : null;
    fill(
      this.graph,
      evalGraph(
        positions,
        this.report?.moves ?? [],
        shown,
        ply => {
          const node = ply === 0 ? this.tree.root : this.tree.mainline()[ply - 1];
          if (node) this.select(node);
        },
        this.running?.total ?? positions.length,
      ),
    );
  }

  private renderSummary(): void {
    const report = this.report;
    if (!report) {
      fill(this.summary);
      return;
    }
    const row = (color: Color, counts: Counts): HTMLElement =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, color === 'white' ? 'White' : 'Black'),
        h('td', { class: 'inaccuracy' }, counts.inaccuracy),
        h('td', { class: 'mistake' }, counts.mistake),
        h('td', { class: 'blunder' }, counts.blunder),
      );
    fill(
      this.summary,
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Inaccuracies ?!'), h('th', {}, 'Mistakes ?'), h('th', {}, 'Blunders ??'))),
        h('tbody', {}, row('white', report.summary.white), row('black', report.summary.black)),
      ),
    );
  }

  private renderExport(): void {
    const pgn = this.report?.pgn;
    if (!pgn) {
      fill(this.exportBox);
      return;
    }
    // Named as the game page's PGN is: players, date and start position.
    const download = h('a', { class: 'button', download: analysisFileName(pgn, this.tree.root.fen), 'data-testid': 'export-pgn' }, 'Download PGN');
    if (this.pgnUrl) URL.revokeObjectURL(this.pgnUrl);
    this.pgnUrl = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
    download.href = this.pgnUrl;
    const text = h('textarea', { readonly: true, rows: 4, class: 'pgn-text', 'data-testid': 'pgn-text', 'aria-label': 'PGN with evaluations' });
    text.value = pgn;
    fill(
      this.exportBox,
      download,
      h('button', { type: 'button', onclick: () => void copyText(pgn).then(() => this.say('PGN copied.')) }, 'Copy PGN'),
      text,
    );
  }
}
