// The physical drawing methods `POST /api/draw` knows (spec §1.3; `chess960 draw --help`).
// 'chosen' is left out: it is a dialogue between two players, not a draw.

import { request } from './api';
import type { DrawnPosition } from './types';

export interface DrawMethod {
  value: string;
  label: string;
  /** What a person types for the outcomes they got at the board (`chess960 draw --help`). */
  outcomes: string;
  /** An example of those outcomes, for the input's placeholder. */
  example: string;
}

export const DRAW_METHODS: DrawMethod[] = [
  {
    value: 'die',
    label: 'One die (Bodlaender), uniform',
    outcomes: 'the rolls 1–6 for the dark bishop, light bishop, queen, first knight, second knight (a re-rolled 5 or 6 is typed too)',
    example: '2,3,3,2,3',
  },
  {
    value: 'cards',
    label: 'Eight numbered cards, uniform',
    outcomes: 'the cards laid out on a1 to h1 (1 R, 2 N, 3 B, 4 Q, 5 K, 6 B, 7 N, 8 R); if the bishops share a colour, then the card drawn from the reshuffled deck',
    example: '3,6,1,2,4,5,7,8',
  },
  {
    value: 'platonic',
    label: 'Platonic dice, uniform',
    outcomes: 'octahedron 1–8, tetrahedron 1–4, cube 1–6, icosahedron 1–20',
    example: '5,2,4,17',
  },
  {
    value: 'bag-wheeler',
    label: "Bag with Wheeler's correction, uniform",
    outcomes: 'the pieces drawn for a1 to h1 (K Q R B N); if the bishops share a colour, then L or R (the bishop that moves) and the black piece drawn (R N B Q K) or the square number 1–4',
    example: 'B,B,R,N,K,Q,N,R',
  },
  {
    value: 'coins',
    label: 'Two coins (Northam), not uniform',
    outcomes: 'the throws for the light bishop, dark bishop, king, right rook, left rook, queen: 1–4 (or HH HT TH TT, larger coin first) with both coins, 1–2 (or T H) with the larger one; a step with a single square takes no throw',
    example: '1,2,3,1,2,4,1',
  },
  {
    value: 'bag',
    label: 'Pieces from a bag (Coffin), not uniform',
    outcomes: 'the pieces drawn for a1 to h1: K Q R B N',
    example: 'R,N,B,Q,K,B,N,R',
  },
];

/** The method's label in lower case, for a sentence ("one die (Bodlaender), uniform"). */
export function drawMethodLabel(value: string): string {
  const label = DRAW_METHODS.find(m => m.value === value)?.label ?? value;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** The method's description, if it is one of the physical methods. */
export function drawMethod(value: string): DrawMethod | undefined {
  return DRAW_METHODS.find(m => m.value === value);
}

/**
 * A seed for the server's draw, chosen here: the game sends it back to prove its draw, and a
 * seed the server chose (64 bits) would not survive JavaScript's numbers (53 bits).
 */
export function randomSeed(): number {
  const [high = 0, low = 0] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1f_ffff) * 2 ** 32 + low;
}

/** The position that the outcomes a person got at the board give (`POST /api/draw` with
 * `outcomes`): the server replays them, and says why when they do not fit (422). */
export function drawFromOutcomes(method: string, outcomes: string): Promise<DrawnPosition> {
  return request<DrawnPosition>('POST', '/api/draw', { method, outcomes });
}
