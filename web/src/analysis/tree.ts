// The moves of the analysis board: the game's main line and every variation played on the board,
// as a tree. Nothing here knows the rules: each node keeps the position the server gave for it.

import type { MoveJudged, PositionEval } from './types';

export interface TreeNode {
  id: number;
  /** Half-moves from the root. */
  ply: number;
  uci: string | null;
  san: string | null;
  /** The position after the move (the root: the start position). */
  fen: string;
  parent: TreeNode | null;
  /** The first child continues the line; the others are variations. */
  children: TreeNode[];
  /** The whole-game analysis of this position and of the move that led to it. */
  eval?: PositionEval;
  judged?: MoveJudged;
}

export class MoveTree {
  readonly root: TreeNode;
  private nextId = 1;
  private readonly nodes = new Map<number, TreeNode>();

  constructor(fen: string) {
    this.root = { id: 0, ply: 0, uci: null, san: null, fen, parent: null, children: [] };
    this.nodes.set(0, this.root);
  }

  byId(id: number): TreeNode | undefined {
    return this.nodes.get(id);
  }

  /** The child of `parent` by `move`: the existing one, or a new last variation. */
  add(parent: TreeNode, move: { uci: string; san: string; fen: string }): TreeNode {
    const existing = parent.children.find(c => c.uci === move.uci);
    if (existing) return existing;
    const node: TreeNode = {
      id: this.nextId++,
      ply: parent.ply + 1,
      uci: move.uci,
      san: move.san,
      fen: move.fen,
      parent,
      children: [],
    };
    parent.children.push(node);
    this.nodes.set(node.id, node);
    return node;
  }

  /** The main line after the root. */
  mainline(): TreeNode[] {
    const line: TreeNode[] = [];
    for (let n = this.root.children[0]; n; n = n.children[0]) line.push(n);
    return line;
  }
}

/** The UCI moves from the root to `node`. */
export function pathOf(node: TreeNode): string[] {
  const path: string[] = [];
  for (let n: TreeNode | null = node; n?.uci; n = n.parent) path.push(n.uci);
  return path.reverse();
}

/** Whether `node` is on the main line. */
export function onMainline(node: TreeNode): boolean {
  for (let n: TreeNode | null = node; n?.parent; n = n.parent) {
    if (n.parent.children[0] !== n) return false;
  }
  return true;
}

/** "12." before a White move, "12…" before a Black one, from the FEN before the move. */
export function moveNumber(fenBefore: string): { number: number; black: boolean } {
  const fields = fenBefore.trim().split(/\s+/);
  const number = Number.parseInt(fields[5] ?? '1', 10);
  return { number: Number.isFinite(number) && number > 0 ? number : 1, black: fields[1] === 'b' };
}

export type Token =
  | { kind: 'move'; node: TreeNode; number: string | null; depth: number }
  | { kind: 'open'; depth: number }
  | { kind: 'close'; depth: number };

/** The move list as a flat run of moves and brackets, variations after the move they replace,
 * built with a stack rather than recursion (lines can be hundreds of moves deep). */
export function tokens(tree: MoveTree): Token[] {
  type Task =
    | { kind: 'line'; node: TreeNode; siblings: boolean; depth: number }
    | { kind: 'move'; node: TreeNode; depth: number }
    | { kind: 'open' | 'close'; depth: number };
  const out: Token[] = [];
  const stack: Task[] = [];
  const first = tree.root.children[0];
  if (first) stack.push({ kind: 'line', node: first, siblings: true, depth: 0 });
  let needNumber = true;
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if (task.kind === 'line') {
      const { node, depth } = task;
      const next = node.children[0];
      if (next) stack.push({ kind: 'line', node: next, siblings: true, depth });
      const variations = task.siblings && node.parent ? node.parent.children.slice(1) : [];
      for (let i = variations.length - 1; i >= 0; i--) {
        const v = variations[i] as TreeNode;
        stack.push({ kind: 'close', depth: depth + 1 });
        stack.push({ kind: 'line', node: v, siblings: false, depth: depth + 1 });
        stack.push({ kind: 'open', depth: depth + 1 });
      }
      stack.push({ kind: 'move', node, depth });
    } else if (task.kind === 'move') {
      const before = moveNumber(task.node.parent?.fen ?? task.node.fen);
      const number = !before.black ? `${before.number}.` : needNumber ? `${before.number}…` : null;
      out.push({ kind: 'move', node: task.node, number, depth: task.depth });
      needNumber = false;
    } else {
      out.push({ kind: task.kind, depth: task.depth });
      needNumber = true;
    }
  }
  return out;
}
