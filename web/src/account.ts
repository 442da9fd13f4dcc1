// Who is logged in in this browser, as the server last said (`GET /api/account`): asked once
// when the app loads and taken again from every login, registration and logout, so that the
// header and the pages agree without each asking. The session itself is the server's HttpOnly
// cookie, which this code never sees.

import { api } from './api';
import { forgetAccountSeats } from './seats';
import type { Account, User } from './types';

type Listener = (account: Account) => void;

let known: Account | null = null;
let asking: Promise<Account> | null = null;
const listeners = new Set<Listener>();

/** The account as the server says it, asked once and then kept (until a login or logout). */
export function account(): Promise<Account> {
  if (known) return Promise.resolve(known);
  asking ??= api.account().then(
    answer => {
      setAccount(answer);
      return answer;
    },
    (error: unknown) => {
      asking = null;
      throw error;
    },
  );
  return asking;
}

/** The player logged in, if the server has said so already (`undefined`: not known yet). */
export function knownUser(): User | null | undefined {
  return known ? known.user : undefined;
}

/** Takes the server's answer to a login, a registration or `GET /api/account`. */
export function setAccount(answer: Account): void {
  // Another player (or none): the games played through the account are no longer this page's.
  if (known && known.user?.name !== answer.user?.name) forgetAccountSeats();
  known = answer;
  asking = Promise.resolve(answer);
  for (const listener of listeners) listener(answer);
}

/** After a logout: a guest now, registration as it was. */
export function loggedOut(): void {
  setAccount({ user: null, registration: known?.registration ?? 'open' });
}

/** Calls `listener` with each new answer (and with the one known now, if any); the returned
 * function stops it. */
export function onAccount(listener: Listener): () => void {
  listeners.add(listener);
  if (known) listener(known);
  return () => listeners.delete(listener);
}

/** Whether two account names are the same player (names are unique whatever their case). */
export function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** Where to go after logging in: `?next=` when it is a path of this site, else home. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  // Only a path here ("/game/…"), never another site ("//evil.example", "https://…").
  return /^\/(?![/\\])/.test(next) ? next : '/';
}

/** The login page's address that comes back to `path` afterwards. */
export function loginHref(path = location.pathname + location.search, page: 'login' | 'register' = 'login'): string {
  return path === '/' ? `/${page}` : `/${page}?${new URLSearchParams({ next: path }).toString()}`;
}
