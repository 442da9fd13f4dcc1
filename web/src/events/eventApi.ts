// The events API (docs/api.md, "Events") and the arbiter tokens this browser keeps.

import { request } from '../api';
import type { LiveView } from '../generated/api';

export interface EventPlayer {
  number: number;
  name: string;
  rating: number | null;
  fide_id: number | null;
  federation: string;
  title: string;
  /** Their account on this server, if they were entered by one. */
  account: string | null;
  pairing_number: number | null;
  joined: number;
  withdrawn: number | null;
  byes: { round: number; kind: 'half' | 'zero' | 'full' }[];
  points: number;
  /** The registered engine that plays for this player on the server (null: a person). */
  engine?: string | null;
}

export interface EventPosition {
  id: number;
  back_rank: string;
  fen: string;
}

export interface EventBoard {
  board: number;
  white: number;
  black: number;
  result: string | null;
  position: EventPosition | null;
  game: string | null;
  /** A knockout's board: its match (1 first, bracket order), its stage (0: the regular games) and its time control. */
  match?: number | null;
  stage?: number | null;
  time_control?: string;
}

export interface EventDraw {
  position: EventPosition;
  how: { kind: string; method?: string; seed?: number; outcomes?: string };
  steps: string[];
}

/** One stage of a knockout match: its boards and the two players' points in it. */
export interface KnockoutStageScore {
  stage: number;
  kind: 'rapid' | 'blitz' | 'armageddon' | 'games' | null;
  label: string;
  boards: number[];
  /** The first player's and the second's points. */
  points: [number, number];
  complete: boolean;
}

export interface KnockoutMatch {
  number: number;
  first: number | null;
  second: number | null;
  state: 'waiting' | 'bye' | 'unpaired' | 'playing' | 'tied' | 'won';
  stage: number | null;
  winner: number | null;
  stages: KnockoutStageScore[];
}

export interface KnockoutView {
  games: number;
  seeding: 'rating' | 'lot';
  tiebreaks: { kind: string; games: number; time_control: string; label: string }[];
  description: string;
  /** Round by round, every match of the round. */
  bracket: KnockoutMatch[][];
  champion: number | null;
  placings: { player: number; first: number; last: number }[];
}

export interface EventRoundView {
  round: number;
  paired: boolean;
  draw: EventDraw | null;
  /** A knockout's tiebreak stages' positions, drawn once per round and stage. */
  stage_draws?: (EventDraw & { stage: number })[];
  boards: EventBoard[];
  byes: { player: number; kind: 'pab' | 'half' | 'full' | 'zero' }[];
}

export interface EventView {
  key: string;
  revision: number;
  name: string;
  city: string;
  start_date: string;
  end_date: string;
  arbiter: string;
  time_control: string;
  format: 'swiss' | 'round_robin' | 'double_round_robin' | 'knockout';
  rounds: number;
  rounds_paired: number;
  /** Virtual points for pairing in the first rounds (a Swiss): none, the Baku method, or as imported. */
  acceleration: 'none' | 'baku' | 'custom';
  /** A pairing of this event under way on the server: players settled so far. */
  pairing: { round: number; settled: number; players: number; seconds: number } | null;
  next_round: number | null;
  positions: { exclude_518: boolean; no_repeat: boolean; per_board: boolean; second_cycle_repeats: boolean; list: number[] };
  tiebreaks: string[];
  players: EventPlayer[];
  round_list: EventRoundView[];
  standings: { place: number; player: number; points: number; tiebreaks: (number | null)[]; crosstable: string[] }[];
  /** A knockout's plan and bracket (null for the other formats). */
  knockout?: KnockoutView | null;
  arbiter_token?: string;
}

export interface EventSummary {
  key: string;
  name: string;
  format: string;
  players: number;
  rounds_paired: number;
  rounds: number;
}

const TOKENS = 'chess960.arbiter';

/** The arbiter token this browser holds for an event, if any. */
export function arbiterToken(key: string): string | null {
  try {
    const all = JSON.parse(localStorage.getItem(TOKENS) ?? '{}') as Record<string, string>;
    return all[key] ?? null;
  } catch {
    return null;
  }
}

function rememberToken(key: string, token: string): void {
  let all: Record<string, string> = {};
  try {
    all = JSON.parse(localStorage.getItem(TOKENS) ?? '{}') as Record<string, string>;
  } catch {
    all = {};
  }
  all[key] = token;
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

/** A change by the arbiter: the event's view after it (or the route's own answer, `T`). */
async function change<T = EventView>(key: string, path: string, body: unknown): Promise<T> {
  const token = arbiterToken(key);
  const response = await fetch(`/api/events/${key}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Arbiter-Token': token ?? '' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // not JSON: the text as it is
    }
    throw new Error(message);
  }
  return JSON.parse(text) as T;
}

/** A board's game on the server and its players' links (null: not given again, see `links`). */
export interface SeatLinks {
  board: number;
  key: string;
  result?: string | null;
  white_link: string | null;
  black_link: string | null;
}

/** The players' links of a round's games, again: for the arbiter only (their token). */
async function links(key: string, round: number): Promise<{ round: number; games: SeatLinks[] }> {
  const response = await fetch(`/api/events/${key}/rounds/${round}/links`, {
    headers: { 'X-Arbiter-Token': arbiterToken(key) ?? '' },
    cache: 'no-store',
  });
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // not JSON: the text as it is
    }
    throw new Error(message);
  }
  return JSON.parse(text) as { round: number; games: SeatLinks[] };
}

export const events = {
  list: () => request<{ events: EventSummary[] }>('GET', '/api/events'),
  get: (key: string) => request<EventView>('GET', `/api/events/${key}`),
  async create(body: Record<string, unknown>): Promise<EventView> {
    const view = await request<EventView>('POST', '/api/events', body);
    if (view.arbiter_token) rememberToken(view.key, view.arbiter_token);
    return view;
  },
  addPlayer: (key: string, p: { name?: string; rating?: number; federation?: string; fide_id?: number; account?: string; engine?: string }) => change(key, '/players', p),
  withdraw: (key: string, n: number) => change(key, `/players/${n}/withdraw`, {}),
  bye: (key: string, n: number, round: number, kind: string) => change(key, `/players/${n}/bye`, { round, kind }),
  draw: (key: string, round: number, body: Record<string, unknown>) => change(key, `/rounds/${round}/draw`, body),
  /** A knockout's tiebreak stage's position (the same body as the round's draw). */
  drawStage: (key: string, round: number, stage: number, body: Record<string, unknown>) => change(key, `/rounds/${round}/stages/${stage}/draw`, body),
  /** The next tiebreak stage's games of every tied match of a knockout's round. */
  tiebreaks: (key: string, round: number) => change(key, `/rounds/${round}/tiebreaks`, {}) as Promise<EventView & { added: number[] }>,
  pair: (key: string, round: number) => change(key, `/rounds/${round}/pair`, {}),
  unpair: (key: string, round: number) => change(key, `/rounds/${round}/unpair`, {}),
  games: (key: string, round: number) => change(key, `/rounds/${round}/games`, {}) as Promise<EventView & { games: SeatLinks[] }>,
  links,
  result: (key: string, round: number, board: number, result: string | null) =>
    change(key, `/rounds/${round}/boards/${board}/result`, { result }),
  /** The engines the server's owner registered (on the command line: never over the API). */
  engines: () => request<{ engines: { name: string }[] }>('GET', '/api/engines'),
  /** The event's engine games as the server plays them: anyone may watch. */
  live: (key: string) => request<LiveView>('GET', `/api/events/${key}/live`),
  /** The server plays every board between two engines, round after round, until paused. */
  playEngines: (key: string) => change<{ running: boolean }>(key, '/engines/play', {}),
  pauseEngines: (key: string) => change<{ running: boolean }>(key, '/engines/pause', {}),
};

/** "Swiss, 9 rounds", "Double round robin". */
export function formatName(e: Pick<EventView, 'format' | 'rounds'> & Partial<Pick<EventView, 'acceleration' | 'knockout'>>): string {
  if (e.format === 'knockout') return `Knockout${e.knockout?.description ? ` (${e.knockout.description})` : ''}`;
  if (e.format === 'swiss') {
    const accelerated = e.acceleration === 'baku' ? ', accelerated (Baku)' : e.acceleration === 'custom' ? ', accelerated' : '';
    return `Swiss (FIDE Dutch), ${e.rounds} rounds${accelerated}`;
  }
  return e.format === 'round_robin' ? 'Round robin (Berger)' : 'Double round robin (Berger)';
}

/** The round the hall is about: the last paired one, or the next one once its position is drawn. */
export function currentRound(e: EventView): EventRoundView | null {
  const next = e.next_round !== null ? e.round_list[e.next_round - 1] : undefined;
  if (next?.draw) return next;
  return e.rounds_paired > 0 ? (e.round_list[e.rounds_paired - 1] ?? null) : null;
}

/** A player as lists show them: "Name (2100)". */
export function who(e: EventView, number: number): string {
  const p = e.players[number - 1];
  if (!p) return `#${number}`;
  return p.rating ? `${p.name} (${p.rating})` : p.name;
}

/** "1 player", "5 players". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
