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
  format.addEventListener('change', () => {
    roundsLabel.hidden = format.value !== 'swiss';
    accelerationLabel.hidden = format.value !== 'swiss';
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
