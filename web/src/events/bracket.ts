// A knockout's bracket (the event page and its projector): the rounds as columns, each match
// with both players and their seeds, the score of every stage ("1–1, rapid 1½–½"), the winner
// marked, byes written "bye"; and the helpers that name a knockout's boards and stages.

import { h } from '../dom';
import { who, type EventBoard, type EventRoundView, type EventView, type KnockoutMatch } from './eventApi';

/** Points as a chess scoresheet writes them: 0, ½, 1, 1½. */
export function points(x: number): string {
  const whole = Math.floor(x + 1e-9);
  const half = x - whole > 0.25;
  if (whole === 0 && half) return '½';
  return `${whole}${half ? '½' : ''}`;
}

/** A tiebreak stage's kind as a sentence writes it: "rapid", "blitz", "Armageddon", "extra" (more games, or the regular games again). */
export function kindName(kind: string | null | undefined): string {
  if (!kind || kind === 'games') return 'extra';
  return kind === 'armageddon' ? 'Armageddon' : kind;
}

/** The kind and games of stage `stage` of a knockout (0: the regular games; past the last tiebreak the last repeats). */
export function stagePlan(e: EventView, stage: number): { kind: string | null; games: number; time_control: string } {
  const k = e.knockout;
  if (!k || stage === 0) return { kind: null, games: k?.games ?? 1, time_control: e.time_control };
  const t = k.tiebreaks[Math.min(stage - 1, k.tiebreaks.length - 1)];
  return t ? { kind: t.kind, games: t.games, time_control: t.time_control } : { kind: null, games: k.games, time_control: e.time_control };
}

/** "rapid (2 games, 10+5)": a tiebreak stage for the arbiter's controls. */
export function stageTitle(e: EventView, stage: number): string {
  const p = stagePlan(e, stage);
  const games = p.kind === 'armageddon' ? '1 game, a draw counts as a win for Black' : `${p.games} game${p.games === 1 ? '' : 's'}`;
  return `${kindName(p.kind)} (${games}${p.time_control ? `, ${p.time_control}` : ''})`;
}

/** A knockout board's name: "Match 1 · game 2", "Match 1 · rapid game 1", "Match 1 · Armageddon". */
export function boardLabel(e: EventView, r: EventRoundView, b: EventBoard): string | null {
  if (b.match === null || b.match === undefined) return null;
  const stage = b.stage ?? 0;
  const same = r.boards.filter(x => x.match === b.match && (x.stage ?? 0) === stage);
  const game = same.indexOf(b) + 1;
  if (stage === 0) return `Match ${b.match} · game ${game}`;
  const p = stagePlan(e, stage);
  const name = kindName(p.kind);
  // A repeated last stage: its number, so that two blitz stages are told apart.
  const repeat = e.knockout && stage > e.knockout.tiebreaks.length ? ` (stage ${stage})` : '';
  return same.length === 1 ? `Match ${b.match} · ${name}${repeat}` : `Match ${b.match} · ${name} game ${game}${repeat}`;
}

/** A match's score, stage by stage: "1–1, rapid 1½–½". Empty before any game. */
export function matchScore(m: KnockoutMatch): string {
  return m.stages
    .map(s => {
      const score = `${points(s.points[0])}–${points(s.points[1])}`;
      const name = s.stage === 0 ? '' : `${kindName(s.kind)} `;
      return `${name}${score}${s.complete ? '' : ' (playing)'}`;
    })
    .join(', ');
}

/** Whether a match is over (a winner, or a bye). */
function decided(m: KnockoutMatch): boolean {
  return m.state === 'won' || m.state === 'bye';
}

/** The round a knockout's pages work on: the last paired one while a match of it is undecided, else the next. */
export function knockoutRound(e: EventView): number {
  const bracket = e.knockout?.bracket ?? [];
  const last = e.rounds_paired;
  if (last > 0 && (bracket[last - 1] ?? []).some(m => !decided(m))) return last;
  return e.next_round ?? Math.max(last, 1);
}

/** The tiebreak stages that the tied matches of a round need next. */
export function stagesNeeded(e: EventView, round: number): number[] {
  const out = new Set<number>();
  for (const m of e.knockout?.bracket[round - 1] ?? []) {
    if (m.state === 'tied') out.add(m.stage ?? (m.stages.at(-1)?.stage ?? 0) + 1);
  }
  return [...out].sort((a, b) => a - b);
}

/** "Final", "Semifinals", "Quarterfinals", "Round 1". */
export function roundName(round: number, rounds: number): string {
  const fromEnd = rounds - round;
  if (fromEnd === 0) return 'Final';
  if (fromEnd === 1) return 'Semifinals';
  if (fromEnd === 2) return 'Quarterfinals';
  return `Round ${round}`;
}

/** The bracket: the rounds as columns (stacked on a phone), in a box that never widens the page. */
export function bracketView(e: EventView): HTMLElement | null {
  const k = e.knockout;
  if (!k || k.bracket.length === 0) return null;
  const seed = (n: number | null): string => (n === null ? '' : String(e.players[n - 1]?.pairing_number ?? ''));
  const line = (m: KnockoutMatch, n: number | null, side: 'first' | 'second'): HTMLElement => {
    if (n === null) {
      const text = m.state === 'bye' ? 'bye' : m.state === 'waiting' ? 'winner to come' : '';
      return h('div', { class: `bracket-player empty${m.state === 'bye' ? ' bye' : ''}`, 'data-testid': `bracket-${side}` }, h('span', { class: 'seed' }), h('span', { class: 'name' }, text));
    }
    const won = m.winner === n && m.state === 'won';
    const lost = m.state === 'won' && m.winner !== n;
    return h(
      'div',
      { class: `bracket-player${won || (m.state === 'bye' && m.winner === n) ? ' winner' : ''}${lost ? ' loser' : ''}`, 'data-testid': `bracket-${side}` },
      h('span', { class: 'seed', title: 'Seed' }, seed(n)),
      h('span', { class: 'name' }, who(e, n)),
      won ? h('span', { class: 'mark', title: 'Goes through' }, '✓') : null,
    );
  };
  const rounds = k.bracket.length;
  const note = (m: KnockoutMatch, round: number): string => {
    const w = m.winner;
    switch (m.state) {
      case 'bye':
        return w !== null ? `${who(e, w)} goes through (bye)` : 'bye';
      case 'won': {
        if (w === null) return '';
        const how = drawnArmageddon(e, round, m) ? ' (Armageddon drawn: Black goes through)' : '';
        return `${who(e, w)} ${round === rounds ? 'wins the final' : 'goes through'}${how}`;
      }
      case 'tied':
        return `tied: tiebreak stage ${m.stage ?? '?'} next`;
      case 'playing':
        return m.stage ? `playing tiebreak stage ${m.stage}` : 'playing';
      case 'unpaired':
        return 'not paired yet';
      default:
        return '';
    }
  };
  return h(
    'div',
    { class: 'bracket-scroll', 'data-testid': 'bracket' },
    h(
      'div',
      { class: 'bracket' },
      k.bracket.map((matches, i) =>
        h(
          'section',
          { class: 'bracket-round', 'data-testid': `bracket-round-${i + 1}` },
          h('h3', {}, roundName(i + 1, rounds)),
          h(
            'ol',
            { class: 'bracket-matches' },
            matches.map(m =>
              h(
                'li',
                { class: `bracket-match state-${m.state}`, 'data-testid': `match-${i + 1}-${m.number}`, 'data-state': m.state },
                h('div', { class: 'bracket-head' }, `Match ${m.number}`),
                line(m, m.first, 'first'),
                line(m, m.second, 'second'),
                m.stages.length > 0 ? h('div', { class: 'bracket-score', 'data-testid': 'match-score' }, matchScore(m)) : null,
                h('div', { class: 'bracket-note', 'data-testid': 'match-note' }, note(m, i + 1)),
              ),
            ),
          ),
        ),
      ),
    ),
    k.champion !== null ? h('p', { class: 'bracket-champion', 'data-testid': 'champion' }, 'Champion: ', who(e, k.champion)) : null,
  );
}

/** Whether the Armageddon game that decided a match of `round` was drawn (Black went through on it). */
function drawnArmageddon(e: EventView, round: number, m: KnockoutMatch): boolean {
  const s = m.stages.find(x => x.stage === m.stage);
  if (!s || s.kind !== 'armageddon' || s.boards.length !== 1) return false;
  return e.round_list[round - 1]?.boards[(s.boards[0] ?? 0) - 1]?.result === '1/2-1/2';
}

/** The placings of a knockout: the champion, the runner-up, then by the round each player went out in. */
export function placingsView(e: EventView): HTMLElement | null {
  const k = e.knockout;
  if (!k || k.placings.length === 0) return null;
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'placings', 'data-testid': 'placings' },
      h('thead', {}, h('tr', {}, ['Place', 'Seed', 'Player'].map(t => h('th', {}, t)))),
      h(
        'tbody',
        {},
        k.placings.map(p =>
          h('tr', {}, h('td', {}, p.first === p.last ? p.first : `${p.first}–${p.last}`), h('td', {}, e.players[p.player - 1]?.pairing_number ?? ''), h('td', {}, who(e, p.player))),
        ),
      ),
    ),
  );
}
