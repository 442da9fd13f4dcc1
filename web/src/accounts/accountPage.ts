// The player's own account (/account): who they are, a link to their page, the browsers and
// programs logged in as them (each may be ended; the current one is marked), a new password,
// and logging out.

import { api, ApiError, describeError } from '../api';
import { account, loggedOut, loginHref } from '../account';
import { fill, h } from '../dom';
import type { Navigate, Page } from '../page';
import type { Session, User } from '../types';

/** "Chrome on Linux"-like words are not worth a parser: the agent as sent, cut short. */
function agentText(agent: string): string {
  const clean = agent.trim();
  if (!clean) return 'unknown program';
  return clean.length > 90 ? `${clean.slice(0, 90)}…` : clean;
}

export function formatDateTime(ms: number): string {
  return new Date(ms).toLocaleString([], { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function accountPage(navigate: Navigate): Page {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  let disposed = false;

  const sessionsBox = h('div', { 'data-testid': 'sessions' });
  const sessionsNote = h('p', { class: 'message', role: 'alert' });

  const loadSessions = async (): Promise<void> => {
    try {
      const sessions = await api.sessions();
      if (!disposed) fill(sessionsBox, sessionsTable(sessions));
    } catch (error) {
      sessionsNote.textContent = describeError(error);
      // The session ended elsewhere (another browser ended it, or a new password did).
      if (error instanceof ApiError && error.code === 'not_logged_in') loggedOut();
    }
  };

  const end = async (session: Session): Promise<void> => {
    sessionsNote.textContent = '';
    try {
      await api.endSession(session.id);
      if (session.current) {
        loggedOut();
        navigate('/login');
        return;
      }
      await loadSessions();
    } catch (error) {
      sessionsNote.textContent = describeError(error);
    }
  };

  const sessionsTable = (sessions: Session[]): HTMLElement =>
    h(
      'table',
      { class: 'sessions' },
      h('thead', {}, h('tr', {}, ['Program', 'Logged in', 'Last used', ''].map(t => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        sessions.map(s =>
          h(
            'tr',
            { 'data-testid': 'session', 'data-current': s.current ? 'true' : null },
            h('td', { 'data-label': 'Program', class: 'agent' }, h('span', {}, agentText(s.agent), s.current ? h('strong', { class: 'current-session', 'data-testid': 'current-session' }, ' (this browser)') : null)),
            h('td', { 'data-label': 'Logged in' }, formatDateTime(s.created_ms)),
            h('td', { 'data-label': 'Last used' }, formatDateTime(s.seen_ms)),
            h(
              'td',
              { class: 'actions-cell' },
              h(
                'button',
                { type: 'button', class: 'danger', 'data-testid': 'end-session', onclick: () => void end(s) },
                s.current ? 'End (log out here)' : 'End',
              ),
            ),
          ),
        ),
      ),
    );

  const passwordForm = (user: User): HTMLElement => {
    const current = h('input', { type: 'password', required: true, autocomplete: 'current-password', maxlength: 256, 'data-testid': 'current-password' });
    const fresh = h('input', { type: 'password', required: true, minlength: 8, maxlength: 256, autocomplete: 'new-password', 'data-testid': 'new-password' });
    const again = h('input', { type: 'password', required: true, minlength: 8, maxlength: 256, autocomplete: 'new-password', 'data-testid': 'new-password-again' });
    const note = h('p', { class: 'message', role: 'alert', 'data-testid': 'password-message' });
    const done = h('p', { class: 'muted', role: 'status', 'data-testid': 'password-done' });
    const send = async (event: Event): Promise<void> => {
      event.preventDefault();
      note.textContent = '';
      done.textContent = '';
      again.setCustomValidity(again.value === fresh.value ? '' : 'The two new passwords differ.');
      for (const input of [current, fresh, again]) {
        if (!input.reportValidity()) return;
      }
      try {
        await api.changePassword({ current: current.value, new: fresh.value });
        for (const input of [current, fresh, again]) input.value = '';
        done.textContent = 'Password changed. Every other session of yours has ended.';
        await loadSessions();
      } catch (error) {
        note.textContent = describeError(error);
      }
    };
    again.addEventListener('input', () => again.setCustomValidity(''));
    return h(
      'form',
      { class: 'account-form', onsubmit: (event: Event) => void send(event), 'data-testid': 'password-form' },
      // A hidden name lets password managers file the new password under the right account.
      h('input', { type: 'text', hidden: true, autocomplete: 'username', value: user.name, readonly: true }),
      h('label', {}, 'Current password', current),
      h('label', {}, 'New password', fresh),
      h('label', {}, 'New password again', again),
      note,
      done,
      h('button', { type: 'submit', 'data-testid': 'change-password' }, 'Change the password'),
    );
  };

  const logout = async (): Promise<void> => {
    try {
      await api.logout();
      loggedOut();
      navigate('/');
    } catch (error) {
      sessionsNote.textContent = describeError(error);
    }
  };

  account().then(
    a => {
      if (disposed) return;
      const user = a.user;
      if (!user) {
        fill(
          body,
          h('p', { 'data-testid': 'not-logged-in' }, 'You are not logged in. ', h('a', { href: loginHref('/account') }, 'Log in'), ' or ', h('a', { href: loginHref('/account', 'register') }, 'register'), '.'),
        );
        return;
      }
      fill(
        body,
        h(
          'dl',
          { class: 'info account-info' },
          h('dt', {}, 'Name'),
          h('dd', { 'data-testid': 'account-name' }, user.name, user.admin ? ' (the server’s admin)' : ''),
          h('dt', {}, 'Registered'),
          h('dd', {}, formatDateTime(user.created_ms)),
          h('dt', {}, 'Your page'),
          h('dd', {}, h('a', { href: `/@/${encodeURIComponent(user.name)}`, 'data-testid': 'own-page' }, `/@/${user.name}`), ' — your ratings and games, as others see them'),
        ),
        h('button', { type: 'button', 'data-testid': 'logout', onclick: () => void logout() }, 'Log out'),
        h('h2', {}, 'Where you are logged in'),
        h('p', { class: 'muted' }, 'Each browser or program that logged in as you. End one you do not recognise, then change your password.'),
        sessionsNote,
        sessionsBox,
        h('h2', {}, 'Change your password'),
        passwordForm(user),
      );
      void loadSessions();
    },
    error => fill(body, h('p', { class: 'message', role: 'alert' }, describeError(error))),
  );

  return {
    el: h('section', { class: 'account-page' }, h('h1', {}, 'Your account'), body),
    title: 'Account',
    dispose: () => {
      disposed = true;
    },
  };
}
