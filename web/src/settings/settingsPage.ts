// /settings: the look of the pages and the board, how moves are made, premoves, confirmations and
// sound. Every change applies at once (a preview board shows the look) and is kept in this browser.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import { h } from '../dom';
import type { Page } from '../page';
import { CHOICES, type Settings, onSettings, saveSettings, settings } from './settings';
import { playSound } from './sound';

const LABELS: Record<string, string> = {
  system: 'System',
  light: 'Light',
  dark: 'Dark',
  brown: 'Brown',
  blue: 'Blue',
  green: 'Green',
  grey: 'Grey',
  cburnett: 'Classic (cburnett)',
  figurine: 'Figurines',
  letters: 'Letters',
  both: 'Drag or click',
  drag: 'Drag only',
  click: 'Click only',
  keyboard: 'Keyboard first (typed moves)',
};

type Choice = keyof typeof CHOICES;
type Switch = 'coordinates' | 'premoves' | 'confirmResign' | 'confirmDraw' | 'sound';

export function settingsPage(): Page {
  // Start position 0 (BBQNNRKR) with a few moves played: every piece kind, a last move shown.
  const previewFen = 'bbqnnrkr/pppp1ppp/8/4p3/3P4/5N2/PPP1PPPP/BBQN1RKR';
  const boardEl = h('div', { class: 'board' });
  const previewEl = h('div', { class: 'settings-preview', role: 'img', 'aria-label': 'The board as it will look', 'data-testid': 'settings-preview' }, boardEl);
  let preview: Api | null = null;
  // chessground measures its element: create it once the page is in the document.
  requestAnimationFrame(() => {
    if (boardEl.isConnected) preview = Chessground(boardEl, { viewOnly: true, coordinates: true, fen: previewFen, lastMove: ['e1', 'f3'] });
  });

  const choice = (name: Choice, legend: string, help: string) =>
    h(
      'fieldset',
      { class: 'setting', 'data-testid': `setting-${name}` },
      h('legend', {}, legend),
      h('p', { class: 'hint' }, help),
      h(
        'div',
        { class: 'setting-choices' },
        CHOICES[name].map(value =>
          h(
            'label',
            {},
            h('input', {
              type: 'radio',
              name,
              value,
              checked: settings()[name] === value,
              onchange: () => saveSettings({ [name]: value } as Partial<Settings>),
            }),
            ` ${LABELS[value] ?? value}`,
          ),
        ),
      ),
    );

  const toggle = (name: Switch, label: string, help: string) =>
    h(
      'label',
      { class: 'setting setting-switch', 'data-testid': `setting-${name}` },
      h('input', {
        type: 'checkbox',
        name,
        checked: settings()[name],
        onchange: (e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          saveSettings({ [name]: on } as Partial<Settings>);
          if (name === 'sound' && on) playSound('move');
        },
      }),
      h('span', {}, h('strong', {}, label), h('span', { class: 'hint' }, ` ${help}`)),
    );

  const el = h(
    'section',
    { class: 'settings-page' },
    h('h1', {}, 'Settings'),
    h('p', { class: 'hint' }, 'Kept in this browser and applied at once, on every page.'),
    h(
      'div',
      { class: 'settings-layout' },
      h(
        'div',
        { class: 'settings-form' },
        h('h2', {}, 'Look'),
        choice('colorScheme', 'Pages', 'Light or dark pages; System follows your device.'),
        choice('board', 'Board', 'The colours of the squares.'),
        choice('pieces', 'Pieces', 'How the pieces are drawn.'),
        toggle('coordinates', 'Coordinates', 'Files and ranks at the board’s edge.'),
        h('h2', {}, 'Play'),
        choice('moveInput', 'Moving', 'Keyboard first puts the cursor in the move box when a game opens (type e4, Nf3, O-O).'),
        toggle('premoves', 'Premoves', 'Make your move while the opponent thinks; it is played at once when they have moved.'),
        toggle('confirmResign', 'Confirm resignation', 'Ask before resigning.'),
        toggle('confirmDraw', 'Confirm draw offers', 'Ask before offering or accepting a draw.'),
        h('h2', {}, 'Sound'),
        toggle('sound', 'Sound', 'Moves, captures, checks, castling, low time and the end of a game.'),
      ),
      h('figure', { class: 'settings-preview-box' }, previewEl, h('figcaption', { class: 'hint' }, 'Preview: start position 0')),
    ),
  );
  // Coordinates are drawn by chessground: redraw the preview when they are switched.
  const stop = onSettings(() => preview?.redrawAll());
  return {
    el,
    title: 'Settings',
    dispose: () => {
      stop();
      preview?.destroy();
    },
  };
}
