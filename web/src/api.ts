// The HTTP API of `chess960 serve` (docs/api.md), one typed function per endpoint.

import type {
  Account,
  Ack,
  Analysis,
  ChatLine,
  ChatLog,
  ChatRequest,
  DrawnPosition,
  Explorer,
  Fairness,
  GameList,
  GameView,
  Leaderboard,
  Levels,
  NewGame,
  NowPlaying,
  Player,
  PlayerStarts,
  Position,
  Session,
  Speed,
  Tables,
} from './types';
import type * as edge from './generated/api';
import { playerName } from './playerName';
import { rememberOrigin, type GameOrigin } from './origins';
import { holdsSeat, noteAccountSeat, rememberSeat, seatOf } from './seats';

/** A non-2xx answer; `message` is the server's `{"error": ...}` text, meant for the user, and
 * `code` its stable name for programs (`illegal_move`, `stale_ply`, ...; docs/api.md). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A JSON request to the server; a non-2xx answer throws an [`ApiError`] with its message.
 * `onResponse` sees a 2xx answer's headers before its body is read (the game view's
 * `X-Seat-Color`). */
export async function request<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  seat?: string,
  protocol2 = false,
  onResponse?: (response: Response) => void,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (seat !== undefined) headers['X-Seat-Token'] = seat;
  // Protocol 2 (docs/api.md): actions are acknowledged, the change comes on the WebSocket.
  if (protocol2) headers['X-Game-Protocol'] = '2';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached: is `chess960 serve` still running?');
  }
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, errorMessage(text, response), errorCode(text));
  onResponse?.(response);
  const parsed: unknown = text === '' ? undefined : JSON.parse(text);
  // A game view's version comes in a header (docs/api.md): kept with the view.
  const version = response.headers.get('X-Game-Version');
  if (version !== null && parsed && typeof parsed === 'object') (parsed as { version?: number }).version = Number(version);
  return parsed as T;
}

function errorCode(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'string') return parsed.code;
  } catch {
    // not JSON: no code
  }
  return undefined;
}

function errorMessage(text: string, response: Response): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'error' in parsed && typeof parsed.error === 'string') {
      return parsed.error;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() || `${response.status} ${response.statusText}`;
}

/** A message for the user from anything a request may throw. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The server's words as a sentence, to be followed by more (a link to act on them). */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const game = (key: string): string => `/api/games/${encodeURIComponent(key)}`;

/** An action on the game `key`: a POST carrying this browser's seat token for it, answered in
 * protocol 2 (an acknowledgement; the change comes on the game's WebSocket). */
const act = <T>(key: string, action: string, body: unknown): Promise<T> =>
  request<T>('POST', `${game(key)}/${action}`, body, seatOf(key), true);

export const api = {
  positions: () => request<Position[]>('GET', '/api/positions'),
  position: (id: number) => request<Position>('GET', `/api/positions/${id}`),
  levels: () => request<Levels>('GET', '/api/levels'),
  tables: () => request<Tables>('GET', '/api/tables'),
  fairness: () => request<Fairness>('GET', '/api/fairness'),
  draw: (method: string, seed?: number) =>
    request<DrawnPosition>('POST', '/api/draw', seed === undefined ? { method } : { method, seed }),

  /** A new game; the player's remembered name when the spec has none. `origin` says how the
   * start was chosen (for "new game with the same settings" on the game's page). */
  newGame: async (spec: NewGame, origin?: GameOrigin): Promise<GameView> => {
    const name = spec.name ?? playerName();
    const view = await request<GameView>('POST', '/api/games', name ? { ...spec, name } : spec);
    if (view.seat_token) rememberSeat(view.key, view.seat_token, view.seat_color);
    rememberOrigin(view.key, { spec, ...origin });
    return view;
  },
  /** Takes the open seat of a game between people; this browser keeps its token. */
  join: async (key: string, name?: string): Promise<GameView> => {
    const player = name ?? playerName();
    const body: edge.JoinRequest = player ? { name: player } : {};
    const view = await request<GameView>('POST', `${game(key)}/join`, body);
    if (view.seat_token) rememberSeat(view.key, view.seat_token, view.seat_color);
    return view;
  },
  games: (filter: { start_id?: number; result?: string; aborted?: string; account?: string; limit: number; offset: number }) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) {
      if (value !== undefined && value !== '') query.set(name, String(value));
    }
    return request<GameList>('GET', `/api/games?${query.toString()}`);
  },
  /** The explorer of start position `start` after `moves` (UCI, Chess960 form); with
   * `account`, of that player's games only. */
  explorer: (start: number, moves: string[], games = 20, account?: string) => {
    const query = new URLSearchParams({ start: String(start), games: String(games) });
    if (moves.length > 0) query.set('moves', moves.join(','));
    if (account) query.set('account', account);
    return request<Explorer>('GET', `/api/explorer?${query.toString()}`);
  },
  /** The game's view; for its player, in protocol 2, with their own premove. A logged-in
   * player's seat without a token here is learnt from the answer's `X-Seat-Color`. */
  game: (key: string) =>
    request<GameView>('GET', game(key), undefined, seatOf(key), true, response => noteAccountSeat(key, response.headers.get('X-Seat-Color'))),
  /** The games being played now, the latest move first. */
  gamesNow: () => request<{ games: NowPlaying[] }>('GET', '/api/games/now'),
  /** The open challenges of the lobby, oldest first. */
  lobby: () => request<{ challenges: edge.LobbyEntry[] }>('GET', '/api/lobby'),
  /** True if this browser holds a seat of the game (it created or joined it, or plays it
   * through the account logged in). */
  seated: (key: string) => holdsSeat(key),
  move: (key: string, move: string, ply: number) => act<Ack>(key, 'moves', { move, ply } satisfies edge.MoveRequest),
  /** Sets this player's premove, or clears it (`move` null): a clear names the premove it
   * clears, so that it cannot undo a newer one that overtook it. */
  premove: (key: string, move: string | null, clears?: string) =>
    act<Ack>(key, 'premove', (move === null && clears !== undefined ? { move, clears } : { move }) satisfies edge.PremoveRequest),
  takeback: (key: string, action: edge.TakebackAction = 'propose') =>
    act<Ack>(key, 'takeback', (action === 'propose' ? {} : { action }) satisfies edge.TakebackRequest),
  resign: (key: string) => act<Ack>(key, 'resign', {}),
  abort: (key: string) => act<Ack>(key, 'abort', {}),
  /** Deletes the game (with this browser's seat token for it, if it has one). */
  /** The chat lines kept (the players' room only for a player). */
  chat: (key: string) => request<ChatLog>('GET', `${game(key)}/chat`, undefined, seatOf(key)),
  /** A line in the players' room (a player) or the spectators' room (anyone else). */
  say: (key: string, body: ChatRequest) => request<ChatLine>('POST', `${game(key)}/chat`, body, seatOf(key)),
  deleteGame: (key: string) => request<void>('DELETE', game(key), undefined, seatOf(key)),
  drawAction: (key: string, action: edge.DrawAction) => act<Ack>(key, 'draw', { action } satisfies edge.DrawActionRequest),
  startClock: (key: string) => act<Ack>(key, 'start', {}),
  /** Northam's placement: `piece` (B, N, Q) on `file` of the placing player's back rank. */
  place: (key: string, piece: string, file: string) => act<Ack>(key, 'place', { piece, square: file } satisfies edge.PlaceRequest),
  /** Between people: the win or a draw against an opponent who stayed away. */
  force: (key: string, result: edge.ForceResult) => act<Ack>(key, 'force', { result } satisfies edge.ForceRequest),
  /** Between people, after the game: offer, accept or decline a rematch. */
  rematch: (key: string, action: edge.RematchAction) => act<GameView>(key, 'rematch', { action } satisfies edge.RematchRequest),
  analysis: (key: string, ply: number, depth: number) => act<Analysis>(key, 'analysis', { depth, ply }),

  // ---- accounts and players ----
  /** Who is logged in (the session cookie), and who may register. */
  account: () => request<Account>('GET', '/api/account'),
  register: (body: edge.RegisterRequest) => request<Account>('POST', '/api/account/register', body),
  login: (body: edge.LoginRequest) => request<Account>('POST', '/api/account/login', body),
  logout: () => request<void>('POST', '/api/account/logout', {}),
  sessions: () => request<Session[]>('GET', '/api/account/sessions'),
  endSession: (id: number) => request<void>('DELETE', `/api/account/sessions/${id}`),
  changePassword: (body: edge.PasswordRequest) => request<void>('POST', '/api/account/password', body),
  player: (name: string) => request<Player>('GET', `/api/players/${encodeURIComponent(name)}`),
  /** The results of a player's finished games per start position. */
  playerStarts: (name: string) => request<PlayerStarts>('GET', `/api/players/${encodeURIComponent(name)}/starts`),
  /** The best rated players of a speed class, best first. */
  leaderboard: (speed: Speed, limit = 100) =>
    request<Leaderboard>('GET', `/api/players?${new URLSearchParams({ speed, limit: String(limit) }).toString()}`),

  pgnUrl: (key: string) => `${game(key)}/pgn`,
  pgn: async (key: string): Promise<string> => {
    const response = await fetch(`${game(key)}/pgn`);
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, errorMessage(text, response));
    return text;
  },
  /** The game's WebSocket in protocol 2; with the seat token, connecting resumes a game
   * paused by a restart. */
  socketUrl: (key: string) => {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const seat = seatOf(key);
    const query = seat === undefined ? '' : `&seat=${encodeURIComponent(seat)}`;
    return `${scheme}//${location.host}${game(key)}/ws?protocol=2${query}`;
  },
};
