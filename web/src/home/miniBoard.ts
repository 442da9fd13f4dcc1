// A small board that only shows a position (new-game preview, projector).

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import { h } from '../dom';

export interface MiniBoard {
  el: HTMLElement;
  show(placement: string): void;
  /** Draws the board again after its element moved or changed size. */
  redraw(): void;
  destroy(): void;
}

export function miniBoard(className: string, label: string): MiniBoard {
  const boardEl = h('div', { class: 'board' });
  const el = h('div', { class: `mini-board ${className}`, role: 'img', 'aria-label': label }, boardEl);
  let cg: Api | null = null;
  let pending = '8/8/8/8/8/8/8/8';
  // chessground measures its element: create it once the element is in the document.
  const ensure = (): Api | null => {
    if (!cg && boardEl.isConnected) {
      cg = Chessground(boardEl, { viewOnly: true, coordinates: false, fen: pending, animation: { enabled: false } });
    }
    return cg;
  };
  return {
    el,
    show(placement: string) {
      pending = placement;
      ensure()?.set({ fen: placement });
      if (!cg) requestAnimationFrame(() => ensure()?.set({ fen: pending }));
    },
    redraw() {
      if (cg) cg.redrawAll();
      else requestAnimationFrame(() => ensure()?.set({ fen: pending }));
    },
    destroy() {
      cg?.destroy();
    },
  };
}
