// The game page (/game/<key>): board, clocks, moves, actions and export around one game. The
// key in the URL is all the state there is, so a reload (or a server restart) restores the game.
// The players' names show their accounts' ratings (and a rated game's change once it ended); a
// logged-in player plays from any browser where they are logged in (the server names their
// colour in the view's `X-Seat-Color`, seats.ts).

import { knownUser, loginHref, onAccount } from '../account';
import { api, ApiError, describeError, sentence } from '../api';
import { startLabel } from '../backRank';
import { GameBoard } from '../board/gameBoard';
import { castleLabel, castles } from '../board/gestures';
import { firstMoveNumber, plyPositions, type PlyPosition } from '../board/replay';
import { copyText, fill, h } from '../dom';
import { randomSeed } from '../drawMethods';
import { ratingBadge, speedLabel } from '../rating';
import { originOf } from '../origins';
import type { Page } from '../page';
import type { Ack, Color, DrawnRecord, DrawSpec, GameView, NewGame, SocketMessage, StartSpec } from '../types';
import { Clocks, formatClock } from './clocks';
import { drawnInfo } from './drawnInfo';
import { formatLevel, formatScore, formatTimeControl, named, playedOutside, resultMessage, shownName } from './describe';
import { moveList } from './moveList';
import { GameSocket } from './socket';
import { GameChat } from './chat';
import { followRematch, seatColorOf } from '../seats';
import { placementFen, placementPanel } from './placement';
import { settings } from '../settings/settings';
import { playSound, soundForSan } from '../settings/sound';

export function gamePage(key: string): Page {
  return new GamePage(key).page;
}

class GamePage {
  readonly page: Page;
  private view: GameView | null = null;
  private positions: PlyPosition[] = [];
  /** The ply shown while browsing earlier positions; null follows the game. */
  private shownPly: number | null = null;
  private orientation: Color | null = null;
  private thinking = '';
  private connected = true;
  /** While in study time: when the view with `study_ms` arrived, for the local countdown. */
  private studyFrom = 0;
  private studyTimer: number | undefined;
  /** Counts down to a claim while the opponent is away (games between people). */
  private awayTimer: number | undefined;
  /** When (performance.now()) the opponent left, by the last view; null while they are here. */
  private awaySince: number | null = null;
  /** This browser created or joined the game and holds a seat; without one the page watches
   * (or, while a seat is open, offers to join). */
  private seated: boolean;
  /** Between people, this player's premove (the views everyone gets leave it out; protocol 2
   * tells it to this player alone), and the version it was told at. */
  private ownPremove: string | null = null;
  private ownPremoveVersion = 0;
  /** The version at which this player's draw offer stood, until a view as new is shown: the
   * view with the offer standing may never be shown (the socket connected after it, or the
   * catch-up read the newer view), and the notice of its decline must not depend on it. */
  private offeredAt: number | null = null;
  /** This player's premove requests, sent one after another in the order they were made. */
  private premoves: Promise<unknown> = Promise.resolve();
  /** Asks for the whole view when an acknowledged change has not come on the socket. */
  private catchUp: number | undefined;
  private readonly board: GameBoard;
  private readonly clocks: Clocks;
  /** Opened once the game is known to exist (an unknown key gets no socket and no retries). */
  private socket: GameSocket | null = null;
  /** The low-time warning sounds once a game. */
  private lowTimeSounded = false;
  private disposed = false;

  // The parts of the page that change.
  private readonly banner = h('div', { class: 'start-banner', 'data-testid': 'start-banner' });
  private readonly topPlayer = h('div', { class: 'player top' });
  private readonly bottomPlayer = h('div', { class: 'player bottom' });
  private readonly castleButtons = h('div', { class: 'castle-buttons', 'aria-label': 'Castling' });
  /** "Rated · Blitz" or "Casual", for a game between people. */
  private readonly kind = h('p', { class: 'game-kind', 'data-testid': 'game-kind' });
  private readonly status = h('p', { class: 'status', role: 'status', 'data-testid': 'status' });
  private readonly message = h('p', { class: 'message', role: 'alert', 'data-testid': 'message' });
  private readonly thinkingLine = h('p', { class: 'thinking', 'data-testid': 'thinking' });
  private readonly study = h('div', { class: 'study' });
  /** A game between people waiting for its second player: the link to send, or the join form. */
  private readonly invite = h('div', { class: 'invite', 'data-testid': 'invite' });
  /** Northam's placement while the players place the start position. */
  private readonly placing = h('div', { class: 'placing' });
  /** The piece picked for the next placement. */
  private placePiece: string | null = null;
  /** When the last view came (performance.now()), for the placement's countdown. */
  private viewAt = 0;
  private placeTimer: number | undefined;
  private readonly moves = h('div', { class: 'moves-box', 'data-testid': 'moves' });
  /** Between people: the players' and the spectators' chat (chat.ts). */
  private readonly chat: GameChat;
  private readonly actions = h('div', { class: 'actions' });
  /** After the game: rematch, a new game with the same settings, analysis. */
  private readonly afterGame = h('div', { class: 'after-game', 'data-testid': 'after-game' });
  /** The castle buttons and the move box, right under the board; hidden for whoever cannot
   * move (a spectator, a game waiting, placing or over). */
  private readonly boardControls = h('div', { class: 'board-controls', 'data-testid': 'board-controls' });
  /** Download and copy the game (none while its start is not known). */
  private readonly exportButtons = h('span', { class: 'export-buttons' });
  private readonly exportNote = h('span', { class: 'muted', 'aria-live': 'polite', 'data-testid': 'export-note' });
  /** Whether the export buttons were drawn for a known start (null: not drawn yet). */
  private exportFor: boolean | null = null;
  private readonly analysis = h('div', { class: 'analysis', 'data-testid': 'analysis' });
  private readonly info = h('dl', { class: 'info' });
  private readonly moveInput = h('input', {
    type: 'text',
    name: 'move',
    id: 'move-input',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: 'e4, Nf3, O-O, e2e4',
    'data-testid': 'move-input',
  });

  constructor(private readonly key: string) {
    this.seated = api.seated(key);
    this.chat = new GameChat(key);
    const boardEl = h('div', {
      class: 'board',
      'data-testid': 'board',
      role: 'group',
      'aria-label': 'Board: drag or click the pieces, or type a move in the box below it',
    });
    const el = h(
      'section',
      { class: 'game-page' },
      h(
        'div',
        { class: 'board-column' },
        this.banner,
        this.topPlayer,
        h('div', { class: 'board-wrap' }, boardEl),
        this.bottomPlayer,
        this.boardControls,
      ),
      h(
        'aside',
        { class: 'side-column' },
        this.kind,
        this.status,
        this.message,
        this.thinkingLine,
        this.invite,
        this.placing,
        this.study,
        h(
          'div',
          { class: 'move-nav', role: 'group', 'aria-label': 'Browse moves' },
          this.navButton('«', 'First position (Home)', () => this.showPly(0)),
          this.navButton('‹', 'Previous move (←)', () => this.showPly(this.currentPly() - 1)),
          this.navButton('›', 'Next move (→)', () => this.showPly(this.currentPly() + 1)),
          this.navButton('»', 'Current position (End)', () => this.showPly(null)),
        ),
        this.moves,
        this.chat.el,
        this.afterGame,
        this.actions,
        this.analysis,
        h('div', { class: 'export', 'data-testid': 'export' }, this.exportButtons, this.exportNote),
        this.info,
      ),
    );
    fill(
      this.boardControls,
      this.castleButtons,
      h(
        'form',
        { class: 'move-form', onsubmit: (event: Event) => this.submitText(event) },
        h('label', { for: 'move-input' }, 'Your move'),
        this.moveInput,
        h('button', { type: 'submit', 'data-testid': 'play-move' }, 'Play'),
      ),
    );
    this.board = new GameBoard(boardEl, {
      move: move => void this.play(move.uci),
      premove: (uci, clears) => {
        // In order: a later request must not overtake an earlier one. Its answer is the whole
        // change (the premove is this player's alone): nothing else is to be expected.
        this.premoves = this.premoves.then(async () => {
          const said = this.message.textContent;
          try {
            const ack = await api.premove(this.key, uci, clears);
            this.clearMessage(said);
            this.takePremove(ack.premove ?? null, ack.version);
          } catch (error) {
            this.showError(error);
          }
        });
      },
    });
    this.clocks = new Clocks((white, black, running) => this.renderClocks(white, black, running));
    const onKey = (event: KeyboardEvent): void => this.onKey(event);
    document.addEventListener('keydown', onKey);
    // Whether the visitor is logged in decides how they may join (the server says it after
    // the page has been drawn).
    const stopAccount = onAccount(() => this.renderInvite());
    this.page = {
      el,
      title: 'Game',
      dispose: () => {
        this.disposed = true;
        document.removeEventListener('keydown', onKey);
        stopAccount();
        this.socket?.close();
        this.clocks.stop();
        window.clearInterval(this.studyTimer);
        window.clearInterval(this.awayTimer);
        window.clearInterval(this.placeTimer);
        window.clearTimeout(this.catchUp);
        this.board.destroy();
      },
    };
    this.status.textContent = 'Loading the game…';
    if (!GAME_KEY.test(key)) {
      // No game can have this key: nothing to ask the server, no socket.
      this.noSuchGame();
      return;
    }
    api.game(key).then(
      view => {
        if (this.disposed) return;
        this.openSocket();
        // The answer may tell that this browser plays the game through the account logged in
        // (no token here): the page then acts as that player, even for a view it has shown.
        const seated = api.seated(key);
        if (seated === this.seated) {
          this.apply(view);
          return;
        }
        this.seated = seated;
        this.orientation = null;
        this.apply(view, true);
        if (this.view && this.orientation === null) {
          this.orientation = this.me() ?? 'white';
          this.board.setOrientation(this.orientation);
          this.render();
        }
      },
      error => {
        if (this.disposed) return;
        if (error instanceof ApiError && error.status === 404) {
          this.noSuchGame();
          return;
        }
        this.showError(error);
        // Not answered (the server restarting?): the socket brings the game once it is back.
        this.openSocket();
      },
    );
  }

  /** The game's WebSocket, once: it reconnects by itself after a drop. */
  private openSocket(): void {
    if (this.socket || this.disposed) return;
    this.socket = new GameSocket(
      api.socketUrl(this.key),
      message => this.onSocket(message),
      connected => {
        // Back after a drop: the chat lines missed meanwhile are read again.
        if (connected && !this.connected) void this.chat.reload();
        this.connected = connected;
        this.renderStatus();
      },
    );
  }

  /** The key names no game on this server: a page that says so, without a board. */
  private noSuchGame(): void {
    this.socket?.close();
    fill(
      this.page.el,
      h(
        'div',
        { class: 'no-such-game', 'data-testid': 'no-such-game' },
        h('h1', {}, 'No such game'),
        h(
          'p',
          {},
          'There is no game with the key ',
          h('code', {}, this.key.slice(0, 64)),
          ' on this server: the link may be mistyped or cut short, or the game was deleted.',
        ),
        h(
          'p',
          {},
          h('a', { href: '/', class: 'button' }, 'Play a new game'),
          ' ',
          h('a', { href: '/games', class: 'button' }, 'The games played here'),
        ),
      ),
    );
    this.page.el.classList.remove('game-page');
    this.page.title = 'No such game';
    document.title = 'No such game · chess960';
  }

  // ---- state ----

  /** Takes a game view from the server. HTTP answers and WebSocket states can overtake each
   * other (the engine's reply may arrive before the answer to the move it replies to): a view
   * older than the one shown, by its version, is dropped, and one of the same version too (each
   * version is shown once) unless `again` (the page's own standing changed: it joined). */
  private apply(view: GameView, again = false): void {
    const previous = this.view;
    if (previous?.version !== undefined && view.version !== undefined) {
      const stale = again ? view.version < previous.version : view.version <= previous.version;
      if (stale) return;
    }
    const movesChanged =
      !previous || previous.moves.length !== view.moves.length || previous.moves.at(-1)?.uci !== view.moves.at(-1)?.uci;
    this.view = view;
    if (movesChanged) {
      this.positions = plyPositions(view);
      this.shownPly = null; // a new move brings the board back to the game
    }
    if (movesChanged && (view.version ?? 0) >= this.ownPremoveVersion) this.ownPremove = null;
    // Between people the view leaves the premove out: this player's own is kept here.
    if (view.human === null && view.premove === null) view.premove = this.ownPremove;
    if (this.orientation === null || (view.hotseat && this.seated && turnsBoard())) {
      // At one device the board may turn to the side to move after each move.
      const side = this.me() ?? view.human ?? 'white';
      if (side !== this.orientation) {
        this.orientation = side;
        this.board.setOrientation(side);
      }
    }
    if (view.status !== 'playing' || !view.engine_thinking) this.thinking = '';
    this.studyFrom = performance.now();
    this.viewAt = performance.now();
    const me = this.me();
    // Between people, the offerer learns that their draw offer was declined: the opponent
    // said no, or moved instead (a move declines it; the offerer's own move keeps it).
    if (
      previous &&
      me !== null &&
      !view.hotseat &&
      view.human === null &&
      (previous.draw_offered_by === me || (this.offeredAt !== null && (view.version ?? 0) > this.offeredAt)) &&
      view.draw_offered_by === null &&
      view.status === 'playing'
    ) {
      this.message.textContent =
        view.moves.length > previous.moves.length
          ? 'Your draw offer was declined: your opponent moved instead.'
          : 'Your draw offer was declined.';
    }
    if (this.offeredAt !== null && (view.version ?? 0) >= this.offeredAt) this.offeredAt = null;
    const theirs = me && view.away ? view.away[me === 'white' ? 'black_ms' : 'white_ms'] : null;
    this.awaySince = theirs === null || theirs === undefined ? null : performance.now() - theirs;
    // Both agreed to a rematch: the players go on to it (with their seats), at once.
    if (view.rematch && this.seated && view.human === null && me !== null) {
      followRematch(this.key, view.rematch);
      goTo(`/game/${view.rematch}`);
      return;
    }
    this.clocks.update(view.clocks);
    this.announce(previous, view);
    this.render();
    this.chat.update(view, view.hotseat ? null : me);
  }

  /** What a change says aloud and in the tab: a move's sound (capture, check, castling), the
   * end's, and "Your turn" leading the title while this player is to move. */
  private announce(previous: GameView | null, view: GameView): void {
    const me = this.me();
    if (previous && previous.version !== view.version) {
      const last = view.moves.at(-1);
      if (view.moves.length > previous.moves.length && last) playSound(soundForSan(last.san));
      if (previous.status !== 'finished' && view.status === 'finished') playSound('end');
      if (!view.hotseat && previous.status === 'waiting' && view.status !== 'waiting' && me !== null) playSound('notify');
    }
    const start = view.start_id !== null ? `#${view.start_id}` : view.start_fen === null ? 'placing' : 'set-up';
    const yourTurn = view.status === 'playing' && me !== null && view.turn === me && !view.hotseat;
    document.title = `${yourTurn ? 'Your turn · ' : ''}${start} ${shownName(view, 'white')} – ${shownName(view, 'black')} · chess960`;
    // Keyboard first: the move box takes the typing whenever this player is to move.
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLTextAreaElement;
    if (yourTurn && settings().moveInput === 'keyboard' && !typing) {
      requestAnimationFrame(() => this.moveInput.focus({ preventScroll: true }));
    }
  }

  /** Protocol 2's move event: the move and what changed with it, applied to the view shown. A
   * client that missed an event (a gap in the moves) asks for the whole state. */
  private applyMove(message: Extract<SocketMessage, { type: 'move' }>): void {
    const view = this.view;
    if (!view || message.version <= (view.version ?? 0)) return;
    if (view.moves.length !== message.ply - 1) {
      this.socket?.send({ type: 'state' });
      return;
    }
    this.apply({ ...view, ...message.now, moves: [...view.moves, message.move], version: message.version });
  }

  /** This player's premove as the server holds it, told at `version`. */
  private takePremove(premove: string | null, version: number): void {
    if (version < this.ownPremoveVersion) return;
    this.ownPremove = premove;
    this.ownPremoveVersion = version;
    const view = this.view;
    if (view && view.human === null) {
      view.premove = premove;
      this.renderBoard();
    }
  }

  /** An action was acknowledged at `version`: its change comes on the socket; if it has not
   * come a little later (the socket is reconnecting), the whole view is read instead. */
  private expect(version: number): void {
    window.clearTimeout(this.catchUp);
    this.catchUp = window.setTimeout(() => {
      if ((this.view?.version ?? 0) < version) {
        api.game(this.key).then(
          view => this.apply(view),
          () => {},
        );
      }
    }, 1500);
  }

  private onSocket(message: SocketMessage): void {
    switch (message.type) {
      case 'state':
        this.apply({ ...message.game, version: message.version });
        break;
      case 'move':
        this.applyMove(message);
        break;
      case 'premove':
        this.takePremove(message.premove, message.version);
        break;
      case 'clock':
        this.clocks.update(message);
        break;
      case 'deleted':
        this.socket?.close();
        this.status.textContent = 'This game was deleted.';
        fill(this.actions);
        fill(this.afterGame);
        break;
      case 'error':
        this.message.textContent = message.error;
        break;
      case 'chat':
        this.chat.take(message);
        break;
      case 'thinking':
        this.thinking = `depth ${message.depth} · ${formatScore(message.score)} · ${message.pv_san.slice(0, 8).join(' ')}`;
        this.renderThinking();
        break;
    }
  }

  private currentPly(): number {
    return this.shownPly ?? this.view?.moves.length ?? 0;
  }

  private showPly(ply: number | null): void {
    if (!this.view) return;
    const last = this.view.moves.length;
    if (ply !== null) ply = Math.max(0, Math.min(last, ply));
    this.shownPly = ply === null || ply === last ? null : ply;
    this.renderBoard();
    this.renderMoves();
  }

  // ---- requests ----

  private async play(move: string): Promise<void> {
    const view = this.view;
    if (!view) return;
    const ok = await this.act(() => api.move(this.key, move, view.moves.length));
    if (ok) this.moveInput.value = '';
    else if (this.view) this.board.showLive(this.view, this.me()); // undo the move on the board
  }

  /** Offers a draw; a standing offer is remembered at its version (`offeredAt`). */
  private offerDraw(): Promise<boolean> {
    return this.act(async () => {
      const ack = await api.drawAction(this.key, 'offer');
      if (ack.draw_offer !== 'declined') this.offeredAt = ack.version;
      return ack;
    });
  }

  /** An action's answer clears what the message line said when the action started (`said`),
   * not a notice that a state on the socket put there meanwhile (a declined draw offer). */
  private clearMessage(said: string | null): void {
    if (this.message.textContent === said) this.message.textContent = '';
  }

  /** Runs one action; its answer (an acknowledgement, whose change comes on the socket, or a
   * whole game view) is taken, its error shown. */
  private async act(request: () => Promise<Ack | GameView>): Promise<boolean> {
    const said = this.message.textContent;
    try {
      const answer = await request();
      this.clearMessage(said);
      if ('moves' in answer) this.apply(answer);
      else this.expect(answer.version);
      if (answer.draw_offer === 'declined') {
        // The server's reason, in the same words as the terminal's (e.g. "no draw before move 31").
        const why = answer.draw_offer_reason;
        this.message.textContent = why ? `The engine declines the draw offer: ${why}.` : 'The engine declines the draw offer.';
      }
      return true;
    } catch (error) {
      this.showError(error);
      return false;
    }
  }

  private showError(error: unknown): void {
    this.message.textContent = describeError(error);
    if (!this.view) this.status.textContent = 'The game could not be loaded.';
  }

  private submitText(event: Event): void {
    event.preventDefault();
    const text = this.moveInput.value.trim();
    if (text) void this.play(text);
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) {
      // In the move box the arrows still step through the moves: up and down always (a
      // one-line box has no use for them), left, right, Home and End while it is empty.
      if (target !== this.moveInput) return;
      const always = event.key === 'ArrowUp' || event.key === 'ArrowDown';
      const whileEmpty = ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key) && this.moveInput.value === '';
      if (!always && !whileEmpty) return;
    }
    const actions: Record<string, () => void> = {
      ArrowLeft: () => this.showPly(this.currentPly() - 1),
      ArrowRight: () => this.showPly(this.currentPly() + 1),
      ArrowUp: () => this.showPly(0),
      Home: () => this.showPly(0),
      ArrowDown: () => this.showPly(null),
      End: () => this.showPly(null),
      f: () => this.flip(),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  private flip(): void {
    this.orientation = this.orientation === 'black' ? 'white' : 'black';
    this.board.setOrientation(this.orientation);
    if (this.view) this.renderPlayers();
  }

  // ---- rendering ----

  private render(): void {
    const view = this.view;
    if (!view) return;
    this.banner.classList.toggle('banner-placing', Boolean(view.placement));
    fill(
      this.banner,
      h('span', { class: 'banner-title' }, 'Start position:'),
      ' ',
      view.placement ? 'placed by the players, Black first (Northam)' : startLabel(view.start_id, view.back_rank),
    );
    this.renderBoard();
    this.renderPlayers();
    // A game played elsewhere is neither rated nor casual here.
    const people = view.human === null && !playedOutside(view);
    this.kind.textContent = people ? (view.rated ? `Rated · ${speedLabel(view.rated)}` : 'Casual') : '';
    this.renderStatus();
    this.renderThinking();
    this.renderStudy();
    this.renderPlacement();
    this.renderMoves();
    this.renderCastleButtons();
    this.renderActions();
    this.renderAfterGame();
    this.renderAnalysis();
    const over = view.status === 'finished';
    const me = this.me();
    // Only a player of a game being played has a move box: a spectator, a game waiting for
    // its second player, its placement or a game over shows none.
    const noMove = over || me === null || view.status === 'waiting' || view.status === 'placing';
    this.moveInput.disabled = noMove;
    this.moveInput.placeholder = 'e4, Nf3, O-O, e2e4';
    this.boardControls.hidden = noMove;
    this.renderExport();
    fill(
      this.info,
      view.event ? h('dt', {}, 'Event') : null,
      view.event ? h('dd', { 'data-testid': 'event-info' }, eventLine(view.event)) : null,
      view.level ? h('dt', {}, 'Level') : null,
      view.level ? h('dd', {}, formatLevel(view.level)) : null,
      h('dt', {}, 'Time control'),
      h('dd', {}, formatTimeControl(view)),
      people ? h('dt', {}, 'Game') : null,
      people ? h('dd', {}, view.rated ? `Rated (${view.rated}): the result changes both players’ ratings` : 'Casual: no rating changes') : null,
      view.start_fen === null ? null : h('dt', {}, 'Start FEN'),
      view.start_fen === null ? null : h('dd', { class: 'fen' }, view.start_fen),
      drawnInfo(view),
    );
  }

  private renderBoard(): void {
    const view = this.view;
    if (!view) return;
    if (view.placement) {
      // The pieces placed so far, on an otherwise empty back rank.
      this.board.showPast({ fen: placementFen(view.placement.rank), lastMove: null, turn: 'white', check: false, castling: null });
      return;
    }
    const position = this.shownPly === null ? undefined : this.positions[this.shownPly];
    if (position) this.board.showPast(position);
    else this.board.showLive(view, this.me());
  }

  private renderPlayers(): void {
    const view = this.view;
    if (!view) return;
    const bottom = this.orientation ?? this.me() ?? 'white';
    const top: Color = bottom === 'white' ? 'black' : 'white';
    for (const [el, color] of [
      [this.topPlayer, top],
      [this.bottomPlayer, bottom],
    ] as const) {
      const name = shownName(view, color);
      const side = view.sides?.[color];
      const person = side?.type === 'human' ? side : null;
      // An engine event's engine: its name is the player's, and it says it is an engine.
      const program = side?.type === 'outside' && side.program;
      fill(
        el,
        h('span', { class: `swatch ${color}`, 'aria-hidden': 'true' }),
        h(
          'span',
          { class: 'name', 'data-testid': `name-${color}` },
          person?.account ? h('a', { href: `/@/${encodeURIComponent(person.account)}`, class: 'player-link' }, name) : name,
          person?.rating ? ' ' : '',
          person?.rating ? ratingBadge(person.rating, `rating-${color}`) : null,
          color === this.me() && !view.hotseat ? ' (you)' : '',
        ),
        program ? h('span', { class: 'muted', 'data-testid': `program-${color}` }, ' (engine)') : null,
        view.clocks ? h('span', { class: 'clock', 'data-color': color, 'data-testid': `clock-${color}` }) : null,
      );
    }
    this.clocks.update(view.clocks);
  }

  private renderClocks(white: number, black: number, running: Color | null): void {
    this.warnLowTime(white, black);
    for (const el of this.page?.el.querySelectorAll<HTMLElement>('.clock') ?? []) {
      const color = el.dataset.color as Color;
      el.textContent = formatClock(color === 'white' ? white : black);
      el.classList.toggle('running', running === color);
      el.classList.toggle('low', (color === 'white' ? white : black) < 20_000);
    }
  }

  /** Sounds once a game when this player's clock runs low: under a sixth of its start, at most 20 s. */
  private warnLowTime(white: number, black: number): void {
    const view = this.view;
    const me = this.me();
    if (!view || !view.time_control || me === null || view.hotseat || view.status !== 'playing') return;
    const left = me === 'white' ? white : black;
    if (left > Math.min(20_000, view.time_control.initial_ms / 6) || this.lowTimeSounded) return;
    this.lowTimeSounded = true;
    playSound('lowTime');
  }

  private renderStatus(): void {
    const view = this.view;
    if (!view) return;
    let text: string;
    if (view.status === 'finished') text = resultMessage(view);
    else if (view.status === 'waiting') {
      text =
        this.me() !== null
          ? 'Waiting for your opponent: send them the link to this game. The game starts when they join.'
          : 'This game waits for its second player.';
    } else if (view.status === 'study') text = 'Study time: look at the start position.';
    else if (view.status === 'placing') {
      const to = view.placement?.to_place;
      text = to === this.me() && !view.hotseat ? 'Your turn to place a piece.' : `${to === 'white' ? 'White' : 'Black'} places a piece.`;
    }
    else if (view.hotseat && this.seated) {
      const name = shownName(view, view.turn);
      text = `${view.turn === 'white' ? 'White' : 'Black'} (${name}) to move${view.check ? ', in check' : ''}.`;
    } else if (view.turn === this.me()) text = view.check ? 'Your move: you are in check.' : 'Your move.';
    else if (view.human === null) {
      text = this.me() !== null ? 'Your opponent is to move.' : `${view.turn === 'white' ? 'White' : 'Black'} is to move.`;
    } else if (view.turn === view.human) text = 'The player is to move.';
    else if (view.engine_queue) {
      const ahead = view.engine_queue.ahead;
      text = `The engine waits for a free search thread (${ahead} search${ahead === 1 ? '' : 'es'} before it; the server is busy).`;
    } else text = view.engine_thinking ? 'The engine is thinking…' : 'The engine is to move.';
    if (playedOutside(view) && view.status !== 'finished') {
      text += ' You are watching: this game was played outside this server (imported), so it cannot be continued here.';
    } else if (!view.has_seat && view.status !== 'finished') {
      text += ` You are watching: this game was not started in a browser (or by an older server), so it can only be continued on the terminal, with 'chess960 play --resume ${view.id}'.`;
    } else if (!this.seated && view.status !== 'finished' && view.status !== 'waiting') {
      text += view.human === null ? ' You are watching.' : ' You are watching: only the browser that started this game can play it.';
    }
    if (view.paused && view.status === 'playing') text += ' (The clocks are stopped: the server restarted since the last move.)';
    else if (view.status === 'playing' && view.clocks && view.abortable && !view.clocks.running) {
      text += ' The clocks start once both sides have moved.';
    }
    if (this.seated && view.status === 'playing' && typeof view.abandon_ms === 'number') {
      // A time of day: it stays right without a ticking timer.
      const at = new Date(Date.now() + view.abandon_ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      text += ` Without a first move the game is aborted at ${at}.`;
    }
    if (!this.connected && view.status !== 'finished') text += ' (Reconnecting to the server…)';
    this.status.textContent = text;
    this.status.classList.toggle('over', view.status === 'finished');
  }

  private renderThinking(): void {
    const view = this.view;
    const show = view?.status === 'playing' && view.engine_thinking && this.thinking !== '';
    this.thinkingLine.textContent = show ? `Engine: ${this.thinking}` : '';
  }

  private renderStudy(): void {
    const view = this.view;
    window.clearInterval(this.studyTimer);
    this.studyTimer = undefined;
    if (!view || view.status !== 'study') {
      fill(this.study);
      return;
    }
    const left = h('span', { class: 'study-left', 'data-testid': 'study-left' });
    const studyMs = view.study_ms;
    if (typeof studyMs === 'number') {
      const tick = (): void => {
        left.textContent = ` ${formatClock(studyMs - (performance.now() - this.studyFrom))} left.`;
      };
      tick();
      this.studyTimer = window.setInterval(tick, 250);
    }
    fill(
      this.study,
      h('p', {}, "Take your time to study the start position: play starts when the study time is over (and the clocks once both sides have moved).", left),
      h(
        'button',
        { type: 'button', 'data-testid': 'start-clock', onclick: () => void this.act(() => api.startClock(this.key)) },
        'Start the clock now',
      ),
    );
  }

  private renderMoves(): void {
    const view = this.view;
    if (!view) return;
    const list = moveList(view.moves, firstMoveNumber(view.start_fen), this.currentPly(), ply => this.showPly(ply));
    // A game over ends its moves with the result, as a PGN does (on one line: "1/2-1/2").
    const result =
      view.status === 'finished' && view.result && view.result !== '*'
        ? h('p', { class: 'moves-result' }, h('span', { class: 'result-score', 'data-testid': 'moves-result' }, view.result), view.reason ? ` ${view.reason}` : '')
        : null;
    fill(this.moves, view.moves.length ? list : h('p', { class: 'muted' }, 'No moves yet.'), result);
    // Keep the shown move in view inside the list (scrollIntoView would scroll the page too).
    const shown = list.querySelector<HTMLElement>('[aria-current]');
    if (shown) this.moves.scrollTop = shown.offsetTop - this.moves.clientHeight / 2;
    else this.moves.scrollTop = this.moves.scrollHeight;
  }

  private renderCastleButtons(): void {
    const view = this.view;
    const playable = view && view.status === 'playing' && view.turn === this.me();
    fill(
      this.castleButtons,
      playable
        ? castles(view.legal).map(move =>
            h(
              'button',
              {
                type: 'button',
                class: 'castle',
                'data-testid': `castle-${move.castle?.side ?? ''}`,
                title: `${move.san}: king to ${move.castle?.king_to}, rook ${move.castle?.rook_from} to ${move.castle?.rook_to}`,
                onclick: () => void this.play(move.uci),
              },
              castleLabel(move),
            ),
          )
        : [],
    );
  }

  private renderActions(): void {
    const view = this.view;
    if (!view) return;
    const playing = view.status === 'playing' || view.status === 'study';
    const me = this.me();
    const humanMoves = view.moves.length > ((me ?? view.human) === 'white' ? 0 : 1);
    const button = (label: string, testId: string, enabled: boolean, run: () => void): HTMLButtonElement =>
      h('button', { type: 'button', 'data-testid': testId, disabled: !enabled, onclick: run }, label);
    this.renderInvite();
    if (!this.seated || me === null || view.status === 'finished') {
      // Watching, or the game is over: nothing to take back, offer or resign.
      fill(this.actions, button('Flip board (f)', 'flip', true, () => this.flip()));
      return;
    }
    if (view.human === null) {
      this.renderPeopleActions(view, me, button);
      return;
    }
    fill(
      this.actions,
      // As on lichess: until both sides have moved, the game can be aborted (no result).
      view.abortable && playing
        ? h(
            'button',
            { type: 'button', class: 'abort', 'data-testid': 'abort', onclick: () => void this.act(() => api.abort(this.key)) },
            'Abort',
          )
        : null,
      button('Take back', 'takeback', view.status === 'playing' && humanMoves, () => void this.act(() => api.takeback(this.key))),
      button('Offer draw', 'offer-draw', view.status === 'playing', () => {
        if (confirmed('draw', 'Offer a draw?')) void this.offerDraw();
      }),
      view.draw_claim
        ? button(`Claim draw (${view.draw_claim})`, 'claim-draw', true, () => void this.act(() => api.drawAction(this.key, 'claim')))
        : null,
      button('Resign', 'resign', playing, () => {
        if (confirmed('resign', 'Resign this game?')) void this.act(() => api.resign(this.key));
      }),
      button('Flip board (f)', 'flip', true, () => this.flip()),
    );
  }

  /** The actions of a game between people: the offers and proposals the opponent answers. */
  private renderPeopleActions(
    view: GameView,
    me: Color,
    button: (label: string, testId: string, enabled: boolean, run: () => void) => HTMLButtonElement,
  ): void {
    const playing = view.status === 'playing';
    const them: Color = me === 'white' ? 'black' : 'white';
    const first = view.moves.length > 0 && (view.moves.length > 1 || (view.start_fen ?? '').split(' ')[1] === me[0]);
    const act = (run: () => Promise<Ack | GameView>) => () => void this.act(run);
    if (view.hotseat) {
      const side = view.turn === 'white' ? 'White' : 'Black';
      const turn = h('input', {
        type: 'checkbox',
        checked: turnsBoard(),
        'data-testid': 'turn-board',
        onchange: (event: Event) => {
          setTurnsBoard((event.target as HTMLInputElement).checked);
          this.render();
        },
      });
      fill(
        this.actions,
        view.abortable && playing
          ? h('button', { type: 'button', class: 'abort', 'data-testid': 'abort', onclick: act(() => api.abort(this.key)) }, 'Abort')
          : null,
        button('Take back', 'takeback', playing && view.moves.length > 0, act(() => api.takeback(this.key))),
        button('Agree a draw', 'offer-draw', playing, act(() => api.drawAction(this.key, 'offer'))),
        view.draw_claim ? button(`Claim draw (${view.draw_claim})`, 'claim-draw', true, act(() => api.drawAction(this.key, 'claim'))) : null,
        button(`${side} resigns`, 'resign', playing, () => {
          if (confirmed('resign', `${side} resigns?`)) void this.act(() => api.resign(this.key));
        }),
        button('Flip board (f)', 'flip', true, () => this.flip()),
        h('label', { class: 'option' }, turn, ' Turn the board to the side to move'),
      );
      return;
    }
    if (view.status === 'waiting') {
      fill(
        this.actions,
        h('button', { type: 'button', class: 'abort', 'data-testid': 'abort', onclick: act(() => api.abort(this.key)) }, 'Withdraw the challenge'),
        button('Flip board (f)', 'flip', true, () => this.flip()),
      );
      return;
    }
    fill(
      this.actions,
      this.awayNotice(view),
      view.abortable && playing
        ? h('button', { type: 'button', class: 'abort', 'data-testid': 'abort', onclick: act(() => api.abort(this.key)) }, 'Abort')
        : null,
      view.draw_offered_by === them
        ? h(
            'div',
            { class: 'offer', role: 'group', 'data-testid': 'draw-offer' },
            'Your opponent offers a draw. ',
            button('Accept the draw', 'accept-draw', true, () => {
              if (confirmed('draw', 'Accept the draw?')) void this.act(() => api.drawAction(this.key, 'accept'));
            }),
            button('Decline', 'decline-draw', true, act(() => api.drawAction(this.key, 'decline'))),
          )
        : button(view.draw_offered_by === me ? 'Draw offered' : 'Offer draw', 'offer-draw', playing && view.draw_offered_by !== me, () => {
            if (confirmed('draw', 'Offer a draw?')) void this.offerDraw();
          }),
      view.takeback_proposed_by === them
        ? h(
            'div',
            { class: 'offer', role: 'group', 'data-testid': 'takeback-offer' },
            'Your opponent asks to take their last move back. ',
            button('Accept', 'accept-takeback', true, act(() => api.takeback(this.key, 'accept'))),
            button('Decline', 'decline-takeback', true, act(() => api.takeback(this.key, 'decline'))),
          )
        : button(
            view.takeback_proposed_by === me ? 'Takeback proposed' : 'Propose a takeback',
            'takeback',
            playing && first && view.takeback_proposed_by !== me,
            act(() => api.takeback(this.key)),
          ),
      view.draw_claim ? button(`Claim draw (${view.draw_claim})`, 'claim-draw', true, act(() => api.drawAction(this.key, 'claim'))) : null,
      button('Resign', 'resign', playing, () => {
        if (confirmed('resign', 'Resign this game?')) void this.act(() => api.resign(this.key));
      }),
      button('Flip board (f)', 'flip', true, () => this.flip()),
    );
  }

  /** Between people, while the opponent is away: a countdown, then the claims (as lichess's
   * "force resignation"). Re-rendered every second while it counts. */
  private awayNotice(view: GameView): HTMLElement | null {
    window.clearInterval(this.awayTimer);
    this.awayTimer = undefined;
    if (this.awaySince === null || !view.away || view.status !== 'playing') return null;
    const claimAfter = view.away.claim_after_ms;
    const box = h('div', { class: 'offer', role: 'status', 'data-testid': 'opponent-away' });
    const act = (result: 'win' | 'draw') => () => void this.act(() => api.force(this.key, result));
    const tick = (): void => {
      if (this.awaySince === null) return;
      const left = claimAfter - (performance.now() - this.awaySince);
      if (view.abortable) {
        fill(box, 'Your opponent left the game. You may abort it.');
      } else if (left > 0) {
        fill(box, `Your opponent left the game. You can claim the win in ${Math.ceil(left / 1000)} s.`);
      } else {
        window.clearInterval(this.awayTimer);
        fill(
          box,
          'Your opponent left the game. ',
          h('button', { type: 'button', class: 'primary', 'data-testid': 'force-win', onclick: act('win') }, 'Claim the win'),
          h('button', { type: 'button', 'data-testid': 'force-draw', onclick: act('draw') }, 'Claim a draw'),
        );
      }
    };
    tick();
    this.awayTimer = window.setInterval(tick, 500);
    return box;
  }

  /** Northam's placement, while the players place the start position; its countdown ticks. */
  private renderPlacement(): void {
    window.clearInterval(this.placeTimer);
    this.placeTimer = undefined;
    const view = this.view;
    const placement = view?.placement;
    if (!view || !placement || view.status === 'finished') {
      fill(this.placing);
      return;
    }
    const draw = (): void =>
      fill(
        this.placing,
        placementPanel(placement, this.me(), this.placePiece, this.viewAt, {
          pick: piece => {
            this.placePiece = piece;
            draw();
          },
          place: (piece, file) => {
            this.placePiece = null;
            void this.act(() => api.place(this.key, piece, file));
          },
        }),
      );
    draw();
    if (placement.ms_left !== null && placement.to_place !== null) this.placeTimer = window.setInterval(draw, 500);
  }

  /** A game waiting for its second player: the link to send (for its creator), or the form to
   * join it (for anyone else). */
  private renderInvite(): void {
    const view = this.view;
    if (!view || view.status !== 'waiting') {
      fill(this.invite);
      return;
    }
    const link = `${location.origin}/game/${this.key}`;
    const note = h('span', { class: 'muted', 'aria-live': 'polite' });
    if (this.seated) {
      fill(
        this.invite,
        h(
          'p',
          {},
          'Send this link to your opponent; whoever opens it first plays. Anyone later can only watch.',
          view.listed ? ' It is also listed in the lobby on the home page while this page is open.' : '',
        ),
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': 'The link to this game', 'data-testid': 'invite-link' }),
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'copy-link',
            onclick: () =>
              void copyText(link).then(
                () => (note.textContent = 'Link copied.'),
                error => (note.textContent = describeError(error)),
              ),
          },
          'Copy the link',
        ),
        note,
      );
      return;
    }
    const open = view.sides?.white.type === 'human' && view.sides.white.seat === 'open' ? 'White' : 'Black';
    const user = knownUser();
    // Logged in, the player joins under their account's name.
    const name = h('input', { type: 'text', maxlength: 100, placeholder: 'Your name', 'aria-label': 'Your name', 'data-testid': 'join-name', hidden: !!user || view.rated !== null });
    const creator = open === 'White' ? view.black : view.white;
    const kind = `${view.rated ? `rated ${view.rated} ` : ''}game`;
    fill(
      this.invite,
      h(
        'p',
        { class: 'invite-text' },
        named(creator) ? `${creator} invites you to play this ${kind} as ${open}.` : `You are invited to play this ${kind} as ${open}.`,
      ),
      view.rated && user === null ? h('p', { 'data-testid': 'rated-login' }, 'A rated game is played between accounts: ', this.loginLinks(), '.') : null,
      user ? h('p', { class: 'muted' }, `You play as ${user.name}.`) : null,
      h(
        'div',
        { class: 'invite-join' },
        name,
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'join',
            onclick: () => void this.join(name.value.trim() || undefined),
          },
          `Play as ${open}`,
        ),
      ),
      note,
    );
  }

  /** Takes the open seat; the socket reconnects with the new seat token. */
  private async join(name?: string): Promise<void> {
    try {
      const view = await api.join(this.key, name);
      this.seated = true;
      this.orientation = null;
      this.message.textContent = '';
      if (this.socket) this.socket.reconnect(api.socketUrl(this.key));
      else this.openSocket();
      this.apply(view, true);
    } catch (error) {
      // A guest at a rated game: the server's words, and the way to an account.
      if (error instanceof ApiError && error.code === 'rated_needs_account') {
        fill(this.message, sentence(error.message), ' ', this.loginLinks(), '.');
        return;
      }
      this.showError(error);
    }
  }

  /** "Log in or register", each coming back to this game. */
  private loginLinks(): HTMLElement {
    const here = `/game/${this.key}`;
    return h(
      'span',
      {},
      h('a', { href: loginHref(here), 'data-testid': 'join-login' }, 'Log in'),
      ' or ',
      h('a', { href: loginHref(here, 'register') }, 'register'),
    );
  }

  /** The colour this browser plays: the person's in a game against the engine, this seat's
   * between people; null while it watches. */
  private me(): Color | null {
    if (!this.seated || !this.view) return null;
    // At one device this browser plays whoever is to move.
    if (this.view.hotseat) return this.view.placement?.to_place ?? this.view.turn;
    return this.view.human ?? seatColorOf(this.key) ?? null;
  }

  /** After the game: a rematch (same start, colours swapped: the Chess960 fairness habit), a
   * new game with the same settings, and the analysis board. */
  private renderAfterGame(): void {
    const view = this.view;
    if (!view || view.status !== 'finished') {
      fill(this.afterGame);
      return;
    }
    const note = h('span', { class: 'muted', 'aria-live': 'polite' });
    const start = async (spec: () => Promise<NewGame | null>): Promise<void> => {
      note.textContent = 'Starting…';
      try {
        const next = await spec();
        if (!next) {
          goTo('/');
          return;
        }
        const created = await api.newGame(next, originOf(this.key));
        goTo(`/game/${created.key}`);
      } catch (error) {
        note.textContent = describeError(error);
      }
    };
    if (view.event) {
      // An event's game is paired by the event: no rematch, no new game like it from here.
      fill(
        this.afterGame,
        h('p', { class: 'muted', 'data-testid': 'event-game' }, `A game of ${eventLine(view.event)}: the arbiter pairs the next round.`),
        h('a', { class: 'button', href: `/analysis?game=${this.key}`, 'data-testid': 'analyse-game' }, 'Analyse this game'),
      );
      return;
    }
    const me = this.me();
    const them: Color | null = me === null ? null : me === 'white' ? 'black' : 'white';
    const rematch = (action: 'offer' | 'accept' | 'decline') => () => void this.act(() => api.rematch(this.key, action));
    const peopleRematch =
      view.human !== null
        ? null
        : view.rematch
          ? h('a', { class: 'button', href: `/game/${view.rematch}`, 'data-testid': 'watch-rematch' }, 'Watch the rematch')
          : me === null || !view.sides || view.sides.white.type !== 'human' || view.sides.white.seat !== 'held' || view.sides.black.type !== 'human' || view.sides.black.seat !== 'held'
            ? null
            : view.rematch_offered_by === them
              ? h(
                  'div',
                  { class: 'offer', role: 'group', 'data-testid': 'rematch-offer' },
                  'Your opponent offers a rematch, colours swapped. ',
                  h('button', { type: 'button', class: 'primary', 'data-testid': 'accept-rematch', onclick: rematch('accept') }, 'Accept'),
                  h('button', { type: 'button', 'data-testid': 'decline-rematch', onclick: rematch('decline') }, 'Decline'),
                )
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'primary',
                    'data-testid': 'rematch',
                    disabled: view.rematch_offered_by === me,
                    onclick: rematch('offer'),
                  },
                  view.rematch_offered_by === me ? 'Rematch offered' : 'Rematch (colours swapped)',
                );
    fill(
      this.afterGame,
      peopleRematch,
      this.seated && view.human !== null
        ? h(
            'button',
            { type: 'button', class: 'primary', 'data-testid': 'rematch', onclick: () => void start(async () => rematchOf(view, this.key)) },
            'Rematch (colours swapped)',
          )
        : null,
      this.seated
        ? h(
            'button',
            {
              type: 'button',
              'data-testid': 'same-settings',
              title: 'A new start position chosen the same way, the same level and time',
              onclick: () => void start(() => sameSettingsOf(this.key)),
            },
            'New game, same settings',
          )
        : null,
      h('a', { class: 'button', href: `/analysis?game=${this.key}`, 'data-testid': 'analyse-game' }, 'Analyse this game'),
      note,
    );
  }

  private renderAnalysis(): void {
    const view = this.view;
    if (!view || view.status !== 'finished' || !this.seated) {
      fill(this.analysis);
      return;
    }
    const output = h('p', { class: 'analysis-output', 'aria-live': 'polite' });
    const run = async (): Promise<void> => {
      const ply = this.currentPly();
      output.textContent = 'Evaluating…';
      try {
        const result = await api.analysis(this.key, ply, 14);
        output.textContent = `After ply ${result.ply}, depth ${result.depth}: ${formatScore(result.score)} (White's view) · ${result.pv_san.join(' ')}`;
      } catch (error) {
        output.textContent = describeError(error);
      }
    };
    fill(
      this.analysis,
      h('button', { type: 'button', 'data-testid': 'evaluate', onclick: () => void run() }, 'Evaluate the position shown'),
      output,
    );
  }

  /** Download and copy: none until the start is known (Northam's placement), with the reason. */
  private renderExport(): void {
    const view = this.view;
    if (!view) return;
    const known = view.start_fen !== null;
    if (this.exportFor === known) return;
    this.exportFor = known;
    const copied = async (what: string, text: () => Promise<string>): Promise<void> => {
      try {
        await copyText(await text());
        this.exportNote.textContent = `${what} copied.`;
      } catch (error) {
        this.exportNote.textContent = describeError(error);
      }
    };
    if (!known) {
      const button = (label: string, testId: string) =>
        h('button', { type: 'button', disabled: true, 'data-testid': testId, 'aria-describedby': 'export-note' }, label);
      fill(this.exportButtons, button('Download PGN', 'download-pgn'), button('Copy PGN', 'copy-pgn'), button('Copy FEN', 'copy-fen'));
      this.exportNote.id = 'export-note';
      this.exportNote.textContent =
        view.status === 'finished'
          ? 'No PGN or FEN: the players did not finish placing the start position.'
          : 'No PGN or FEN until the players have placed the start position.';
      return;
    }
    this.exportNote.textContent = '';
    fill(
      this.exportButtons,
      h('a', { class: 'button', href: api.pgnUrl(this.key), download: true, 'data-testid': 'download-pgn' }, 'Download PGN'),
      h('button', { type: 'button', 'data-testid': 'copy-pgn', onclick: () => void copied('PGN', () => api.pgn(this.key)) }, 'Copy PGN'),
      h(
        'button',
        { type: 'button', 'data-testid': 'copy-fen', onclick: () => void copied('FEN', async () => this.view?.fen ?? '') },
        'Copy FEN',
      ),
    );
  }

  private navButton(label: string, title: string, run: () => void): HTMLButtonElement {
    return h('button', { type: 'button', title, 'aria-label': title, onclick: run }, label);
  }
}

const TURN_BOARD_KEY = 'chess960.turnBoard';

/** At one device: whether the board turns to the side to move after each move (on unless
 * switched off, remembered in this browser). */
function turnsBoard(): boolean {
  try {
    return localStorage.getItem(TURN_BOARD_KEY) !== 'off';
  } catch {
    return true;
  }
}

function setTurnsBoard(on: boolean): void {
  try {
    localStorage.setItem(TURN_BOARD_KEY, on ? 'on' : 'off');
  } catch {
    // Storage disabled: the choice lasts for this page.
  }
}

/** What a game's key looks like (32 hex digits): any other names no game. */
const GAME_KEY = /^[0-9a-f]{32}$/;

/** "Oslo Open, round 3, board 2" from the event's name and its `Round` tag (`3.2`). */
function eventLine(event: { name: string; round: string }): string {
  const [round, board] = event.round.split('.');
  return `${event.name}, round ${round ?? event.round}${board ? `, board ${board}` : ''}`;
}

/** Goes to another page of the app (main.ts routes on popstate). */
/** Asks before a resignation or a draw offer when the settings say so. */
function confirmed(kind: 'resign' | 'draw', question: string): boolean {
  const ask = kind === 'resign' ? settings().confirmResign : settings().confirmDraw;
  return !ask || window.confirm(question);
}

function goTo(path: string): void {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The rematch of a finished game: the same start position, the colours swapped, the same level,
 * time control and name (and study time, when this browser created the game). */
export function rematchOf(view: GameView, key: string): NewGame {
  const origin = originOf(key);
  const start: StartSpec = view.start_id !== null ? { id: view.start_id } : { fen: view.start_fen ?? '' };
  // A start drawn by hand keeps its draw: the rematch's record proves the same fair draw.
  const drawn = view.drawn && view.start_id !== null ? drawSpecOf(view.drawn) : undefined;
  const spec = origin?.spec;
  return {
    start,
    ...(drawn ? { drawn } : {}),
    color: view.human === 'white' ? 'black' : 'white',
    opponent: 'engine',
    level: view.level ?? undefined,
    time_control: view.time_control,
    study_ms: spec && 'study_ms' in spec ? spec.study_ms : undefined,
    name: view.human === 'white' ? view.white : view.black,
  };
}

/** The draw of a game's start as the new-game request takes it: its seed, else its outcomes. */
function drawSpecOf(drawn: DrawnRecord): DrawSpec {
  return drawn.seed !== null ? { method: drawn.method, seed: drawn.seed } : { method: drawn.method, outcomes: drawn.outcomes ?? '' };
}

/** A new game with the settings this browser created the game with: a new random start, or one
 * drawn again by the same method; `null` (the new-game form) when the start was chosen by hand
 * (a number, a PGN or a FEN) or the game was not created here. */
async function sameSettingsOf(key: string): Promise<NewGame | null> {
  const origin = originOf(key);
  const spec = origin?.spec;
  if (!spec) return null;
  // A random start is drawn again; a start the players place is placed again.
  if (!spec.start || 'random' in spec.start || 'chosen' in spec.start) return { ...spec };
  if (origin.startKind === 'draw' && origin.method) {
    // A fresh draw by the same method, sent with its seed so that the new game records it.
    const seed = randomSeed();
    const drawn = await api.draw(origin.method, seed);
    return { ...spec, start: { id: drawn.id }, drawn: { method: origin.method, seed } };
  }
  return null;
}
