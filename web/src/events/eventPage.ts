// One event (/events/<key>): players, the round's position with its draw, pairings, results
// and standings. The browser that made the event (it holds the arbiter token) gets the
// arbiter's controls; everyone else sees the same page without them, refreshed every few
// seconds.

import { describeError } from '../api';
import { figurines, startPlacement } from '../backRank';
import { fill, h } from '../dom';
import { DRAW_METHODS } from '../drawMethods';
import type { LiveView } from '../generated/api';
import { miniBoard } from '../home/miniBoard';
import type { Page } from '../page';
import { boardLabel, bracketView, kindName, knockoutRound, placingsView, roundName, stagePlan, stagesNeeded, stageTitle } from './bracket';
import { arbiterToken, events, formatName, plural, who, type EventDraw, type EventRoundView, type EventView, type SeatLinks } from './eventApi';
import { liveBroadcast, type LiveBroadcast } from './live';

const RESULTS = ['1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-'];

export function eventPage(key: string): Page {
  const arbiter = arbiterToken(key) !== null;
  const title = h('h1', { 'data-testid': 'event-name' }, 'Event');
  const summary = h('p', { class: 'event-summary' });
  const links = h('p', { class: 'event-links' });
  const message = h('p', { class: 'message', role: 'alert', 'data-testid': 'event-message' });
  const pairing = h('p', { class: 'event-pairing', 'data-testid': 'pairing-progress', hidden: true });
  const players = h('section', { class: 'event-players' });
  const round = h('section', { class: 'event-round', 'data-testid': 'event-round' });
  const history = h('section', { class: 'event-history' });
  const table = h('section', { class: 'event-standings', 'data-testid': 'standings' });
  /** A knockout's bracket (empty for the other formats). */
  const bracket = h('section', { class: 'event-bracket', 'data-testid': 'event-bracket' });
  const board = miniBoard('event-board', 'The round’s start position');
  /** The engine games the server plays (shown once a player is an engine). */
  const liveSection = h('section', { class: 'event-live', 'data-testid': 'event-live', hidden: true });
  const enginePlay = h('button', { type: 'button', class: 'primary', 'data-testid': 'engines-play' }, 'Play engine games on the server');
  const enginePause = h('button', { type: 'button', 'data-testid': 'engines-pause', disabled: true }, 'Pause');
  let live: LiveBroadcast | null = null;
  /** The live view's status, boards and results: when it changes (a round paired, a game
   * begun or ended), so has the event (its round, standings, crosstable). */
  let liveSeen = '';
  /** The engines the server's owner registered, for the add-player form (null: not known yet). */
  let engineNames: string[] | null = null;
  /** The add-player form's choice, kept when the form is drawn again. */
  let addKind: 'person' | 'engine' = 'person';
  let addEngine = '';
  let view: EventView | null = null;
  let busy = false;
  /** Whether this page asked for a pairing that is under way. */
  let pairingAsked = false;
  /** When the last pairing this page asked for ended: a reply asked for before is stale. */
  let pairingEnded = -1;
  /** The players' links of a round's games, while the arbiter has them shown. */
  let seatLinks: { round: number; games: SeatLinks[] } | null = null;

  /** Runs an arbiter action, then shows the event as the server returns it. */
  async function act(action: () => Promise<EventView>): Promise<void> {
    message.textContent = '';
    busy = true;
    try {
      show(await action());
    } catch (error) {
      message.textContent = describeError(error);
    } finally {
      busy = false;
    }
  }

  function show(e: EventView): void {
    view = e;
    title.textContent = e.name;
    const dates = e.start_date && (e.end_date && e.end_date !== e.start_date ? `${e.start_date} – ${e.end_date}` : e.start_date);
    summary.textContent = [formatName(e), e.city, dates, e.time_control && `time control ${e.time_control}`, e.arbiter && `arbiter ${e.arbiter}`, plural(e.players.length, 'player')]
      .filter(Boolean)
      .join(' · ');
    fill(
      links,
      h('a', { href: `/events/${key}/projector`, 'data-testid': 'projector-link' }, 'Projector'),
      ' · ',
      e.rounds_paired > 0 ? h('a', { href: `/events/${key}/print?round=${e.rounds_paired}` }, `Print round ${e.rounds_paired}`) : null,
      e.rounds_paired > 0 ? ' · ' : null,
      'Export: ',
      // TRF-16 has one game per player and round: a knockout's matches are exported as PGN and JSON.
      ...(e.knockout ? ['pgn', 'json'] : ['trf', 'pgn', 'json']).flatMap((f, i) => [
        i > 0 ? ' ' : null,
        h('a', { href: `/api/events/${key}/export?format=${f}`, download: '' }, f.toUpperCase()),
      ]),
    );
    showPlayers(e);
    showLive(e);
    showBracket(e);
    showRound(e);
    showHistory(e);
    showStandings(e);
  }

  function showPlayers(e: EventView): void {
    // Once round 1 is paired every player has a pairing number: the "No." of the standings and
    // of the crosstable's cells (a TRF's starting rank); the list follows it. Before that the
    // only number is the order of entry, headed so.
    const numbered = e.players.some(p => p.pairing_number !== null);
    const listed = numbered ? [...e.players].sort((a, b) => (a.pairing_number ?? Infinity) - (b.pairing_number ?? Infinity) || a.number - b.number) : e.players;
    const rows = listed.map(p => {
      const notes: string[] = [];
      if (p.joined > 1) notes.push(`from round ${p.joined}`);
      if (p.withdrawn) notes.push(`withdrawn from round ${p.withdrawn}`);
      for (const b of p.byes) notes.push(`${b.kind} bye in round ${b.round}`);
      const controls =
        arbiter && e.next_round !== null && !p.withdrawn
          ? h(
              'td',
              {},
              e.format === 'knockout'
                ? null
                : h('button', { type: 'button', onclick: () => void act(() => events.bye(key, p.number, e.next_round ?? 1, 'half')) }, `½ bye in round ${e.next_round}`),
              h('button', { type: 'button', onclick: () => void act(() => events.withdraw(key, p.number)) }, 'Withdraw'),
            )
          : null;
      return h(
        'tr',
        {},
        h('td', {}, numbered ? (p.pairing_number ?? '') : p.number),
        h(
          'td',
          {},
          p.title ? `${p.title} ${p.name}` : p.name,
          p.engine ? h('span', { class: 'engine-badge', title: `Played on the server by the engine ${p.engine}`, 'data-testid': 'engine-badge' }, 'engine') : null,
          // Entered by account: their page, and their games on the server are bound to it.
          p.account ? h('a', { href: `/@/${encodeURIComponent(p.account)}`, class: 'player-link', 'data-testid': 'player-account' }, ` @${p.account}`) : null,
        ),
        h('td', {}, p.rating ?? ''),
        h('td', {}, p.federation),
        h('td', {}, p.fide_id ?? ''),
        h('td', {}, p.points),
        h('td', {}, notes.join('; ')),
        controls,
      );
    });
    const name = h('input', { name: 'player', maxlength: 200, placeholder: 'Surname, Given name', 'aria-label': 'Player name' });
    const rating = h('input', { name: 'rating', type: 'number', min: 0, max: 3500, placeholder: 'rating', 'aria-label': 'Rating' });
    const fed = h('input', { name: 'federation', maxlength: 3, placeholder: 'FED', 'aria-label': 'Federation', size: 4 });
    const fideId = h('input', { name: 'fide_id', type: 'number', min: 1, placeholder: 'FIDE ID', 'aria-label': 'FIDE ID' });
    // A player's account on this server: the name and rating come from it when left empty, and
    // their games here are bound to it (no link to hand out).
    const account = h('input', { name: 'account', maxlength: 20, placeholder: 'account (optional)', 'aria-label': 'Account on this server', size: 12 });
    // A registered engine plays for the player on the server: offered only when the owner
    // registered some (on the command line).
    const engines = engineNames ?? [];
    const engine = h(
      'select',
      { name: 'engine', 'aria-label': 'Engine', 'data-testid': 'player-engine' },
      engines.map(n => h('option', { value: n, selected: n === addEngine }, n)),
    );
    const kind = h(
      'select',
      { name: 'kind', 'aria-label': 'Person or engine', 'data-testid': 'player-kind' },
      h('option', { value: 'person', selected: addKind === 'person' }, 'Person'),
      h('option', { value: 'engine', selected: addKind === 'engine' }, 'Engine'),
    );
    const kindShown = (): void => {
      const isEngine = engines.length > 0 && kind.value === 'engine';
      engine.hidden = !isEngine;
      account.hidden = isEngine;
      fideId.hidden = isEngine;
      name.placeholder = isEngine ? 'Name (the engine’s by default)' : 'Surname, Given name';
    };
    kind.addEventListener('change', () => {
      addKind = kind.value === 'engine' ? 'engine' : 'person';
      kindShown();
    });
    engine.addEventListener('change', () => (addEngine = engine.value));
    kindShown();
    // A round robin without players has no rounds yet (next_round is null): players are
    // entered until round 1 is paired.
    const form =
      arbiter && (e.next_round !== null || e.rounds_paired === 0) && !(e.format === 'knockout' && e.rounds_paired > 0)
        ? h(
            'form',
            {
              class: 'add-player',
              'data-testid': 'add-player',
              onsubmit: (ev: Event) => {
                ev.preventDefault();
                const body: { name?: string; rating?: number; federation?: string; fide_id?: number; account?: string; engine?: string } = { name: name.value };
                if (!engine.hidden && engine.value) {
                  body.engine = engine.value;
                  // The server names the player after the engine.
                  if (!name.value.trim()) delete body.name;
                } else {
                  if (account.value.trim()) body.account = account.value.trim();
                  if (fideId.value) body.fide_id = Number(fideId.value);
                }
                if (rating.value) body.rating = Number(rating.value);
                if (fed.value) body.federation = fed.value;
                void act(() => events.addPlayer(key, body)).then(() => {
                  name.value = '';
                  rating.value = '';
                  fideId.value = '';
                  account.value = '';
                  name.focus();
                });
              },
            },
            engines.length > 0 ? kind : null,
            engines.length > 0 ? engine : null,
            name,
            rating,
            fed,
            fideId,
            account,
            h('button', { type: 'submit' }, 'Add player'),
          )
        : null;
    const first = numbered
      ? h('th', { title: 'Pairing number (as in the standings and the crosstable)' }, 'No.')
      : h('th', { title: 'Order of entry: the pairing numbers are given when round 1 is paired' }, 'Entry');
    fill(
      players,
      h('h2', {}, 'Players'),
      scroller(
        h(
          'table',
          { 'data-testid': 'players' },
          h('thead', {}, h('tr', {}, first, ['Name', 'Rating', 'Fed', 'FIDE ID', 'Pts', ''].map(t => h('th', {}, t)), rows.some(r => r.cells.length > 7) ? h('th', {}) : null)),
          h('tbody', {}, rows),
        ),
      ),
      numbered || e.players.length === 0
        ? null
        : h('p', { class: 'hint', 'data-testid': 'players-note' }, 'Entry: the order of entry. The pairing numbers (No.) are given when round 1 is paired.'),
      form,
    );
  }

  function drawControls(e: EventView, r: number, drawn: boolean): HTMLElement {
    return drawPicker(e, {
      drawn,
      list: e.positions.list.length > 0,
      label: drawn ? `Draw round ${r} again` : `Draw round ${r}’s position`,
      testid: 'draw-position',
      methodTestid: 'draw-method',
      send: body => events.draw(key, r, body),
    });
  }

  /** The methods of drawing a position and the button that draws it (a round's, or a knockout's tiebreak stage's). */
  function drawPicker(
    e: EventView,
    o: { drawn: boolean; list: boolean; label: string; testid: string; methodTestid: string; send: (body: Record<string, unknown>) => Promise<EventView> },
  ): HTMLElement {
    const method = h(
      'select',
      { 'aria-label': 'How to draw the position', 'data-testid': o.methodTestid },
      h('option', { value: 'computer' }, 'Computer (uniform)'),
      DRAW_METHODS.map(m => h('option', { value: m.value }, m.label)),
      h('option', { value: 'set' }, 'Set by the arbiter'),
      o.list && e.positions.list.length > 0 ? h('option', { value: 'list' }, 'From the list fixed in advance') : null,
    );
    const outcomes = h('input', { placeholder: 'outcomes rolled at the board (optional)', 'aria-label': 'Outcomes', maxlength: 1000, hidden: true });
    const setId = h('input', { type: 'number', min: 0, max: 959, placeholder: '0–959', 'aria-label': 'Position', hidden: true });
    method.addEventListener('change', () => {
      outcomes.hidden = method.value === 'computer' || method.value === 'set' || method.value === 'list';
      setId.hidden = method.value !== 'set';
    });
    return h(
      'div',
      { class: 'draw-controls' },
      method,
      outcomes,
      setId,
      h(
        'button',
        {
          type: 'button',
          class: o.drawn ? '' : 'primary',
          'data-testid': o.testid,
          onclick: () => {
            const body: Record<string, unknown> = { method: method.value, replace: o.drawn };
            if (!outcomes.hidden && outcomes.value.trim()) body.outcomes = outcomes.value;
            if (method.value === 'set') body.id = Number(setId.value);
            void act(() => o.send(body));
          },
        },
        o.label,
      ),
    );
  }

  function positionCard(r: EventRoundView): HTMLElement {
    if (!r.draw) return h('p', { class: 'hint' }, 'The position is not drawn yet.');
    const p = r.draw.position;
    board.show(startPlacement(p.back_rank));
    return h(
      'div',
      { class: 'position-card' },
      h('div', { class: 'position-number', 'data-testid': 'round-position' }, `Position ${p.id}`),
      h('div', { class: 'position-rank' }, p.back_rank, ' ', h('span', { 'aria-hidden': 'true' }, figurines(p.back_rank))),
      h('ol', { class: 'draw-steps', 'data-testid': 'draw-steps' }, r.draw.steps.map(s => h('li', {}, s))),
    );
  }

  function boardsTable(e: EventView, r: EventRoundView): HTMLElement {
    const knockout = e.format === 'knockout';
    return scroller(
      h(
        'table',
        { class: 'pairings', 'data-testid': `pairings-${r.round}` },
        h('thead', {}, h('tr', {}, (knockout ? ['Board', 'Game', 'Time', 'White', 'Black', 'Result'] : ['Board', 'White', 'Black', 'Result']).map(t => h('th', {}, t)))),
        h(
          'tbody',
          {},
          r.boards.map(b => {
            let result: HTMLElement | string = b.result ?? '';
            if (arbiter) {
              const select = h(
                'select',
                { 'aria-label': `Result of board ${b.board}`, 'data-testid': `result-${r.round}-${b.board}` },
                h('option', { value: '' }, '—'),
                RESULTS.map(x => h('option', { value: x, selected: b.result === x }, x)),
              );
              select.addEventListener('change', () => void act(() => events.result(key, r.round, b.board, select.value || null)));
              result = select;
            }
            const label = knockout ? boardLabel(e, r, b) : null;
            return h(
              'tr',
              { 'data-testid': knockout ? `board-${r.round}-${b.board}` : null },
              h('td', {}, b.board),
              knockout ? h('td', { class: 'board-label', 'data-testid': 'board-label' }, label ?? '') : null,
              knockout ? h('td', { class: 'board-tc' }, b.time_control ?? e.time_control) : null,
              h('td', {}, who(e, b.white)),
              h('td', {}, who(e, b.black)),
              h('td', {}, result),
              b.game ? h('td', {}, h('a', { href: `/game/${b.game}`, 'data-testid': `game-${r.round}-${b.board}` }, 'watch')) : null,
            );
          }),
          r.byes.map(y => h('tr', { class: 'bye' }, h('td', {}, ''), h('td', { colspan: knockout ? 5 : 3 }, `${who(e, y.player)}: ${knockout ? 'bye' : byeName(y.kind)}`))),
        ),
      ),
    );
  }

  function showRound(e: EventView): void {
    const number = currentNumber(e);
    const r: EventRoundView = e.round_list[number - 1] ?? { round: number, paired: false, draw: null, boards: [], byes: [] };
    const knockout = e.format === 'knockout' && e.knockout ? e.knockout : null;
    const controls: (HTMLElement | null)[] = [];
    if (arbiter && !r.paired && e.next_round === number) {
      if (!e.positions.per_board) controls.push(drawControls(e, number, r.draw !== null));
      controls.push(
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'pair-round',
            onclick: (ev: Event) => {
              // One pairing at a time: a big round takes a while.
              const button = ev.currentTarget as HTMLButtonElement;
              button.disabled = true;
              void act(() => pairWatched(number)).finally(() => (button.disabled = false));
            },
          },
          `Pair round ${number}`,
        ),
      );
    }
    // The players' games on this server: not for boards between two engines (the server plays those).
    const engine = (n: number): boolean => !!e.players[n - 1]?.engine;
    if (arbiter && r.paired && r.boards.some(b => !b.game && !b.result && !(engine(b.white) && engine(b.black)))) {
      controls.push(
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'play-on-server',
            onclick: () =>
              void act(async () => {
                const made = await events.games(key, number);
                seatLinks = { round: number, games: made.games };
                return made;
              }),
          },
          `Play round ${number} on this server`,
        ),
      );
    }
    // The links of games under way, again (after a reload, or in another of the arbiter's
    // tabs): the server derives them from the arbiter's token, which only this browser holds.
    const shown = seatLinks?.round === number ? seatLinks : null;
    if (arbiter && r.paired && (shown || r.boards.some(b => b.game && !b.result))) {
      controls.push(
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'show-seat-links',
            'aria-expanded': shown ? 'true' : 'false',
            onclick: () => {
              if (shown) {
                seatLinks = null;
                if (view) showRound(view);
                return;
              }
              message.textContent = '';
              void events
                .links(key, number)
                .then(l => {
                  seatLinks = { round: number, games: l.games };
                  if (view) showRound(view);
                })
                .catch((error: unknown) => {
                  message.textContent = describeError(error);
                });
            },
          },
          shown ? 'Hide the players’ links' : 'Show the players’ links',
        ),
      );
    }
    const open = shown ? shown.games.filter(g => !g.result && !r.boards[g.board - 1]?.result) : [];
    const links = shown
      ? h(
          'div',
          { class: 'seat-links', 'data-testid': 'seat-links' },
          h(
            'p',
            {},
            open.length > 0
              ? 'Give each player his link: it lets him play his game; the result comes here by itself. Only this browser (it holds the arbiter’s token) can show them again.'
              : 'Every game of this round has its result.',
          ),
          h(
            'ul',
            {},
            open.map(g =>
              h(
                'li',
                {},
                `Board ${g.board}${knockout && r.boards[g.board - 1] ? ` · ${boardLabel(e, r, r.boards[g.board - 1]!) ?? ''}` : ''} (${who(e, r.boards[g.board - 1]?.white ?? 0)} – ${who(e, r.boards[g.board - 1]?.black ?? 0)}): `,
                seatAnchor(g.white_link, 'White’s link'),
                ' · ',
                seatAnchor(g.black_link, 'Black’s link'),
              ),
            ),
          ),
        )
      : null;
    const rounds = knockout?.bracket.length ?? 0;
    fill(
      round,
      h('h2', {}, number > 0 ? `Round ${number}` : 'Round 1', knockout && rounds > 0 ? ` — ${roundName(number, rounds)}` : ''),
      links,
      h('div', { class: 'round-layout' }, h('div', {}, positionCard(r), ...controls), r.draw ? board.el : null),
      knockout && r.paired ? tiebreakStages(e, r) : null,
      r.paired ? boardsTable(e, r) : null,
    );
  }

  /** A knockout round's tiebreak stages: their drawn positions, and for the arbiter the draw of the next one a tied match needs, then its games. */
  function tiebreakStages(e: EventView, r: EventRoundView): HTMLElement | null {
    const draws = r.stage_draws ?? [];
    const needed = stagesNeeded(e, r.round);
    if (draws.length === 0 && needed.length === 0) return null;
    const cards = draws.map((d, i) => {
      const stage = d.stage ?? i + 1;
      const boards = r.boards.filter(b => (b.stage ?? 0) === stage);
      const again =
        arbiter && boards.length === 0
          ? drawPicker(e, {
              drawn: true,
              list: false,
              label: `Draw tiebreak stage ${stage} again`,
              testid: `draw-stage-${stage}`,
              methodTestid: `stage-draw-method-${stage}`,
              send: body => events.drawStage(key, r.round, stage, body),
            })
          : null;
      return h(
        'div',
        { class: 'stage-card', 'data-testid': `stage-position-${stage}` },
        h('h3', {}, `Tiebreak stage ${stage}: ${stageTitle(e, stage)}`),
        stagePosition(d),
        again,
      );
    });
    const next = draws.length + 1;
    const controls: (HTMLElement | null)[] = [];
    if (arbiter && needed.some(s => s >= next)) {
      controls.push(
        h('h3', {}, `Tiebreak stage ${next}: ${stageTitle(e, next)}`),
        h(
          'p',
          { class: 'hint' },
          needed.includes(next)
            ? `${plural(tiedAt(e, r.round, next), 'match')} tied: draw the position of tiebreak stage ${next}, then add its games.`
            : `Draw the position of tiebreak stage ${next} first (the stages are drawn in order).`,
        ),
        drawPicker(e, {
          drawn: false,
          list: false,
          label: `Draw the position of tiebreak stage ${next}`,
          testid: `draw-stage-${next}`,
          methodTestid: `stage-draw-method-${next}`,
          send: body => events.drawStage(key, r.round, next, body),
        }),
      );
    }
    if (arbiter && needed.length > 0 && needed.every(s => s <= draws.length) && !e.round_list[r.round]?.paired) {
      controls.push(
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'add-tiebreaks',
            onclick: (ev: Event) => {
              const button = ev.currentTarget as HTMLButtonElement;
              button.disabled = true;
              void act(async () => {
                const v = await events.tiebreaks(key, r.round);
                window.setTimeout(() => {
                  message.textContent = `Tiebreak games added: ${v.added.map(m => `match ${m}`).join(', ')}.`;
                });
                return v;
              }).finally(() => (button.disabled = false));
            },
          },
          `Add tiebreak games (${needed.map(s => kindName(stagePlan(e, s).kind)).join(', ')})`,
        ),
      );
    }
    return h('div', { class: 'tiebreak-stages', 'data-testid': 'tiebreak-stages' }, h('h3', {}, 'Tiebreaks'), cards, controls);
  }

  /** The live boards, once a player is an engine; for the arbiter, the buttons that start and pause the server's play. */
  function showLive(e: EventView): void {
    if (!e.players.some(p => p.engine)) {
      liveSection.hidden = true;
      return;
    }
    liveSection.hidden = false;
    if (live) return;
    live = liveBroadcast(key, { onView: followLive });
    fill(
      liveSection,
      h('h2', {}, 'Live'),
      arbiter
        ? h(
            'div',
            { class: 'live-controls' },
            enginePlay,
            enginePause,
            h('span', { class: 'hint' }, 'The server plays every game between two engines, round after round; paused, the games under way are played again later.'),
          )
        : null,
      live.el,
    );
  }

  /** Each answer of the live view: the arbiter's buttons, and the event again when a round was paired or a game began or ended. */
  function followLive(v: LiveView): void {
    showRunning(v.running);
    const seen = [v.status, ...v.boards.map(b => `${b.round}-${b.board}:${b.result ?? ''}`)].join();
    if (seen !== liveSeen) {
      const first = liveSeen === '';
      liveSeen = seen;
      // The page has just fetched the event: no need again for the first answer.
      if (!first) void refresh();
    }
  }

  function showRunning(running: boolean): void {
    enginePlay.disabled = running;
    enginePause.disabled = !running;
    liveSection.classList.toggle('running', running);
  }

  /** Starts or pauses the server's play of the engine games. */
  async function playOrPause(action: 'play' | 'pause'): Promise<void> {
    message.textContent = '';
    enginePlay.disabled = true;
    enginePause.disabled = true;
    try {
      const r = action === 'play' ? await events.playEngines(key) : await events.pauseEngines(key);
      showRunning(r.running);
    } catch (error) {
      message.textContent = describeError(error);
      showRunning(action === 'pause');
    }
  }
  enginePlay.addEventListener('click', () => void playOrPause('play'));
  enginePause.addEventListener('click', () => void playOrPause('pause'));
  if (arbiter) {
    // Asked once: the list changes only on the server's command line.
    void events
      .engines()
      .then(r => {
        engineNames = r.engines.map(x => x.name);
        if (!addEngine) addEngine = engineNames[0] ?? '';
        if (view) showPlayers(view);
      })
      .catch(() => {
        engineNames = [];
      });
  }

  function showBracket(e: EventView): void {
    if (e.format !== 'knockout' || !e.knockout) {
      fill(bracket);
      return;
    }
    const view = bracketView(e);
    fill(
      bracket,
      h('h2', {}, 'Bracket'),
      h('p', { class: 'hint' }, e.knockout.description, e.knockout.seeding === 'lot' ? ' · seeded by lot' : ' · seeded by rating'),
      view ?? h('p', { class: 'hint', 'data-testid': 'bracket-note' }, 'The bracket is set when round 1 is paired (the seeds are fixed then).'),
    );
  }

  function showHistory(e: EventView): void {
    const shown = currentNumber(e);
    const done = e.round_list.filter(r => r.paired && r.round !== shown).reverse();
    fill(
      history,
      done.length > 0 ? h('h2', {}, 'Earlier rounds') : null,
      done.map((r, i) =>
        h(
          'details',
          { open: i === 0 },
          h('summary', {}, `Round ${r.round}${r.draw ? ` — position ${r.draw.position.id}` : ''}`),
          boardsTable(e, r),
        ),
      ),
    );
  }

  function showStandings(e: EventView): void {
    if (e.format === 'knockout') {
      const placings = e.rounds_paired > 0 ? placingsView(e) : null;
      fill(
        table,
        placings ? h('h2', {}, 'Placings') : null,
        placings,
        placings ? h('p', { class: 'hint' }, 'The champion and the runner-up, then the players by the round they went out in (those out in the same round share the places).') : null,
      );
      return;
    }
    if (e.rounds_paired === 0) {
      fill(table);
      return;
    }
    // Before the first result every line would read 0: say so instead.
    if (!e.round_list.some(r => r.boards.some(b => b.result !== null))) {
      fill(
        table,
        h('h2', {}, 'Standings'),
        h('p', { class: 'hint', 'data-testid': 'standings-note' }, 'No results yet: the standings appear with the first result.'),
      );
      return;
    }
    fill(
      table,
      h('h2', {}, `Standings after round ${e.rounds_paired}`),
      scroller(
        h(
          'table',
          { class: 'crosstable' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Place', 'No.', 'Player', 'Pts', ...e.tiebreaks.map(t => t.toUpperCase()), ...e.round_list.filter(r => r.paired).map(r => `R${r.round}`)].map(t =>
                h('th', {}, t),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            e.standings.map(s =>
              h(
                'tr',
                {},
                h('td', {}, s.place),
                h('td', {}, e.players[s.player - 1]?.pairing_number ?? ''),
                h('td', {}, who(e, s.player)),
                h('td', {}, s.points),
                s.tiebreaks.map(t => h('td', {}, t ?? '')),
                s.crosstable.map(c => h('td', { class: 'cross' }, c)),
              ),
            ),
          ),
        ),
      ),
      h('p', { class: 'hint' }, 'No.: the pairing number. Rounds: the opponent’s pairing number, w or b, and the result (1, =, 0; + and − by forfeit).'),
    );
  }

  /** A big round takes a while to pair: how far it has come, as the server says. */
  function showPairing(p: EventView['pairing']): void {
    pairing.hidden = !p;
    if (!p) {
      fill(pairing);
      return;
    }
    const seconds = Math.round(p.seconds);
    fill(
      pairing,
      h('progress', { max: String(Math.max(p.players, 1)), value: String(p.settled) }),
      ` Pairing round ${p.round}: ${p.settled.toLocaleString('en')} of ${p.players.toLocaleString('en')} player${p.players === 1 ? '' : 's'} placed`,
      seconds > 0 ? ` · ${seconds} s` : '',
    );
  }

  /** Pairs a round, following its progress while the request is under way. */
  async function pairWatched(number: number): Promise<EventView> {
    pairingAsked = true;
    const poll = window.setInterval(() => void refresh(), 700);
    try {
      return await events.pair(key, number);
    } finally {
      window.clearInterval(poll);
      pairingAsked = false;
      pairingEnded = performance.now();
      showPairing(null);
    }
  }

  async function refresh(): Promise<void> {
    if (busy && !pairingAsked) return;
    const asked = performance.now();
    try {
      const e = await events.get(key);
      // A reply asked for before the pairing's own answer came is out of date.
      if ((busy && !pairingAsked) || asked < pairingEnded) return;
      showPairing(e.pairing);
      if (busy) return;
      if (!view || e.revision !== view.revision) show(e);
    } catch (error) {
      message.textContent = describeError(error);
    }
  }
  void refresh();
  // Watchers follow the arbiter; the arbiter's own page only needs it for a second tab.
  const timer = window.setInterval(() => void refresh(), 3000);
  return {
    el: h(
      'section',
      { class: 'event-page' },
      title,
      summary,
      links,
      arbiter ? h('p', { class: 'hint', 'data-testid': 'arbiter-mode' }, 'You are the arbiter of this event (this browser holds its token).') : null,
      message,
      pairing,
      liveSection,
      bracket,
      round,
      players,
      table,
      history,
    ),
    title: 'Event',
    dispose: () => {
      window.clearInterval(timer);
      board.destroy();
      live?.dispose();
    },
  };
}

/** A table in a box of its own that scrolls sideways on a narrow screen (the page never does). */
function scroller(table: HTMLElement): HTMLElement {
  return h('div', { class: 'table-scroll' }, table);
}

/** A player's link to their seat, or why there is none. */
function seatAnchor(link: string | null, label: string): HTMLElement {
  return link
    ? h('a', { href: link, target: '_blank' }, label)
    : h('span', { class: 'hint', title: 'This game was made by an older server: its seats cannot be shown again.' }, `${label}: not available`);
}

/** The round the event page works on: the next one once every result of the last is in (a knockout's: once every match of the last is decided). */
function currentNumber(e: EventView): number {
  if (e.format === 'knockout' && e.knockout) return knockoutRound(e);
  const last = e.rounds_paired > 0 ? e.round_list[e.rounds_paired - 1] : undefined;
  const open = last?.boards.some(b => b.result === null) ?? false;
  return open || e.next_round === null ? Math.max(e.rounds_paired, 1) : e.next_round;
}

export function byeName(kind: string): string {
  switch (kind) {
    case 'pab':
      return 'pairing-allocated bye (a win’s points)';
    case 'half':
      return 'half-point bye';
    case 'full':
      return 'full-point bye';
    default:
      return 'not paired';
  }
}

/** How many matches of a knockout's round are tied with stage `stage` to come. */
function tiedAt(e: EventView, round: number, stage: number): number {
  return (e.knockout?.bracket[round - 1] ?? []).filter(m => m.state === 'tied' && (m.stage ?? (m.stages.at(-1)?.stage ?? 0) + 1) === stage).length;
}

/** A tiebreak stage's drawn position: its number and back rank, the draw's steps folded away. */
function stagePosition(d: EventDraw): HTMLElement {
  const p = d.position;
  return h(
    'div',
    { class: 'stage-position' },
    h('span', { class: 'position-number' }, `Position ${p.id}`),
    ' ',
    h('span', { class: 'position-rank' }, p.back_rank, ' ', h('span', { 'aria-hidden': 'true' }, figurines(p.back_rank))),
    d.steps.length > 0 ? h('details', {}, h('summary', {}, 'How it was drawn'), h('ol', { class: 'draw-steps' }, d.steps.map(x => h('li', {}, x)))) : null,
  );
}
