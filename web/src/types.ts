// The shapes of the server's JSON, as docs/api.md defines them.

export type Color = 'white' | 'black';
export type Square = string; // 'a1'..'h8'
export type Result = '1-0' | '0-1' | '1/2-1/2';

export interface Position {
  id: number;
  back_rank: string;
  fen: string;
}

export interface DrawnPosition {
  id: number;
  back_rank: string;
  method: string;
  steps: string[];
  fen?: string;
  /** The seed that repeats the draw (absent for a person's outcomes). */
  seed?: number;
}

/** How a start position was drawn: `drawn` in a new game (the server replays it). */
export interface DrawSpec {
  method: string;
  seed?: number;
  outcomes?: string;
}

/** `drawn` in the game view: the draw, replayed by the server from the game's tags. */
export interface DrawnRecord {
  method: string;
  seed: number | null;
  outcomes: string | null;
  steps: string[];
}

/** `GET /api/levels`: the engine levels a new game accepts. */
export interface Levels {
  elo: { min: number; max: number };
  depth: { min: number; max: number };
  default: { elo: number } | { depth: number };
}

export interface Tables {
  king_table: { row: number; pieces: string }[];
  bishop_table: { row: number; squares: string[] }[];
  example: { id: number; king_row: number; bishop_row: number; back_rank: string };
}

export interface FairnessClass {
  times_960: string;
  positions: number;
  description: string;
}

export interface Fairness {
  methods: { method: string; uniform: boolean; classes: FairnessClass[] }[];
}

export type Level = { elo: number } | { depth: number };

export interface TimeControl {
  initial_ms: number;
  increment_ms: number;
}

export type StartSpec =
  | { id: number }
  | { random: true; exclude_classical: boolean }
  | { fen: string }
  | { pgn: string }
  /** Placed by the two players once the game begins (Northam). */
  | { chosen: true };

export interface NewGame {
  start: StartSpec;
  color: Color | 'random';
  /** The engine's level; absent for a game against a person. */
  level?: Level;
  /** `human`: a challenge that a friend joins by the game's link; `hotseat`: two people at
   * this device, taking turns. */
  opponent?: 'engine' | 'human' | 'hotseat';
  /** At one device: the other player's name. */
  opponent_name?: string;
  /** A challenge listed in the lobby for anyone to accept. */
  lobby?: boolean;
  time_control: TimeControl | null;
  study_ms: number;
  /** With `start.id`: how it was drawn by hand. */
  drawn?: DrawSpec;
  /** The human's name (the server's default: "Player"). */
  name?: string;
}

/** The squares of the rooks that may still castle, per side (the server's `castling`). */
export interface CastlingRooks {
  white: Square[];
  black: Square[];
}

export interface Clocks {
  white_ms: number;
  black_ms: number;
}

export interface Castle {
  side: 'king' | 'queen';
  king_to: Square;
  rook_from: Square;
  rook_to: Square;
  king_destination_move: boolean;
  looks_like_king_step: boolean;
}

export interface LegalMove {
  uci: string;
  san: string;
  from: Square;
  to: Square;
  promotion: string | null;
  castle: Castle | null;
}

export interface PlayedMove {
  uci: string;
  san: string;
  clocks?: Clocks | null;
  /** The position after the move (X-FEN). */
  fen: string;
  /** The square of the king in check after the move, if any. */
  check: Square | null;
  /** The rooks that may still castle after the move. */
  castling?: CastlingRooks;
}

export interface GameView {
  key: string;
  id: number;
  start_id: number | null;
  /** null for a game set up from a FEN that is not a Chess960 start position. */
  back_rank: string | null;
  start_fen: string;
  /** The rooks that may castle in the start position. */
  start_castling?: CastlingRooks;
  fen: string;
  turn: Color;
  /** The person's colour in a game against the engine; null between two people. */
  human: Color | null;
  /** The engine's level in a game against it; null between two people. */
  level: Level | null;
  /** Who plays each colour: the engine at a level, or a person through a seat. */
  sides?: { white: Side; black: Side };
  /** The state's version: of two views of one game, the higher is the newer. Not in the JSON
   * view: `request` takes it from the `X-Game-Version` header, the socket from the event. */
  version?: number;
  white: string;
  black: string;
  moves: PlayedMove[];
  time_control: TimeControl | null;
  /** null when the game has no time control. */
  clocks: (Clocks & { running: Color | null }) | null;
  /** `waiting`: a game between people whose second seat is still open. */
  status: 'waiting' | 'placing' | 'study' | 'playing' | 'finished';
  result: Result | null;
  reason: string | null;
  check: Square | null;
  /** The rooks that may still castle. */
  castling?: CastlingRooks;
  last_move: { from: Square; to: Square } | null;
  legal: LegalMove[];
  draw_claim: string | null;
  premove: string | null;
  /** Between people: the side whose draw offer waits for the other's answer. */
  draw_offered_by?: Color | null;
  /** Between people: the side whose takeback proposal waits for the other's answer. */
  takeback_proposed_by?: Color | null;
  engine_thinking: boolean;
  /** While the engine's search waits for a free search thread: searches before it, time waited. */
  engine_queue?: { ahead: number; waited_ms: number } | null;
  /** Loaded after a server restart and waiting for the player: the clocks are stopped. */
  paused?: boolean;
  /** Study time left, while in study. */
  study_ms?: number | null;
  /** How the start position was drawn by hand (method, seed or outcomes, steps), if it was. */
  drawn?: DrawnRecord | null;
  /** Present in the answer to a draw offer the engine turned down. */
  draw_offer?: string;
  /** Why the engine declined the draw offer (with a declined `draw_offer`). */
  draw_offer_reason?: string;
  /** The game may be aborted now: not both sides have moved. */
  abortable?: boolean;
  /** While the game waits for the player's first move: the time before it is aborted. */
  abandon_ms?: number | null;
  /** Between people while the game is played: how long each player has been away (null while
   * here), and after how long away the opponent may claim the win or a draw. */
  away?: { white_ms: number | null; black_ms: number | null; claim_after_ms: number } | null;
  /** The start position being placed by the players (Northam), until the game begins. */
  placement?: Placement | null;
  /** Two people at one device: this browser plays both colours, the side to move each time. */
  hotseat?: boolean;
  /** A challenge listed in the lobby. */
  listed?: boolean;
  /** Between people once the game is over: the side whose rematch offer waits for an answer. */
  rematch_offered_by?: Color | null;
  /** The key of the rematch, once both agreed to it. */
  rematch?: string | null;
  /** False for a game without a seat token (terminal, import, older server): watched only. */
  has_seat: boolean;
  /** In the answer to the new-game and join requests only: the secret every action on the game
   * needs, and the colour it plays. */
  seat_token?: string;
  seat_color?: Color;
}

export interface GameSummary {
  key: string;
  id: number;
  start_id: number | null;
  white: string;
  black: string;
  result: Result | '*';
  reason: string | null;
  date: string;
  /** When the game was stored, ms since the Unix epoch (the time of day). */
  created_ms?: number;
  plies: number;
}

/** A game being played now (`GET /api/games/now`), for spectators. */
export interface NowPlaying {
  key: string;
  start_id: number | null;
  white: string;
  black: string;
  sides: { white: Side; black: Side };
  turn: Color;
  plies: number;
  clocks: (Clocks & { running: Color | null }) | null;
}

export interface GameList {
  total: number;
  games: GameSummary[];
}

export type Score = { cp: number } | { mate: number };

export interface Analysis {
  ply: number;
  score: Score;
  depth: number;
  pv: string[];
  pv_san: string[];
}

/** Who plays one colour (`GameView.sides`). */
export type Side = { type: 'engine'; level: Level } | { type: 'human'; seat: 'held' | 'open' | 'none' };

/** A game's WebSocket event; each carries the version of the newest state sent before it. */
export type SocketMessage =
  | { type: 'state'; version: number; game: GameView }
  | { type: 'thinking'; version: number; depth: number; score: Score; pv_san: string[]; nodes: number }
  | { type: 'clock'; version: number; white_ms: number; black_ms: number; running: Color | null }
  | { type: 'deleted'; version: number; key: string }
  | { type: 'error'; error: string };

/** Games by result, as `GET /api/explorer` counts them; `score` is White's average over the finished ones. */
export interface ExplorerResults {
  games: number;
  white: number;
  draws: number;
  black: number;
  /** Games without a result (in progress, abandoned, aborted): never in the percentages. */
  unfinished: number;
  score: number | null;
}

export interface ExplorerMove extends ExplorerResults {
  uci: string;
  san: string;
}

/** The database statistics of a start position, as `chess960 db stats` gives them. */
export interface StartStats {
  white_wins: number;
  draws: number;
  black_wins: number;
  games: number;
  score: number | null;
  low: number | null;
  high: number | null;
  favours: 'white' | 'black' | null;
}

/** `GET /api/explorer`. */
export interface Explorer {
  start_id: number | null;
  fen: string;
  line: { uci: string; san: string }[];
  key: string;
  total: ExplorerResults;
  ended: ExplorerResults;
  moves: ExplorerMove[];
  games: GameSummary[];
  stats: StartStats | null;
}

/** Northam's placement in progress (the server's `placement` view). */
export interface Placement {
  to_place: Color | null;
  placed: { player: Color; piece: string; file: string; auto: boolean }[];
  /** White's back rank so far, a to h, `.` for a free square. */
  rank: string;
  remaining: string[];
  /** The files each remaining piece may go on now. */
  legal: Record<string, string[]>;
  ms_left: number | null;
  per_ms: number;
}
