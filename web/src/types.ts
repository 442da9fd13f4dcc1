// The shapes of the server's JSON, as docs/api.md defines them. Those of a game (its view, its
// WebSocket events, the answers to its actions), of the games being played, the lobby and the
// analysis board, and the new-game request, are generated from the server's Rust types
// (generated/api.ts), as are those of accounts and players; the rest are written here.

import type * as edge from './generated/api';

export type Color = edge.ColorJson;
export type Result = Exclude<edge.ResultJson, '*'>;
export type Level = edge.LevelJson;
export type TimeControl = edge.TimeControl;
/** The squares of the rooks that may still castle, per side (the server's `castling`). */
export type CastlingRooks = edge.CastlingView;
export type Clocks = edge.ClocksJson;
export type Castle = edge.CastleJson;
export type LegalMove = edge.LegalMove;
export type PlayedMove = edge.MoveView;
/** `drawn` in the game view: the draw, replayed by the server from the game's tags. */
export type DrawnRecord = edge.DrawnView;
export type Placement = edge.PlacingView;
/** Who plays one colour (`GameView.sides`). */
export type Side = edge.SideView;
export type Score = edge.ScoreJson;
/** What a move or an action may change in a game's view (protocol 2's `move` event). */
export type NowView = edge.NowView;
/** Protocol 2's answer to an action. */
export type Ack = edge.Ack;
/** A game's view, with its version (the `X-Game-Version` header's, or its event's) kept
 * beside it: of two views of one game, the higher version is the newer. */
export type GameView = edge.GameView & { version?: number };
/** A game's WebSocket event; each carries the version of the newest state sent before it. */
export type SocketMessage = edge.Event;
/** A line of a game's chat, its room, and the lines kept (`GET /api/games/{key}/chat`). */
export type ChatLine = edge.ChatLine;
export type Room = edge.Room;
export type ChatLog = edge.ChatLog;
/** `POST /api/games/{key}/chat`: `name` is a guest's in the spectators' room. */
export interface ChatRequest {
  room: Room;
  text: string;
  name?: string;
}

export type Square = string; // 'a1'..'h8'

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
export type DrawSpec = edge.DrawnIn;

/** `GET /api/levels`: the engine levels a new game accepts. */
export interface Levels {
  elo: { min: number; max: number };
  depth: { min: number; max: number };
  /** Full strength: no cap on the search, at most this long a move (and its own clock). */
  full?: { movetime_ms: { min: number; max: number; default: number } };
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

/** Where a new game begins: a number, a random draw, a FEN, a PGN continued, or placed by the
 * two players once the game begins (Northam). */
export type StartSpec = edge.StartRequest;

/** `POST /api/games`: what every game takes, and what only its kind of opponent takes
 * (`opponent`: the engine, a challenge a friend joins by the game's link, or two people at this
 * device). */
export type NewGame = edge.NewGameRequest;

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
export type NowPlaying = edge.NowPlaying;

export interface GameList {
  total: number;
  games: GameSummary[];
}

export interface Analysis {
  ply: number;
  score: Score;
  depth: number;
  pv: string[];
  pv_san: string[];
}

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


/** `GET /api/account`: the player logged in (`null` for a guest), and who may register. */
export type Account = edge.AccountJson;
export type User = edge.UserJson;
/** One of the logged-in player's sessions (`GET /api/account/sessions`). */
export type Session = edge.SessionJson;
/** `GET /api/players/{name}`. */
export type Player = edge.PlayerJson;
/** A player's rating in one speed class, with its history. */
export type PlayerRating = edge.RatingJson;
export type RatingPoint = edge.RatingPointJson;
/** A player's rating on a game's page or in the lobby: before the game, and its change after. */
export type GameRating = edge.RatingView;
/** The speed classes a rating is kept in, fastest first. */
export type Speed = NonNullable<edge.GameView['rated']>;

/** Games won, drawn and lost, and the points scored (a win 1, a draw ½). */
export type ResultCount = edge.TallyJson;
/** A player's results from one start position. */
export type StartResults = edge.StartJson;
/** `GET /api/players/{name}/starts`: the player's finished games by start position. */
export type PlayerStarts = edge.StartsJson;
/** `GET /api/players?speed=`: the leaderboard of one speed class, best first. */
export type Leaderboard = edge.LeaderboardJson;
