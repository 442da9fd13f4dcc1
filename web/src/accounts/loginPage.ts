// The login page (/login?next=/game/…): name and password; once logged in, back to where the
// player came from. The server's words say what went wrong (a wrong name or password, too many
// tries: wait).

import { api, ApiError, describeError } from '../api';
import { account, loginHref, nextPath, setAccount } from '../account';
import { h } from '../dom';
import type { Navigate, Page } from '../page';

export function loginPage(navigate: Navigate): Page {
  const next = nextPath(location.search);
  const name = h('input', { type: 'text', name: 'username', required: true, autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', maxlength: 20, 'data-testid': 'login-name' });
  const password = h('input', { type: 'password', name: 'password', required: true, autocomplete: 'current-password', maxlength: 256, 'data-testid': 'login-password' });
  const message = h('p', { class: 'message', role: 'alert', 'data-testid': 'message' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'login-submit' }, 'Log in');
  const already = h('p', { class: 'muted', 'data-testid': 'logged-in-note' });

  const send = async (event: Event): Promise<void> => {
    event.preventDefault();
    message.textContent = '';
    if (!name.reportValidity() || !password.reportValidity()) return;
    submit.disabled = true;
    try {
      setAccount(await api.login({ name: name.value.trim(), password: password.value }));
      navigate(next);
    } catch (error) {
      message.textContent = loginError(error);
      password.select();
    } finally {
      submit.disabled = false;
    }
  };

  // Someone already logged in may log in as another player; they are told who they are.
  void account()
    .then(a => {
      if (a.user) already.textContent = `You are logged in as ${a.user.name}. Logging in here changes the player.`;
    })
    .catch(() => undefined);

  const el = h(
    'section',
    { class: 'account-form-page' },
    h('h1', {}, 'Log in'),
    already,
    h(
      'form',
      { class: 'account-form', onsubmit: (event: Event) => void send(event), 'data-testid': 'login-form' },
      h('label', {}, 'Name', name),
      h('label', {}, 'Password', password),
      message,
      submit,
    ),
    h('p', {}, 'No account yet? ', h('a', { href: loginHref(next, 'register'), 'data-testid': 'to-register' }, 'Register'), '. Guests may play casual games without one.'),
  );
  requestAnimationFrame(() => name.focus());
  return { el, title: 'Log in' };
}

/** The server's reason, with the wait it asks for after too many tries. */
export function loginError(error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && !/\d/.test(error.message)) {
    return `${error.message} Too many tries: wait a little, then try again.`;
  }
  return describeError(error);
}
