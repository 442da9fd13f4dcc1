// The chessground board of a game: shows the live position (or an earlier one while browsing),
// offers the server's legal moves, turns gestures into legal moves (gestures.ts), previews
// castles while the king is picked up, and sets or clears the premove.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key, NumberPair, Piece, PiecesDiff } from '@lichess-org/chessground/types';
import type { CastlingRooks, Color, GameView, LegalMove } from '../types';
import { castlePreview, castleTargets } from './castlePreview';
import { choose } from './chooser';
import { destinations, resolveDrop } from './gestures';
import { EMPTY_FEN, type PlyPosition } from './replay';
import { settings } from '../settings/settings';

export interface BoardEvents {
  /** The user made a legal move on the board (already disambiguated). */
  move(move: LegalMove): void;
  /** The user set (UCI) or cleared (null) a premove; a clear names the premove it clears. */
  premove(uci: string | null, clears?: string): void;
}

const ROLE_NAMES: Record<string, string> = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' };

export class GameBoard {
  readonly cg: Api;
  private legal: LegalMove[] = [];
  /** The colour this browser plays (see `showLive`); null while it only watches. */
  private me: Color | null = null;
  private human: Color = 'white';
  private interactive = false;
  private live: GameView | null = null;
  private previewKey = '';
  /** The rooks that may still castle in the position shown (marked on their squares). */
  private rights: CastlingRooks | null = null;
  /** The squares that castle when the picked-up king is dropped there. */
  private targets: string[] = [];
  private readonly unbind: (() => void)[] = [];

  constructor(
    private readonly el: HTMLElement,
    private readonly events: BoardEvents,
  ) {
    this.cg = Chessground(el, {
      coordinates: true,
      autoCastle: false, // chessground's castling is the classical one; the server's position replaces it
      animation: { enabled: true, duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: {
        free: false,
        showDests: true,
        rookCastle: true,
        events: { after: (orig, dest) => void this.afterMove(orig, dest) },
      },
      premovable: {
        enabled: true,
        showDests: true,
        castle: true,
        events: {
          set: (orig, dest) => this.setPremove(orig, dest),
          // chessground calls this later (setTimeout), also when the board is updated from the
          // server: clear on the server only a premove that the server still holds.
          unset: () => {
            if (this.live?.premove) this.events.premove(null, this.live.premove);
          },
        },
      },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true, visible: true },
    });
    this.bindPreview();
    this.bindFreshBounds();
  }

  /** Shows the game's live position, ready for the move of `me` (the colour this browser plays;
   * null: it only watches) when it is their turn. */
  showLive(view: GameView, me: Color | null): void {
    this.live = view;
    this.me = me;
    this.legal = me === view.turn ? view.legal : [];
    this.human = me ?? 'white';
    const playing = view.status === 'playing' && me !== null;
    this.interactive = playing && view.turn === me && view.legal.length > 0;
    this.cg.set({
      fen: (view.fen ?? EMPTY_FEN).split(' ')[0],
      turnColor: view.turn,
      check: view.check !== null,
      lastMove: view.last_move ? [view.last_move.from as Key, view.last_move.to as Key] : undefined,
      movable: {
        // The player's colour also while the opponent thinks: chessground premoves need it.
        color: playing && me ? me : undefined,
        dests: destinations(view.legal),
      },
      // The player's settings: premoves, and moving by drag, click or both.
      premovable: { enabled: playing && view.turn !== me && settings().premoves },
      draggable: { enabled: settings().moveInput !== 'click' },
      selectable: { enabled: settings().moveInput !== 'drag' },
    });
    const premove = view.premove;
    if (premove && playing) {
      this.cg.state.premovable.current = [premove.slice(0, 2) as Key, premove.slice(2, 4) as Key];
    } else {
      this.cg.cancelPremove();
    }
    this.cg.setAutoShapes([]);
    this.rights = view.castling ?? null;
    this.targets = [];
    this.previewKey = '';
    this.applyMarks();
    // chessground keeps the king selected across an update from the server (a state pushed
    // over the socket while the king is held): show its castling targets again.
    this.refreshPreview(null);
    this.cg.state.dom.redraw();
  }

  /** Shows an earlier position of the game, not playable. */
  showPast(position: PlyPosition): void {
    this.interactive = false;
    this.cg.set({
      fen: position.fen.split(' ')[0],
      turnColor: position.turn,
      check: position.check,
      lastMove: position.lastMove ?? undefined,
      movable: { color: undefined, dests: new Map() },
      premovable: { enabled: false },
    });
    this.cg.setAutoShapes([]);
    this.rights = position.castling;
    this.targets = [];
    this.applyMarks();
  }

  /** Marks the rooks that may still castle (as Arena does) and, while the king is picked up,
   * the squares it castles on: chessground's custom square classes, styled in style.css. The
   * squares come from the server's view; nothing here knows the rules. */
  private applyMarks(): void {
    const custom = new Map<Key, string>();
    for (const square of [...(this.rights?.white ?? []), ...(this.rights?.black ?? [])]) {
      custom.set(square as Key, 'castle-right');
    }
    for (const square of this.targets) {
      custom.set(square as Key, custom.has(square as Key) ? 'castle-right castle-target' : 'castle-target');
    }
    this.cg.set({ highlight: { custom } });
  }

  setOrientation(color: Color): void {
    this.cg.set({ orientation: color });
  }

  destroy(): void {
    for (const off of this.unbind) off();
    this.cg.destroy();
  }

  private async afterMove(orig: Key, dest: Key): Promise<void> {
    this.cg.setAutoShapes([]);
    const resolution = resolveDrop(this.legal, orig, dest);
    let move: LegalMove | null = null;
    switch (resolution.kind) {
      case 'move':
        move = resolution.move;
        break;
      case 'promotion':
        move = await choose(
          this.el,
          'Promote to:',
          resolution.moves.map(m => ({
            label: ROLE_NAMES[m.promotion ?? 'q'] ?? m.san,
            detail: m.san,
            value: m,
            testId: `promote-${m.promotion ?? 'q'}`,
          })),
        );
        break;
      case 'ambiguous':
        // Spec §4: a one-square king move to the castling square is an ordinary king move,
        // but the castle looks the same on the board, so ask which one was meant.
        move = await choose(
          this.el,
          `The king move ${resolution.step.san} and castling ${resolution.castle.san} put the king on the same square. Which one do you mean?`,
          [
            { label: `King move ${resolution.step.san}`, detail: 'the rook stays', value: resolution.step, testId: 'ambiguous-step' },
            { label: `Castle ${resolution.castle.san}`, detail: 'the rook moves too', value: resolution.castle, testId: 'ambiguous-castle' },
          ],
        );
        break;
      case 'none':
        break;
    }
    if (!move) {
      if (this.live) this.showLive(this.live, this.me); // undo what chessground did on the board
      return;
    }
    if (move.castle) this.placeCastle(move);
    this.events.move(move);
  }

  /** Until the server's answer arrives, show the castle as it will stand (chessground put the king on the rook). */
  private placeCastle(move: LegalMove): void {
    const castle = move.castle;
    if (!castle) return;
    // Empty both start squares, then place both pieces (a key may be in both groups: a swap).
    const diff: PiecesDiff = new Map<Key, Piece | undefined>([
      [move.from as Key, undefined],
      [move.to as Key, undefined],
    ]);
    diff.set(castle.king_to as Key, { role: 'king', color: this.human });
    diff.set(castle.rook_to as Key, { role: 'rook', color: this.human });
    this.cg.setPieces(diff);
  }

  private setPremove(orig: Key, dest: Key): void {
    const piece = this.cg.state.pieces.get(orig);
    // A premoved pawn to the last rank becomes a queen: there is no time to ask.
    const promotes = piece?.role === 'pawn' && (dest[1] === '8' || dest[1] === '1');
    this.events.premove(`${orig}${dest}${promotes ? 'q' : ''}`);
  }

  /** chessground keeps the board's place on the page until the board is resized or the page
   * scrolls: when something above the board changes height (the start banner wrapping onto a
   * second line), presses would land a square or more off. Each press measures afresh. */
  private bindFreshBounds(): void {
    const fresh = (): void => this.cg.state.dom.bounds.clear();
    this.el.addEventListener('mousedown', fresh, { capture: true });
    this.el.addEventListener('touchstart', fresh, { capture: true, passive: true });
    this.unbind.push(() => {
      this.el.removeEventListener('mousedown', fresh, { capture: true });
      this.el.removeEventListener('touchstart', fresh, { capture: true });
    });
  }

  private bindPreview(): void {
    const onMove = (event: MouseEvent | TouchEvent): void => {
      const point = 'touches' in event ? event.touches[0] : event;
      if (point) this.refreshPreview([point.clientX, point.clientY]);
    };
    const onPress = (): void => {
      // chessground updates its selection in the same event: look afterwards.
      setTimeout(() => this.refreshPreview(null), 0);
    };
    document.addEventListener('mousemove', onMove, { passive: true });
    document.addEventListener('touchmove', onMove, { passive: true });
    this.el.addEventListener('mousedown', onPress);
    this.el.addEventListener('touchstart', onPress, { passive: true });
    document.addEventListener('mouseup', onPress);
    document.addEventListener('touchend', onPress);
    this.unbind.push(() => {
      document.removeEventListener('mousemove', onMove);
      document.removeEventListener('touchmove', onMove);
      this.el.removeEventListener('mousedown', onPress);
      this.el.removeEventListener('touchstart', onPress);
      document.removeEventListener('mouseup', onPress);
      document.removeEventListener('touchend', onPress);
    });
  }

  private refreshPreview(point: NumberPair | null): void {
    const state = this.cg.state;
    const orig = state.draggable.current?.orig ?? state.selected;
    const canCastle = this.interactive && orig !== undefined && this.legal.some(m => m.castle && m.from === orig);
    if (!canCastle || orig === undefined) {
      if (this.previewKey !== '') {
        this.previewKey = '';
        this.cg.setAutoShapes([]);
        this.targets = [];
        this.applyMarks();
      }
      return;
    }
    const hovered = point ? (this.cg.getKeyAtDomPos(point) ?? null) : null;
    const key = `${orig}:${hovered ?? ''}`;
    if (key === this.previewKey) return;
    this.previewKey = key;
    this.cg.setAutoShapes(castlePreview(this.legal, orig, this.human, hovered));
    // Both castles' target squares stay highlighted while the king is held.
    const targets = this.legal.filter(m => m.castle && m.from === orig).flatMap(castleTargets);
    if (targets.join() !== this.targets.join()) {
      this.targets = targets;
      this.applyMarks();
    }
  }
}
