// The shapes of the analysis board's messages (docs/api.md, "Analysis"). Those the server
// has Rust types for are generated (../generated/api.ts); the messages around them are
// written here.

import type * as edge from '../generated/api';

/** A move with the position after it. */
export type Played = edge.PlayedJson;

/** `POST /api/analysis/position`. */
export type AnalysisPosition = edge.PositionJson;

export type Judgement = edge.Judgement;

/** One position of a whole-game analysis (ply 0: the start). */
export type PositionEval = edge.PositionEvalJson;

/** One move of a whole-game analysis, judged. */
export type MoveJudged = edge.MoveJudgedJson;

export type EngineLine = edge.LineJson;

export type Counts = Record<Judgement, number>;

export type ServerMessage =
  | { type: 'ready'; limits: { max_plies: number; multipv: { min: number; max: number } } }
  | {
      type: 'game_started';
      source: 'game' | 'pgn' | 'position';
      key: string | null;
      start_fen: string;
      white: string | null;
      black: string | null;
      result: string;
      moves: Played[];
      total: number;
    }
  | { type: 'progress'; done: number; total: number; position: PositionEval }
  | {
      type: 'game_done';
      positions: PositionEval[];
      moves: MoveJudged[];
      summary: { white: Counts; black: Counts };
      pgn: string;
    }
  | { type: 'game_cancelled' }
  | {
      type: 'lines';
      id: number;
      fen: string;
      depth: number;
      seldepth: number;
      nodes: number;
      nps: number;
      time_ms: number;
      lines: EngineLine[];
      done: boolean;
    }
  | { type: 'error'; error: string };
