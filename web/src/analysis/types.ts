// The shapes of the analysis board's messages (docs/api.md, "Analysis").

import type { Color, LegalMove, Score } from '../types';

/** A move with the position after it. */
export interface Played {
  ply: number;
  uci: string;
  san: string;
  fen: string;
}

/** `POST /api/analysis/position`. */
export interface AnalysisPosition {
  fen: string;
  turn: Color;
  check: string | null;
  status: 'playing' | 'checkmate' | 'stalemate';
  legal: LegalMove[];
  moves: Played[];
}

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

/** One position of a whole-game analysis (ply 0: the start). */
export interface PositionEval {
  ply: number;
  eval: Score;
  /** White's win percentage. */
  win: number;
  depth: number;
  best: string | null;
  best_san: string | null;
  pv_san: string[];
}

/** One move of a whole-game analysis, judged. */
export interface MoveJudged {
  ply: number;
  uci: string;
  san: string;
  color: Color;
  judgement: Judgement | null;
  glyph: string | null;
  better: string | null;
  better_san: string | null;
}

export interface EngineLine {
  score: Score;
  pv: string[];
  pv_san: string[];
}

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
