// The registration page (/register?next=…): name, password and, on a server where registration
// is by invitation, the invitation's code (`?invite=` fills it in). On a server whose
// registration is closed it only says so. Registered, the player is logged in and goes back to
// where they came from.

import { api, describeError } from '../api';
import { account, nextPath, setAccount } from '../account';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import { loginError } from './loginPage';

export function registerPage(navigate: Navigate): Page {
  const query = new URLSearchParams(location.search);
  const next = nextPath(location.search);
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));

  const name = h('input', {
    type: 'text',
    name: 'username',
    required: true,
    minlength: 2,
    maxlength: 20,
    pattern: '[A-Za-z0-9_\\-]{2,20}',
    autocomplete: 'username',
    autocapitalize: 'off',
    spellcheck: 'false',
    'aria-describedby': 'register-name-hint',
    'data-testid': 'register-name',
  });
  const password = h('input', {
    type: 'password',
    name: 'password',
    required: true,
    minlength: 8,
    maxlength: 256,
    autocomplete: 'new-password',
    'aria-describedby': 'register-password-hint',
    'data-testid': 'register-password',
  });
  const invite = h('input', { type: 'text', name: 'invite', autocomplete: 'off', spellcheck: 'false', value: query.get('invite') ?? '', 'data-testid': 'register-invite' });
  const message = h('p', { class: 'message', role: 'alert', 'data-testid': 'message' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'register-submit' }, 'Register');

  const send = async (event: Event, byInvitation: boolean): Promise<void> => {
    event.preventDefault();
    message.textContent = '';
    for (const input of byInvitation ? [name, password, invite] : [name, password]) {
      if (!input.reportValidity()) return;
    }
    submit.disabled = true;
    try {
      const code = invite.value.trim();
      setAccount(await api.register({ name: name.value.trim(), password: password.value, ...(byInvitation && code ? { invite: code } : {}) }));
      navigate(next);
    } catch (error) {
      message.textContent = loginError(error);
    } finally {
      submit.disabled = false;
    }
  };

  const show = (registration: string, user: string | null): void => {
    if (registration === 'closed') {
      fill(
        body,
        h(
          'p',
          { 'data-testid': 'registration-closed' },
          'Registration is closed on this server: its owner adds the players (',
          h('code', {}, 'chess960 user add'),
          '). You may still play casual games as a guest, or ',
          h('a', { href: `/login${location.search}` }, 'log in'),
          ' if you have an account.',
        ),
      );
      return;
    }
    const byInvitation = registration === 'invite';
    invite.required = byInvitation;
    fill(
      body,
      user ? h('p', { class: 'muted' }, `You are logged in as ${user}. Registering logs you in as the new player.`) : null,
      byInvitation ? h('p', { 'data-testid': 'invite-note' }, 'This server registers players by invitation: enter the code you were given.') : null,
      h(
        'form',
        { class: 'account-form', onsubmit: (event: Event) => void send(event, byInvitation), 'data-testid': 'register-form' },
        h('label', {}, 'Name', name),
        h('p', { class: 'hint muted', id: 'register-name-hint' }, '2 to 20 letters, digits, _ and -. Your games and your page show it.'),
        h('label', {}, 'Password', password),
        h('p', { class: 'hint muted', id: 'register-password-hint' }, 'At least 8 characters, not your name, not a common password.'),
        byInvitation ? h('label', {}, 'Invitation code', invite) : null,
        message,
        submit,
      ),
      h('p', {}, 'Already registered? ', h('a', { href: `/login${location.search}` }, 'Log in'), '.'),
    );
    requestAnimationFrame(() => name.focus());
  };

  account().then(
    a => show(a.registration, a.user?.name ?? null),
    error => fill(body, h('p', { class: 'message', role: 'alert' }, describeError(error))),
  );
  return { el: h('section', { class: 'account-form-page' }, h('h1', {}, 'Register'), body), title: 'Register' };
}
