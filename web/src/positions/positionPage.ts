// The page of one start position (/positions/<0..959>): the position drawn, its database
// statistics with a chart, the opening explorer of the stored games (play a move on the board,
// with Chess960 castling by the game board's gestures, or click it in the table; go back along
// the line), the games that reached the position, and links to play or analyse.
// The line explored is kept in the address (?moves=e2e4,e7e5) so that it survives a reload;
// `?account=ann` (a link from a player's page) explores that player's games only.

import type { Key } from '@lichess-org/chessground/types';
import { api, describeError, request } from '../api';
import type { AnalysisPosition } from '../analysis/types';
import { startLabel } from '../backRank';
import { GameBoard } from '../board/gameBoard';
import { fill, h } from '../dom';
import { movesView, percent, score } from '../explorer/explorerPanel';
import type { Navigate, Page } from '../page';
import type { GameSummary, GameView, StartStats } from '../types';
import './positionPage.css';
import { svg } from '../svg';

/** The most half-moves the server explores from the start (crates/server/src/explorer.rs). */
const MAX_LINE = 300;



/** The moves of a line in the address, as far as they look like UCI moves. */
export function lineFromSearch(search: string): string[] {
  const moves = new URLSearchParams(search).get('moves') ?? '';
  return moves
    .split(',')
    .map(m => m.trim())
    .filter(m => /^[a-h][1-8][a-h][1-8][nbrqk]?$/.test(m))
    .slice(0, MAX_LINE);
}

/** The statistics chart: the results as one bar, then White's score with its 95% interval against ½. */
export function statsChart(s: StartStats): SVGSVGElement {
  // Narrower drawing on a phone, so that its text stays readable when scaled to the screen.
  const width = window.innerWidth < 600 ? 340 : 480;
  const left = 12;
  const right = width - 12;
  const x = (v: number): number => left + v * (right - left);
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${width} 150`, class: 'stats-chart', role: 'img', 'data-testid': 'stats-chart' },
    svg('title', {}, `Results of ${s.games} finished games and White's score with its 95% interval`),
  );
  const total = s.games;
  if (total === 0) {
    chart.append(svg('text', { x: width / 2, y: 75, 'text-anchor': 'middle', class: 'label' }, 'No finished games from this position yet'));
    return chart;
  }
  let at = 0;
  for (const [n, cls, name] of [
    [s.white_wins, 'white', 'White'],
    [s.draws, 'draw', 'draws'],
    [s.black_wins, 'black', 'Black'],
  ] as const) {
    if (n === 0) continue;
    const w = (n / total) * (right - left);
    chart.append(svg('rect', { x: left + at, y: 16, width: w, height: 34, class: `bar ${cls}` }, svg('title', {}, `${name}: ${n}`)));
    if (w > 60) {
      chart.append(svg('text', { x: left + at + w / 2, y: 38, 'text-anchor': 'middle', class: `bar-label ${cls}` }, `${name} ${percent(n, total)}`));
    }
    at += w;
  }
  // Score axis 0..1 with the ½ line, the interval and the observed score.
  const axis = 104;
  chart.append(
    svg('line', { x1: x(0), x2: x(1), y1: axis, y2: axis, class: 'axis' }),
    svg('line', { x1: x(0.5), x2: x(0.5), y1: 70, y2: axis + 8, class: 'half' }),
  );
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(
      svg('line', { x1: x(v), x2: x(v), y1: axis, y2: axis + 5, class: 'axis' }),
      svg('text', { x: x(v), y: axis + 20, 'text-anchor': v === 0 ? 'start' : v === 1 ? 'end' : 'middle', class: 'tick' }, String(v)),
    );
  }
  if (s.score !== null && s.low !== null && s.high !== null) {
    const cls = s.favours ? `interval favours-${s.favours}` : 'interval';
    chart.append(
      svg('line', { x1: x(s.low), x2: x(s.high), y1: 86, y2: 86, class: cls }),
      svg('line', { x1: x(s.low), x2: x(s.low), y1: 80, y2: 92, class: cls }),
      svg('line', { x1: x(s.high), x2: x(s.high), y1: 80, y2: 92, class: cls }),
      svg('circle', { cx: x(s.score), cy: 86, r: 5, class: `score ${cls}` }),
      svg('text', { x: x(s.score), y: 72, 'text-anchor': s.score < 0.2 ? 'start' : s.score > 0.8 ? 'end' : 'middle', class: 'label' }, `White's score ${s.score.toFixed(3)}`),
    );
  }
  chart.append(svg('text', { x: left, y: 146, class: 'tick' }, '0 = Black wins all'), svg('text', { x: right, y: 146, 'text-anchor': 'end', class: 'tick' }, 'White wins all = 1'));
  return chart;
}

function statsView(s: StartStats): HTMLElement {
  const verdict =
    s.games === 0
      ? 'No finished games yet.'
      : s.favours === null
        ? 'The 95% interval contains ½: no side is significantly favoured by these games.'
        : `The whole 95% interval lies ${s.favours === 'white' ? 'above' : 'below'} ½: these games significantly favour ${s.favours === 'white' ? 'White' : 'Black'}.`;
  return h(
    'div',
    { class: 'position-stats', 'data-testid': 'position-stats' },
    statsChart(s),
    h(
      'dl',
      { class: 'stats-numbers' },
      h('dt', {}, 'Finished games'),
      h('dd', { 'data-testid': 'stats-games' }, s.games),
      h('dt', {}, 'White wins'),
      h('dd', {}, `${s.white_wins} (${percent(s.white_wins, s.games)})`),
      h('dt', {}, 'Draws'),
      h('dd', {}, `${s.draws} (${percent(s.draws, s.games)})`),
      h('dt', {}, 'Black wins'),
      h('dd', {}, `${s.black_wins} (${percent(s.black_wins, s.games)})`),
      h('dt', {}, "White's score"),
      h('dd', {}, s.score === null ? '–' : `${s.score.toFixed(3)}, 95% interval ${score(s.low)}–${score(s.high)}`),
    ),
    h('p', { class: 'muted' }, verdict, ' The same figures as ', h('code', {}, 'chess960 db stats'), '.'),
  );
}

function gamesView(games: GameSummary[], total: number): HTMLElement {
  if (games.length === 0) return h('p', { class: 'muted' }, 'No stored game reached this position.');
  return h(
    'div',
    { class: 'explorer-games' },
    h(
      'table',
      { 'data-testid': 'explorer-games' },
      h('caption', {}, total > games.length ? `The newest ${games.length} of ${total} games` : `${total} game${total === 1 ? '' : 's'}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'White'),
          h('th', { scope: 'col' }, 'Black'),
          h('th', { scope: 'col' }, 'Result'),
          h('th', { scope: 'col', class: 'wide-only' }, 'Date'),
          h('th', { scope: 'col', class: 'wide-only' }, 'Moves'),
          h('th', { scope: 'col' }, ''),
        ),
      ),
      h(
        'tbody',
        {},
        games.map(g =>
          h(
            'tr',
            {},
            h('td', {}, g.white),
            h('td', {}, g.black),
            h('td', { class: 'num' }, g.result),
            h('td', { class: 'wide-only' }, g.date),
            h('td', { class: 'num wide-only' }, Math.ceil(g.plies / 2)),
            h('td', {}, h('a', { href: `/game/${g.key}` }, 'Open')),
          ),
        ),
      ),
    ),
  );
}

/** "1. e4 e5 2. Nf3" with each move a button back to the position after it. */
function lineView(line: { san: string }[], goTo: (plies: number) => void): HTMLElement {
  const items: HTMLElement[] = [h('button', { type: 'button', class: 'link', onclick: () => goTo(0), 'aria-current': line.length === 0 ? 'true' : null }, 'Start')];
  line.forEach((m, i) => {
    const number = i % 2 === 0 ? `${i / 2 + 1}.` : '';
    items.push(
      h(
        'button',
        { type: 'button', class: 'link', onclick: () => goTo(i + 1), 'aria-current': i + 1 === line.length ? 'true' : null },
        number ? `${number} ${m.san}` : m.san,
      ),
    );
  });
  return h('nav', { class: 'explorer-line', 'aria-label': 'Line explored', 'data-testid': 'explorer-line' }, items);
}

/** The player whose games alone are explored (`?account=`), if any. */
export function accountFromSearch(search: string): string | null {
  const name = new URLSearchParams(search).get('account')?.trim() ?? '';
  return /^[A-Za-z0-9_-]{1,40}$/.test(name) ? name : null;
}

export function positionPage(id: number, navigate: Navigate): Page {
  let line = lineFromSearch(location.search);
  const account = accountFromSearch(location.search);
  let disposed = false;
  let loads = 0;
  let statsShown = false;

  const title = h('h1', {}, `Start position #${id}`);
  const boardEl = h('div', { class: 'board', 'data-testid': 'board' });
  const fenText = h('p', { class: 'fen mono muted', 'data-testid': 'explorer-fen' });
  const lineBox = h('div', {});
  const explorerBox = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  const gamesBox = h('div', {});
  const statsBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const message = h('p', { class: 'message', role: 'alert' });
  const summary = h('p', { class: 'explorer-summary', 'data-testid': 'explorer-summary' });
  const analyseHere = h('a', { class: 'button', 'data-testid': 'analyse-here', hidden: true }, 'Analyse this position');
  const back = h('button', { type: 'button', class: 'button', 'data-testid': 'explorer-back', onclick: () => goTo(line.length - 1) }, '◀ Back');

  // The board is played on as the analysis board is: the server gives the legal moves of the
  // explorer's position (POST /api/analysis/position), and a move walks the explorer.
  const gameBoard = new GameBoard(boardEl, {
    move: move => {
      if (line.length >= MAX_LINE) return;
      line = [...line, move.uci];
      load();
    },
    premove: () => {},
  });
  const board = (fen: string, last: string | undefined, mine: number): void => {
    const lastMove = last ? ([last.slice(0, 2), last.slice(2, 4)] as Key[]) : undefined;
    const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    // Shown at once, not playable until the legal moves are known.
    gameBoard.cg.set({ fen: fen.split(' ')[0], lastMove, turnColor: turn, movable: { color: undefined, dests: new Map() } });
    request<AnalysisPosition>('POST', '/api/analysis/position', { fen, moves: [] }).then(
      position => {
        if (disposed || mine !== loads) return;
        const view = {
          fen: position.fen,
          turn: position.turn,
          check: position.check,
          last_move: lastMove ? { from: lastMove[0], to: lastMove[1] } : null,
          legal: line.length >= MAX_LINE ? [] : position.legal,
          status: 'playing',
          premove: null,
        } as unknown as GameView;
        gameBoard.showLive(view, position.turn);
        boardEl.dataset.legal = String(view.legal.length);
      },
      error => {
        if (!disposed && mine === loads) message.textContent = describeError(error);
      },
    );
  };

  const load = (): void => {
    const mine = ++loads;
    back.disabled = line.length === 0;
    api.explorer(id, line, 20, account ?? undefined).then(
      e => {
        if (disposed || mine !== loads) return;
        message.textContent = '';
        line = e.line.map(m => m.uci);
        const params = new URLSearchParams();
        if (account) params.set('account', account);
        if (line.length > 0) params.set('moves', line.join(','));
        // Commas stay readable in the address.
        const query = params.size > 0 ? `?${params.toString().replace(/%2C/g, ',')}` : '';
        if (location.pathname + location.search !== `/positions/${id}${query}`) history.replaceState(null, '', `/positions/${id}${query}`);
        board(e.fen, line[line.length - 1], mine);
        fenText.textContent = e.fen;
        fill(lineBox, lineView(e.line, goTo));
        back.disabled = line.length === 0;
        const t = e.total;
        summary.textContent =
          t.games === 0
            ? 'No games reached this position.'
            : `${t.games} game${t.games === 1 ? '' : 's'} reached this position` +
              (t.unfinished > 0 ? ` (${t.unfinished} without a result, not counted in the percentages)` : '') +
              (t.score !== null ? `; White scored ${t.score.toFixed(2)}.` : '.');
        fill(explorerBox, movesView(e, uci => {
          line = [...line, uci];
          load();
        }));
        fill(gamesBox, gamesView(e.games, t.games));
        // The statistics are the start position's: the same for every line.
        if (e.stats && !statsShown) {
          statsShown = true;
          fill(statsBox, statsView(e.stats));
        }
        analyseHere.hidden = line.length === 0;
        analyseHere.setAttribute('href', `/analysis?fen=${encodeURIComponent(e.fen)}`);
      },
      error => {
        if (disposed || mine !== loads) return;
        message.textContent = describeError(error);
        // A line that the server refuses (edited by hand): start again from the position.
        if (line.length > 0) {
          line = [];
          load();
        }
      },
    );
  };
  const goTo = (plies: number): void => {
    line = line.slice(0, Math.max(0, plies));
    load();
  };

  api.position(id).then(
    p => fill(title, startLabel(p.id, p.back_rank)),
    () => {},
  );
  const neighbour = (n: number): HTMLElement =>
    h('a', { href: `/positions/${(n + 960) % 960}`, class: 'button', onclick: (event: Event) => { event.preventDefault(); navigate(`/positions/${(n + 960) % 960}`); } }, n < id ? `◀ #${(n + 960) % 960}` : `#${n % 960} ▶`);

  const el = h(
    'section',
    { class: 'position-page', 'data-testid': 'position-page' },
    h('div', { class: 'position-head' }, title, h('div', { class: 'position-links' }, neighbour(id - 1), neighbour(id + 1))),
    h(
      'div',
      { class: 'position-actions' },
      h('a', { class: 'button primary', href: `/?start=${id}`, 'data-testid': 'play-position' }, 'Play this position'),
      h('a', { class: 'button', href: `/analysis?start=${id}`, 'data-testid': 'analyse-position' }, 'Analyse'),
      analyseHere,
      h('a', { class: 'button', href: '/positions' }, 'All positions'),
    ),
    message,
    h(
      'div',
      { class: 'position-columns' },
      h('div', { class: 'position-board' }, h('div', { class: 'board-wrap' }, boardEl), fenText),
      h(
        'div',
        { class: 'position-explorer' },
        h('h2', {}, 'Explorer'),
        account
          ? h(
              'p',
              { class: 'explorer-account', 'data-testid': 'explorer-account' },
              'Only the games of ',
              h('a', { href: `/@/${encodeURIComponent(account)}` }, account),
              '. ',
              h('a', { href: `/positions/${id}` }, 'All games'),
            )
          : null,
        h('div', { class: 'explorer-nav' }, back, lineBox),
        summary,
        explorerBox,
      ),
    ),
    h('h2', {}, account ? `${account}'s games that reached this position` : 'Games that reached this position'),
    gamesBox,
    h('h2', {}, 'Database statistics of this start position'),
    statsBox,
  );
  load();
  return {
    el,
    title: `Position ${id}`,
    dispose: () => {
      disposed = true;
      gameBoard.destroy();
    },
  };
}
