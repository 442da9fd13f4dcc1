// Chat in a game between two people (docs/api.md, "Chat"): the players' room (the two players)
// and the spectators' room (anyone watching; the players read it in a tab of their own). Lines
// come on the game's WebSocket (`chat` events) and, after a reload or a reconnect, from
// `GET …/chat`. Every line is text: it is put on the page as a text node, never as HTML.
// A player may switch the chat off (hidden, no sound; kept in localStorage) and mute the
// opponent (their lines are dropped).

import { api, ApiError } from '../api';
import { knownUser } from '../account';
import { h, fill } from '../dom';
import { playSound } from '../settings/sound';
import type { ChatLine, Color, GameView, Room } from '../types';

const OFF_KEY = 'chess960.chatOff';
const NAME_KEY = 'chess960.chatName';
const muteKey = (key: string): string => `chess960.chatMute.${key}`;
/** The lines shown per room (the server keeps as many). */
const SHOWN = 100;
/** The most characters of a line (the server's limit). */
export const CHAT_MAX_CHARS = 140;

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** True if `view` is a game with a chat: two people, each at their own device. */
export function hasChat(view: GameView): boolean {
  const { white, black } = view.sides ?? {};
  // A game nobody plays through the server (imported, or played on the terminal) has none.
  return !view.hotseat && white?.type === 'human' && black?.type === 'human' && white.seat !== 'none' && black.seat !== 'none';
}

export class GameChat {
  readonly el = h('section', { class: 'chat', 'data-testid': 'chat', 'aria-label': 'Chat', hidden: true });
  private readonly offBox = h('input', { type: 'checkbox', 'data-testid': 'chat-off' });
  private readonly muteBox = h('input', { type: 'checkbox', 'data-testid': 'chat-mute' });
  private readonly muteLabel = h('label', { class: 'chat-mute' }, this.muteBox, ' Mute opponent');
  private readonly tabs = h('div', { class: 'chat-tabs', role: 'tablist' });
  private readonly body = h('div', { class: 'chat-body', 'data-testid': 'chat-body' });
  private readonly log = h('ol', { class: 'chat-log', 'data-testid': 'chat-log', 'aria-live': 'polite' });
  private readonly input = h('input', {
    type: 'text',
    name: 'chat',
    maxlength: CHAT_MAX_CHARS,
    autocomplete: 'off',
    placeholder: 'Say something…',
    'aria-label': 'Chat line',
    'data-testid': 'chat-input',
  });
  private readonly nameInput = h('input', {
    type: 'text',
    name: 'chat-name',
    maxlength: 20,
    autocomplete: 'nickname',
    placeholder: 'Your name',
    'aria-label': 'Your name in the spectators’ chat',
    'data-testid': 'chat-name',
  });
  private readonly error = h('p', { class: 'chat-error', role: 'alert', 'data-testid': 'chat-error' });
  private readonly lines: Record<Room, ChatLine[]> = { players: [], spectators: [] };
  private room: Room = 'spectators';
  /** The colour this browser plays (null: a spectator). */
  private me: Color | null = null;
  private enabled = false;
  private loaded = false;

  constructor(private readonly key: string) {
    this.offBox.checked = stored(OFF_KEY) === '1';
    this.muteBox.checked = stored(muteKey(key)) === '1';
    this.nameInput.value = stored(NAME_KEY) ?? '';
    this.offBox.addEventListener('change', () => {
      store(OFF_KEY, this.offBox.checked ? '1' : null);
      this.render();
    });
    this.muteBox.addEventListener('change', () => {
      store(muteKey(this.key), this.muteBox.checked ? '1' : null);
      this.renderLog();
    });
    const form = h(
      'form',
      { class: 'chat-form', onsubmit: (event: Event) => void this.send(event) },
      this.nameInput,
      this.input,
      h('button', { type: 'submit', 'data-testid': 'chat-send' }, 'Send'),
    );
    fill(this.body, this.tabs, this.log, form, this.error);
    fill(
      this.el,
      h(
        'div',
        { class: 'chat-head' },
        h('h2', {}, 'Chat'),
        h('label', { class: 'chat-off' }, this.offBox, ' Chat off'),
        this.muteLabel,
      ),
      this.body,
    );
  }

  /** Follows the game view: a chat for games between people only; `me` the colour played. */
  update(view: GameView, me: Color | null): void {
    const enabled = hasChat(view);
    const seatChanged = me !== this.me;
    this.me = me;
    if (seatChanged) this.room = me === null ? 'spectators' : 'players';
    if (enabled !== this.enabled || seatChanged) {
      this.enabled = enabled;
      if (enabled && (!this.loaded || seatChanged)) void this.reload();
      this.render();
    }
  }

  /** Reads the lines kept (after a reload, a reconnect, or taking a seat). */
  async reload(): Promise<void> {
    if (!this.enabled) return;
    try {
      const log = await api.chat(this.key);
      this.loaded = true;
      this.lines.players = log.players ?? [];
      this.lines.spectators = log.spectators;
      this.renderLog();
    } catch {
      // No chat here after all (or the server is away): the socket brings new lines.
    }
  }

  /** A `chat` event from the game's WebSocket. */
  take(line: ChatLine): void {
    const lines = this.lines[line.room];
    lines.push(line);
    if (lines.length > SHOWN) lines.shift();
    if (line.room === this.room) this.renderLog();
    const fromOpponent = line.room === 'players' && this.me !== null && line.from !== this.me;
    if (fromOpponent && this.enabled && !this.offBox.checked && !this.muteBox.checked) playSound('notify');
  }

  private render(): void {
    this.el.hidden = !this.enabled;
    this.el.classList.toggle('chat-is-off', this.offBox.checked);
    this.body.hidden = this.offBox.checked;
    this.muteLabel.hidden = this.me === null || this.offBox.checked;
    // A spectator writes under a name; an account writes under its own.
    this.nameInput.hidden = this.room !== 'spectators' || this.me !== null || Boolean(knownUser());
    this.input.disabled = this.room === 'spectators' && this.me !== null;
    this.input.placeholder = this.input.disabled ? 'Players read the spectators here' : 'Say something…';
    const tab = (room: Room, label: string): HTMLButtonElement =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          class: room === this.room ? 'chat-tab active' : 'chat-tab',
          'aria-selected': room === this.room ? 'true' : 'false',
          'data-testid': `chat-tab-${room}`,
          onclick: () => {
            this.room = room;
            this.render();
          },
        },
        label,
      );
    if (this.me === null) fill(this.tabs);
    else fill(this.tabs, tab('players', 'Players'), tab('spectators', 'Spectators'));
    this.renderLog();
  }

  private renderLog(): void {
    const muted = this.muteBox.checked && this.me !== null;
    const shown = this.lines[this.room].filter(line => !(muted && line.room === 'players' && line.from !== this.me));
    const items = shown.map(line => {
      const from = h('span', { class: 'chat-from' });
      from.textContent = this.nameOf(line);
      const text = h('span', { class: 'chat-text' });
      text.textContent = line.text;
      return h('li', { class: line.room === 'players' && line.from === this.me ? 'chat-line mine' : 'chat-line' }, from, text);
    });
    fill(this.log, items);
    this.log.scrollTop = this.log.scrollHeight;
  }

  private nameOf(line: ChatLine): string {
    if (line.room === 'players') {
      const colour = line.from === 'white' ? 'White' : 'Black';
      return line.from === this.me ? `${colour} (you)` : colour;
    }
    return line.guest ? `${line.from} (guest)` : line.from;
  }

  private async send(event: Event): Promise<void> {
    event.preventDefault();
    const text = this.input.value.trim();
    if (text === '' || this.input.disabled) return;
    const name = this.nameInput.value.trim();
    if (this.room === 'spectators') store(NAME_KEY, name === '' ? null : name);
    try {
      await api.say(this.key, { room: this.room, text, ...(this.room === 'spectators' && name !== '' ? { name } : {}) });
      this.input.value = '';
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error instanceof ApiError ? error.message : String(error);
    }
  }
}
