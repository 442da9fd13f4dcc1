// The board editor (/editor), as lichess's with its Chess960 mode: pieces placed from two
// palettes (click a piece then squares, or drag it on), moved or dragged off the board in the
// pointer mode, erased with the eraser; a start position by number or at random, an empty board,
// the board flipped; the side to move, castling rights offered for the rooks that can hold them
// (the colour's rooks on its back rank either side of its king), en passant where a pawn just
// double-pushed; the FEN in X-FEN and Shredder-FEN; any FEN loaded. The server's rules library
// (GET /api/fen) says whether the position is legal and why not; play and analysis wait for it.
//
//   /editor?fen=<FEN>   opens with that position; the address follows the position

import type { Api } from '@lichess-org/chessground/api';
import { Chessground } from '@lichess-org/chessground';
import type { MouchEvent } from '@lichess-org/chessground/types';
import { api, describeError, request } from '../api';
import { copyText, fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import type { NewGame } from '../types';
import {
  castlingCandidates,
  COLORS,
  emptyPosition,
  epCandidates,
  placementField,
  piecesOf,
  readFen,
  sanitize,
  writeFen,
  type Color,
  type EditorPosition,
  type Role,
  type Side,
} from './position';

/** `GET /api/fen`'s answer for a legal position (docs/api.md). */
interface FenCheck {
  ok: true;
  xfen: string;
  shredder: string;
  start_id: number | null;
  turn: Color;
  legal_moves: number;
  check: boolean;
  outcome: string | null;
}

type Tool = 'pointer' | 'trash' | `${Color}-${Role}`;
type Verdict = { fen: string; check: FenCheck } | { fen: string; error: string };

const CLASSICAL = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const ROLES: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const ROLE_NAME: Record<Role, string> = { king: 'king', queen: 'queen', rook: 'rook', bishop: 'bishop', knight: 'knight', pawn: 'pawn' };
const SIDE_NAME: Record<Side, string> = { h: 'O-O (h-side)', a: 'O-O-O (a-side)' };
const CLOCKS: [string, string][] = [
  ['none', 'No clock'],
  ['3+2', '3+2'],
  ['5+3', '5+3'],
  ['10+5', '10+5'],
  ['15+10', '15+10'],
  ['30+20', '30+20'],
];
const LEVELS = [1110, 1300, 1500, 1700, 1900, 2100];
/** The longest FEN the load box takes (the server's bound). */
const MAX_FEN = 200;

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

function eventPosition(e: MouseEvent | TouchEvent): [number, number] | undefined {
  if ('clientX' in e) return [e.clientX, e.clientY];
  const touch = e.touches[0] ?? e.changedTouches[0];
  return touch ? [touch.clientX, touch.clientY] : undefined;
}

export function editorPage(params: URLSearchParams, navigate: Navigate): Page {
  return new EditorPage(params, navigate).page;
}

class EditorPage {
  readonly page: Page;
  private readonly cg: Api;
  private pos: EditorPosition = emptyPosition();
  private tool: Tool = 'pointer';
  private verdict: Verdict | null = null;
  private seq = 0;
  private timer = 0;
  private disposed = false;
  /** While a mouse button or finger is down on the board with a piece or the eraser: whether
   * the stroke places or erases, and the last square it touched. */
  private stroke: { erase: boolean; last: string } | null = null;

  private readonly boardEl = h('div', {
    class: 'board',
    'data-testid': 'board',
    role: 'group',
    'aria-label': 'Board editor: place, move and remove pieces',
  });
  private readonly sparesTop = h('div', { class: 'editor-spares', role: 'toolbar' });
  private readonly sparesBottom = h('div', { class: 'editor-spares', role: 'toolbar' });
  private readonly status = h('div', { class: 'editor-status', 'data-testid': 'editor-status', role: 'status', 'aria-live': 'polite' });
  private readonly turnSelect = h(
    'select',
    { 'data-testid': 'editor-turn', 'aria-label': 'Side to move' },
    h('option', { value: 'white' }, 'White to move'),
    h('option', { value: 'black' }, 'Black to move'),
  );
  private readonly castleSelects = {
    white: { h: this.castleSelect('white', 'h'), a: this.castleSelect('white', 'a') },
    black: { h: this.castleSelect('black', 'h'), a: this.castleSelect('black', 'a') },
  };
  private readonly epSelect = h('select', { 'data-testid': 'editor-ep', 'aria-label': 'En passant square' });
  private readonly xfenOut = h('input', { class: 'fen-out', readonly: true, 'data-testid': 'editor-xfen', 'aria-label': 'X-FEN', spellcheck: 'false' });
  private readonly shredderOut = h('input', {
    class: 'fen-out',
    readonly: true,
    'data-testid': 'editor-shredder',
    'aria-label': 'Shredder-FEN',
    spellcheck: 'false',
  });
  private readonly fenNote = h('p', { class: 'muted editor-note', 'data-testid': 'editor-fen-note' });
  private readonly fenInput = h('input', {
    class: 'fen-in',
    'data-testid': 'editor-fen-input',
    'aria-label': 'FEN to load',
    placeholder: 'Paste a FEN (X-FEN, Shredder-FEN or KQkq)',
    maxlength: MAX_FEN,
    spellcheck: 'false',
    autocomplete: 'off',
  });
  private readonly loadMessage = h('p', { class: 'editor-note', 'data-testid': 'editor-load-message', role: 'status' });
  private readonly idInput = h('input', {
    type: 'number',
    min: 0,
    max: 960,
    step: 1,
    value: '518',
    'data-testid': 'editor-start-id',
    'aria-label': 'Start position number (0 to 959; 960 is 0)',
  });
  private readonly opponentSelect = h(
    'select',
    { 'data-testid': 'editor-opponent', 'aria-label': 'Opponent' },
    h('option', { value: 'engine' }, 'the engine'),
    h('option', { value: 'human' }, 'a friend (you get a link)'),
    h('option', { value: 'hotseat' }, 'someone here (one screen)'),
  );
  private readonly colorSelect = h(
    'select',
    { 'data-testid': 'editor-color', 'aria-label': 'Your colour' },
    h('option', { value: 'turn' }, 'the side to move'),
    h('option', { value: 'white' }, 'White'),
    h('option', { value: 'black' }, 'Black'),
    h('option', { value: 'random' }, 'random'),
  );
  private readonly levelSelect = h(
    'select',
    { 'data-testid': 'editor-level', 'aria-label': 'Engine level' },
    LEVELS.map(elo => h('option', { value: String(elo), selected: elo === 1500 }, `Elo ${elo}`)),
  );
  private readonly clockSelect = h(
    'select',
    { 'data-testid': 'editor-clock', 'aria-label': 'Clock' },
    CLOCKS.map(([value, label]) => h('option', { value }, label)),
  );
  private readonly levelRow = h('label', { class: 'editor-row' }, 'Level ', this.levelSelect);
  private readonly playButton = h('button', { type: 'submit', class: 'primary', 'data-testid': 'editor-play', disabled: true }, 'Play from here');
  private readonly playMessage = h('p', { class: 'editor-note error', 'data-testid': 'editor-play-message', role: 'alert' });
  private readonly analyseLink = h('a', { class: 'button', 'data-testid': 'editor-analyse', 'aria-disabled': 'true' }, 'Analyse');

  constructor(
    params: URLSearchParams,
    private readonly navigate: Navigate,
  ) {
    this.cg = Chessground(this.boardEl, {
      coordinates: true,
      autoCastle: false,
      animation: { enabled: true, duration: 120 },
      highlight: { lastMove: false, check: false },
      movable: { free: true, color: 'both', showDests: false },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true, deleteOnDropOff: true },
      drawable: { enabled: false },
      events: { change: () => this.onBoardChange() },
    });
    for (const type of ['mousedown', 'touchstart', 'mousemove', 'touchmove'] as const) {
      this.boardEl.addEventListener(type, this.onBoardPointer, { capture: true, passive: false });
    }
    document.addEventListener('mouseup', this.endStroke);
    document.addEventListener('touchend', this.endStroke);

    this.turnSelect.addEventListener('change', () => {
      this.pos = sanitize({ ...this.pos, turn: this.turnSelect.value === 'black' ? 'black' : 'white', ep: null });
      this.refresh();
    });
    for (const color of COLORS) {
      for (const side of ['h', 'a'] as Side[]) {
        const select = this.castleSelects[color][side];
        select.addEventListener('change', () => {
          const castling = { white: { ...this.pos.castling.white }, black: { ...this.pos.castling.black } };
          castling[color][side] = select.value || null;
          this.pos = sanitize({ ...this.pos, castling });
          this.refresh();
        });
      }
    }
    this.epSelect.addEventListener('change', () => {
      this.pos = sanitize({ ...this.pos, ep: this.epSelect.value || null });
      this.refresh();
    });
    this.opponentSelect.addEventListener('change', () => {
      this.levelRow.hidden = this.opponentSelect.value !== 'engine';
    });

    const el = h(
      'section',
      { class: 'editor-page' },
      h(
        'div',
        { class: 'editor-board-column' },
        h('h1', {}, 'Board editor'),
        this.sparesTop,
        h('div', { class: 'board-wrap' }, this.boardEl),
        this.sparesBottom,
        h(
          'div',
          { class: 'editor-tools actions' },
          h('button', { type: 'button', 'data-testid': 'editor-flip', onclick: () => this.flip() }, 'Flip board'),
          h('button', { type: 'button', 'data-testid': 'editor-empty', onclick: () => this.clear() }, 'Empty board'),
        ),
        h(
          'form',
          { class: 'editor-start actions', onsubmit: (e: Event) => this.setStart(e) },
          h('label', {}, 'Start position ', this.idInput),
          h('button', { type: 'submit', 'data-testid': 'editor-start-set' }, 'Set'),
          h('button', { type: 'button', 'data-testid': 'editor-random', onclick: () => void this.loadStart(Math.floor(Math.random() * 960)) }, 'Random'),
        ),
      ),
      h(
        'aside',
        { class: 'editor-side' },
        this.status,
        h(
          'fieldset',
          { class: 'editor-fields' },
          h('legend', {}, 'Position'),
          h('label', { class: 'editor-row' }, 'Side to move ', this.turnSelect),
          COLORS.map(color =>
            h(
              'div',
              { class: 'editor-castling', 'data-testid': `castling-${color}` },
              h('span', { class: 'editor-castling-title' }, `${cap(color)} castling`),
              (['h', 'a'] as Side[]).map(side => h('label', { class: 'editor-row' }, `${SIDE_NAME[side]} `, this.castleSelects[color][side])),
            ),
          ),
          h('label', { class: 'editor-row' }, 'En passant ', this.epSelect),
        ),
        h(
          'div',
          { class: 'editor-fens' },
          this.fenRow('X-FEN', this.xfenOut, 'copy-xfen'),
          this.fenRow('Shredder-FEN', this.shredderOut, 'copy-shredder'),
          this.fenNote,
        ),
        h(
          'form',
          { class: 'editor-load', onsubmit: (e: Event) => this.loadTyped(e) },
          h('label', { class: 'editor-fen-label' }, 'Load a FEN', this.fenInput),
          h('button', { type: 'submit', 'data-testid': 'editor-fen-load' }, 'Load'),
          this.loadMessage,
        ),
        h(
          'form',
          { class: 'editor-play', onsubmit: (e: Event) => void this.play(e) },
          h('h2', {}, 'Play from here'),
          h('label', { class: 'editor-row' }, 'Against ', this.opponentSelect),
          h('label', { class: 'editor-row' }, 'You play ', this.colorSelect),
          this.levelRow,
          h('label', { class: 'editor-row' }, 'Clock ', this.clockSelect),
          h('div', { class: 'actions' }, this.playButton, this.analyseLink),
          this.playMessage,
        ),
      ),
    );
    this.page = {
      el,
      title: 'Board editor',
      dispose: () => {
        this.disposed = true;
        window.clearTimeout(this.timer);
        document.removeEventListener('mouseup', this.endStroke);
        document.removeEventListener('touchend', this.endStroke);
        this.cg.destroy();
      },
    };
    this.renderSpares();
    const fen = params.get('fen');
    if (fen) this.loadText(fen, true);
    else this.load(readFen(CLASSICAL) as EditorPosition);
  }

  // ---- the board and the palettes -----------------------------------------------------------

  private castleSelect(color: Color, side: Side): HTMLSelectElement {
    return h('select', { 'data-testid': `castle-${color}-${side}`, 'aria-label': `${cap(color)} ${SIDE_NAME[side]}` });
  }

  private fenRow(label: string, out: HTMLInputElement, testid: string): HTMLElement {
    const button = h('button', { type: 'button', 'data-testid': testid }, 'Copy');
    button.addEventListener('click', () => {
      void copyText(out.value).then(
        () => {
          button.textContent = 'Copied';
          window.setTimeout(() => (button.textContent = 'Copy'), 1500);
        },
        () => out.select(),
      );
    });
    out.addEventListener('focus', () => out.select());
    return h('label', { class: 'editor-fen' }, h('span', { class: 'editor-fen-name' }, label), h('span', { class: 'editor-fen-value' }, out, button));
  }

  /** The two palettes: the colour at the top of the board above it, the other below; each with
   * the pointer (move pieces), the six pieces and the eraser. */
  private renderSpares(): void {
    const bottom = this.cg.state.orientation as Color;
    for (const [row, color] of [
      [this.sparesTop, other(bottom)],
      [this.sparesBottom, bottom],
    ] as [HTMLElement, Color][]) {
      row.setAttribute('data-testid', `spares-${color}`);
      row.setAttribute('aria-label', `${cap(color)} pieces`);
      fill(
        row,
        this.spareButton('pointer', '↖', 'Move pieces (drag them; off the board removes them)'),
        ROLES.map(role => this.spareButton(`${color}-${role}`, null, `${cap(color)} ${ROLE_NAME[role]}: click squares or drag it on`)),
        this.spareButton('trash', '✕', 'Eraser: click or sweep squares to empty them'),
      );
    }
  }

  private spareButton(tool: Tool, text: string | null, title: string): HTMLElement {
    const [color, role] = tool.split('-') as [string, string | undefined];
    const button = h(
      'button',
      {
        type: 'button',
        class: `spare cg-wrap${role ? '' : ' spare-tool'}`,
        title,
        'aria-label': title,
        'aria-pressed': String(this.tool === tool),
        'data-tool': tool,
      },
      role ? pieceEl(color, role) : text,
    );
    button.addEventListener('click', () => this.setTool(tool));
    if (role) {
      const start = (e: MouseEvent | TouchEvent): void => {
        if ('button' in e && e.button !== 0) return;
        this.setTool(tool);
        if (e.cancelable) e.preventDefault();
        this.cg.dragNewPiece({ color: color as Color, role: role as Role }, e as MouchEvent, true);
      };
      button.addEventListener('mousedown', start);
      button.addEventListener('touchstart', start, { passive: false });
    }
    return button;
  }

  private setTool(tool: Tool): void {
    this.tool = tool;
    for (const b of [...this.sparesTop.children, ...this.sparesBottom.children] as HTMLElement[]) {
      b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
    }
    this.boardEl.dataset.tool = tool;
  }

  /** With a piece or the eraser chosen, a press on the board places or erases (a press on the
   * same piece takes it off), and moving while pressed goes on doing so; chessground does not
   * see these events. In the pointer mode chessground moves the pieces. */
  private readonly onBoardPointer = (e: MouseEvent | TouchEvent): void => {
    if (this.tool === 'pointer') return;
    // A piece dragged on from a palette is chessground's until it is dropped.
    if (this.cg.state.draggable.current?.newPiece) return;
    const down = e.type === 'mousedown' || e.type === 'touchstart';
    if (e instanceof MouseEvent && ((down && e.button !== 0) || (!down && e.buttons !== 1))) return;
    if (!down && !this.stroke) return;
    e.stopPropagation();
    if (e.cancelable) e.preventDefault();
    const at = eventPosition(e);
    const key = at ? this.cg.getKeyAtDomPos(at) : undefined;
    if (!key || (!down && this.stroke?.last === key)) return;
    const existing = this.cg.state.pieces.get(key);
    if (down) {
      const same = this.tool !== 'trash' && existing !== undefined && `${existing.color}-${existing.role}` === this.tool;
      this.stroke = { erase: this.tool === 'trash' || same, last: key };
    } else if (this.stroke) {
      this.stroke.last = key;
    }
    if (this.stroke?.erase) {
      if (!existing) return;
      this.cg.setPieces(new Map([[key, undefined]]));
    } else {
      const [color, role] = this.tool.split('-') as [Color, Role];
      if (existing?.color === color && existing.role === role) return;
      this.cg.setPieces(new Map([[key, { color, role }]]));
    }
    this.onBoardChange();
  };

  private readonly endStroke = (): void => {
    this.stroke = null;
  };

  private onBoardChange(): void {
    if (this.disposed) return;
    this.pos = sanitize({ ...this.pos, pieces: piecesOf(this.cg.state.pieces as Map<string, { color: Color; role: string }>) });
    this.refresh();
  }

  private flip(): void {
    this.cg.toggleOrientation();
    this.renderSpares();
  }

  private clear(): void {
    this.load(emptyPosition());
  }

  private setStart(e: Event): void {
    e.preventDefault();
    const n = Number(this.idInput.value);
    if (this.idInput.value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 960) {
      this.loadMessage.textContent = 'A start position is a number from 0 to 959 (960 is 0).';
      return;
    }
    void this.loadStart(n % 960);
  }

  private async loadStart(id: number): Promise<void> {
    try {
      const position = await api.position(id);
      if (this.disposed) return;
      this.idInput.value = String(id);
      this.load(readFen(position.fen) as EditorPosition);
      this.loadMessage.textContent = `Start position #${id}.`;
    } catch (error) {
      this.loadMessage.textContent = describeError(error);
    }
  }

  /** Puts `pos` on the board. */
  private load(pos: EditorPosition): void {
    this.pos = sanitize(pos);
    this.cg.set({ fen: placementField(this.pos.pieces) });
    this.refresh();
  }

  private loadTyped(e: Event): void {
    e.preventDefault();
    const text = this.fenInput.value.trim();
    if (text) this.loadText(text);
  }

  /** Loads a FEN as far as the editor can read it; the server's reasons when it refuses the FEN
   * as written (a right or an en-passant square the position cannot have is left out here).
   * `quiet`: no word when all is well (the position of the page's address). */
  private loadText(text: string, quiet = false): void {
    const read = readFen(text.slice(0, MAX_FEN));
    if ('error' in read) {
      this.loadMessage.textContent = `This FEN cannot be loaded: ${read.error}.`;
      if (this.pos.pieces.size === 0 && this.verdict === null) this.load(readFen(CLASSICAL) as EditorPosition);
      return;
    }
    this.load(read);
    this.loadMessage.textContent = '';
    void request<FenCheck>('GET', `/api/fen?${new URLSearchParams({ fen: text.slice(0, MAX_FEN) }).toString()}`).then(
      () => {
        if (!this.disposed && !quiet) this.loadMessage.textContent = 'Loaded.';
      },
      error => {
        if (this.disposed) return;
        this.loadMessage.textContent = `As written this FEN is refused (${stripField(describeError(error))}); the board shows what could be read of it.`;
      },
    );
  }

  // ---- the position's controls, its FEN and the server's verdict ------------------------------

  private refresh(): void {
    const pos = this.pos;
    this.turnSelect.value = pos.turn;
    for (const color of COLORS) {
      const candidates = castlingCandidates(pos.pieces, color);
      for (const side of ['h', 'a'] as Side[]) {
        const select = this.castleSelects[color][side];
        const rooks = candidates[side];
        fill(
          select,
          h('option', { value: '' }, rooks.length === 0 ? 'no rook' : 'none'),
          rooks.map(sq => h('option', { value: sq }, `rook ${sq}`)),
        );
        select.value = pos.castling[color][side] ?? '';
        select.disabled = rooks.length === 0;
      }
    }
    const eps = epCandidates(pos.pieces, pos.turn);
    fill(this.epSelect, h('option', { value: '' }, eps.length === 0 ? 'none possible' : 'none'), eps.map(sq => h('option', { value: sq }, sq)));
    this.epSelect.value = pos.ep ?? '';
    this.epSelect.disabled = eps.length === 0;

    const xfen = writeFen(pos, 'xfen');
    this.xfenOut.value = xfen;
    this.shredderOut.value = writeFen(pos, 'shredder');
    this.fenNote.textContent = '';
    if (!this.disposed && location.pathname.replace(/\/$/, '') === '/editor') {
      history.replaceState(history.state, '', `/editor?${new URLSearchParams({ fen: xfen }).toString()}`);
    }
    this.verdict = null;
    this.showVerdict();
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.check(xfen), 120);
  }

  private async check(fen: string): Promise<void> {
    const seq = ++this.seq;
    let verdict: Verdict;
    try {
      verdict = { fen, check: await request<FenCheck>('GET', `/api/fen?${new URLSearchParams({ fen }).toString()}`) };
    } catch (error) {
      verdict = { fen, error: stripField(describeError(error)) };
    }
    if (this.disposed || seq !== this.seq) return;
    this.verdict = verdict;
    this.showVerdict();
  }

  private showVerdict(): void {
    const v = this.verdict;
    this.status.classList.toggle('bad', v !== null && 'error' in v);
    this.status.classList.toggle('good', v !== null && 'check' in v);
    let playable = false;
    if (v === null) {
      this.status.dataset.state = 'checking';
      fill(this.status, h('strong', {}, 'Checking the position…'));
    } else if ('error' in v) {
      this.status.dataset.state = 'illegal';
      fill(this.status, h('strong', {}, 'Not a legal position'), h('span', { 'data-testid': 'editor-reason' }, `${cap(v.error)}.`));
    } else {
      const c = v.check;
      this.status.dataset.state = 'legal';
      this.xfenOut.value = c.xfen;
      this.shredderOut.value = c.shredder;
      if (c.xfen !== v.fen && this.pos.ep !== null && c.xfen.split(' ')[3] === '-') {
        this.fenNote.textContent = `En passant on ${this.pos.ep} has no legal capture here, so the FEN leaves it out.`;
      }
      const facts: string[] = [`${cap(c.turn)} to move`];
      if (c.outcome === 'checkmate') facts.push(`checkmate: ${cap(other(c.turn))} wins`);
      else if (c.outcome) facts.push(`drawn: ${c.outcome}`);
      else if (c.check) facts.push(`${c.turn} is in check`);
      if (!c.outcome || c.legal_moves > 0) facts.push(`${c.legal_moves} legal move${c.legal_moves === 1 ? '' : 's'}`);
      fill(
        this.status,
        h('strong', {}, c.start_id === null ? 'Legal position' : `Chess960 start position #${c.start_id}`),
        h('span', { 'data-testid': 'editor-facts' }, `${facts.join(' · ')}.`),
      );
      playable = c.legal_moves > 0;
      this.analyseLink.setAttribute('href', `/analysis?${new URLSearchParams({ fen: c.xfen }).toString()}`);
      this.analyseLink.removeAttribute('aria-disabled');
    }
    if (v === null || 'error' in v) {
      this.analyseLink.removeAttribute('href');
      this.analyseLink.setAttribute('aria-disabled', 'true');
    }
    this.playButton.disabled = !playable;
    this.playButton.title = playable ? '' : v !== null && 'check' in v ? 'The game is over in this position' : 'Only a legal position can be played';
  }

  private async play(e: Event): Promise<void> {
    e.preventDefault();
    const v = this.verdict;
    if (!v || !('check' in v) || v.check.legal_moves === 0) return;
    this.playMessage.textContent = '';
    const chosen = this.colorSelect.value;
    const color = chosen === 'white' || chosen === 'black' || chosen === 'random' ? chosen : v.check.turn;
    const [minutes, increment] = this.clockSelect.value.split('+').map(Number);
    const opponent = this.opponentSelect.value;
    const spec: NewGame = {
      start: { fen: v.check.xfen },
      color,
      ...(opponent === 'engine'
        ? { opponent: 'engine' as const, level: { elo: Number(this.levelSelect.value) || 1500 }, study_ms: 0 }
        : opponent === 'hotseat'
          ? { opponent: 'hotseat' as const }
          : { opponent: 'human' as const }),
      time_control:
        minutes === undefined || increment === undefined || Number.isNaN(minutes)
          ? null
          : { initial_ms: Math.round(minutes * 60_000), increment_ms: increment * 1000 },
    };
    this.playButton.disabled = true;
    try {
      const view = await api.newGame(spec, { startKind: 'import' });
      if (!this.disposed) this.navigate(`/game/${view.key}`);
    } catch (error) {
      this.playMessage.textContent = describeError(error);
      this.showVerdict();
    }
  }
}

/** A piece as chessground draws it (its piece set's image). */
function pieceEl(color: string, role: string): HTMLElement {
  const el = document.createElement('piece');
  el.className = `${color} ${role}`;
  return el;
}

/** The server's message without its leading field name (`fen: black has no king`). */
function stripField(message: string): string {
  return message.replace(/^fen: /, '');
}

