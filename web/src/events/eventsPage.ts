// The list of events (/events) and the form that makes one: the arbiter's token comes back
// once and stays in this browser.

import { describeError } from '../api';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import { events, plural } from './eventApi';

export function eventsPage(navigate: Navigate): Page {
  const list = h('ul', { class: 'event-list', 'data-testid': 'event-list' });
  const message = h('p', { class: 'message', role: 'alert' });
  const name = h('input', { name: 'name', required: true, maxlength: 200, placeholder: 'Club 960 Open', 'aria-label': 'Event name' });
  const format = h(
    'select',
    { name: 'format', 'aria-label': 'Format' },
    h('option', { value: 'swiss' }, 'Swiss (FIDE Dutch)'),
    h('option', { value: 'round_robin' }, 'Round robin (Berger tables)'),
    h('option', { value: 'double_round_robin' }, 'Double round robin'),
    h('option', { value: 'knockout' }, 'Knockout (matches, with tiebreaks)'),
  );
  const rounds = h('input', { name: 'rounds', type: 'number', min: 1, max: 99, value: 5, 'aria-label': 'Rounds' });
  const tc = h('input', { name: 'time_control', placeholder: '90+30', maxlength: 50, 'aria-label': 'Time control' });
  const city = h('input', { name: 'city', maxlength: 200, 'aria-label': 'City' });
  const from = h('input', { name: 'start_date', type: 'date', 'aria-label': 'First day' });
  const to = h('input', { name: 'end_date', type: 'date', 'aria-label': 'Last day' });
  const chief = h('input', { name: 'arbiter', maxlength: 200, 'aria-label': 'Chief arbiter' });
  const no518 = h('input', { type: 'checkbox', name: 'exclude_518' });
  const noRepeat = h('input', { type: 'checkbox', name: 'no_repeat' });
  const roundsLabel = h('label', {}, 'Rounds ', rounds);
  const acceleration = h(
    'select',
    { name: 'acceleration', 'aria-label': 'Acceleration' },
    h('option', { value: 'none' }, 'None'),
    h('option', { value: 'baku' }, 'Baku method (FIDE C.04.5.1)'),
  );
  const accelerationLabel = h(
    'label',
    { title: 'Virtual points for the stronger half in the first rounds, for pairing only: big opens sort themselves out sooner' },
    'Accelerated pairings ',
    acceleration,
  );
  const knockout = knockoutFields();
  format.addEventListener('change', () => {
    roundsLabel.hidden = format.value !== 'swiss';
    accelerationLabel.hidden = format.value !== 'swiss';
    knockout.show(format.value === 'knockout');
  });

  async function load(): Promise<void> {
    try {
      const { events: all } = await events.list();
      fill(
        list,
        all.length === 0
          ? h('li', {}, 'No events yet.')
          : all.map(e =>
              h(
                'li',
                {},
                h('a', { href: `/events/${e.key}` }, e.name),
                ` — ${e.format}, ${plural(e.players, 'player')}, round ${e.rounds_paired} of ${e.rounds}`,
              ),
            ),
      );
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  const form = h(
    'form',
    {
      class: 'event-form',
      'data-testid': 'new-event',
      onsubmit: (event: Event) => {
        event.preventDefault();
        message.textContent = '';
        const body: Record<string, unknown> = {
          name: name.value,
          format: format.value,
          time_control: tc.value,
          city: city.value,
          start_date: from.value,
          end_date: to.value || from.value,
          arbiter: chief.value,
          exclude_518: no518.checked,
          no_repeat: noRepeat.checked,
        };
        if (format.value === 'swiss') {
          body.rounds = Number(rounds.value);
          body.acceleration = acceleration.value;
        }
        if (format.value === 'knockout') body.knockout = knockout.value();
        events
          .create(body)
          .then(view => navigate(`/events/${view.key}`))
          .catch((error: unknown) => {
            message.textContent = describeError(error);
          });
      },
    },
    h('h2', {}, 'New event'),
    h('label', {}, 'Name ', name),
    h('label', {}, 'Format ', format),
    roundsLabel,
    accelerationLabel,
    knockout.el,
    h('label', {}, 'Time control ', tc),
    h('label', {}, 'City ', city),
    h('label', {}, 'From ', from, ' to ', to),
    h('label', {}, 'Chief arbiter ', chief),
    h('label', { class: 'check' }, no518, ' never 518 (the classical start)'),
    h('label', { class: 'check' }, noRepeat, ' no position twice'),
    h('button', { type: 'submit', class: 'primary' }, 'Make the event'),
    h('p', { class: 'hint' }, 'This browser becomes the arbiter: it keeps the event’s arbiter token. Everyone else with the link only watches.'),
  );
  void load();
  return {
    el: h('section', { class: 'events-page' }, h('h1', {}, 'Events'), message, list, form),
    title: 'Events',
  };
}

interface StageRow {
  kind: string;
  games: number;
  time_control: string;
}

/** The FIDE-like default: two rapid games, two blitz games, then an Armageddon game. */
const DEFAULT_STAGES: StageRow[] = [
  { kind: 'rapid', games: 2, time_control: '10+5' },
  { kind: 'blitz', games: 2, time_control: '3+2' },
  { kind: 'armageddon', games: 1, time_control: '5+0' },
];

const KINDS: [string, string][] = [
  ['rapid', 'Rapid'],
  ['blitz', 'Blitz'],
  ['armageddon', 'Armageddon (draw: Black wins)'],
  ['games', 'More games'],
];

/** A knockout's fields: games a match, the seeding and the tiebreak stages (a list to edit). */
function knockoutFields(): { el: HTMLElement; show: (on: boolean) => void; value: () => Record<string, unknown> } {
  const games = h('input', { name: 'knockout_games', type: 'number', min: 1, max: 12, value: 2, 'aria-label': 'Games per match' });
  const seeding = h(
    'select',
    { name: 'seeding', 'aria-label': 'Seeding' },
    h('option', { value: 'rating' }, 'By rating'),
    h('option', { value: 'lot' }, 'By lot'),
  );
  const stages: StageRow[] = DEFAULT_STAGES.map(s => ({ ...s }));
  const list = h('ol', { class: 'stage-list', 'data-testid': 'tiebreak-stages-form' });
  function render(): void {
    fill(
      list,
      stages.map((s, i) => {
        const n = i + 1;
        const kind = h(
          'select',
          { 'aria-label': `Stage ${n} kind` },
          KINDS.map(([v, label]) => h('option', { value: v, selected: s.kind === v }, label)),
        );
        const count = h('input', { type: 'number', min: 1, max: 12, value: s.games, 'aria-label': `Stage ${n} games`, disabled: s.kind === 'armageddon', size: 3 });
        const tc = h('input', { value: s.time_control, maxlength: 50, placeholder: '10+5', 'aria-label': `Stage ${n} time control`, size: 7 });
        kind.addEventListener('change', () => {
          s.kind = kind.value;
          if (s.kind === 'armageddon') s.games = 1;
          render();
        });
        count.addEventListener('input', () => (s.games = Number(count.value)));
        tc.addEventListener('input', () => (s.time_control = tc.value));
        return h(
          'li',
          { class: 'stage-row' },
          kind,
          h('label', {}, count, ' games'),
          h('label', {}, 'at ', tc),
          h(
            'button',
            {
              type: 'button',
              'aria-label': `Remove stage ${n}`,
              onclick: () => {
                stages.splice(i, 1);
                render();
              },
            },
            'Remove',
          ),
        );
      }),
    );
  }
  const add = h(
    'button',
    {
      type: 'button',
      onclick: () => {
        stages.push({ kind: 'blitz', games: 2, time_control: '3+2' });
        render();
      },
    },
    'Add a stage',
  );
  const el = h(
    'fieldset',
    { class: 'knockout-fields', 'data-testid': 'knockout-fields' },
    h('legend', {}, 'Knockout'),
    h('label', {}, 'Games per match ', games),
    h('label', { title: 'By rating: seed 1 meets seed 2 in the final at the earliest' }, 'Seeding ', seeding),
    h('p', { class: 'hint' }, 'Tiebreak stages of a tied match, in order (each on a new drawn position); the last repeats until the match is decided, unless it is an Armageddon.'),
    list,
    add,
  );
  el.hidden = true;
  return {
    el,
    // The stages' fields exist only while the format is a knockout: hidden, their labels
    // ("Stage 1 time control") would still answer for the event's own ("Time control").
    show: (on: boolean) => {
      el.hidden = !on;
      if (on) render();
      else fill(list);
    },
    value: () => ({
      games: Number(games.value),
      seeding: seeding.value,
      tiebreaks: stages.map(s => ({ kind: s.kind, games: s.kind === 'armageddon' ? 1 : s.games, time_control: s.time_control.trim() })),
    }),
  };
}
