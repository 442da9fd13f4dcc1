// The header's corner for accounts: "Log in" and "Register" for a guest (coming back to the page
// they were on), the player's name (a link to their page) and "Account" once logged in.

import { account, loginHref, onAccount } from '../account';
import { fill, h } from '../dom';

/** The corner, kept current by the account state; `update` refreshes the links' `next`. */
export function accountNav(): { el: HTMLElement; update: () => void } {
  const el = h('nav', { class: 'account-nav', 'aria-label': 'Account', 'data-testid': 'account-nav' });
  let user: string | null | undefined;
  const render = (): void => {
    draw();
    for (const link of el.querySelectorAll('a')) {
      if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page');
    }
  };
  const draw = (): void => {
    if (user === undefined) {
      // Until the server has said, the corner holds the guest's links unseen: the header keeps
      // its size when they come (the board below must not move under a player's drag).
      fill(
        el,
        h('a', { 'aria-hidden': 'true', tabindex: -1, style: 'visibility: hidden' }, 'Log in'),
        h('a', { 'aria-hidden': 'true', tabindex: -1, style: 'visibility: hidden' }, 'Register'),
      );
      return;
    }
    // The login pages themselves keep the `next` they were opened with.
    const here = /^\/(login|register)\/?$/.test(location.pathname) ? null : location.pathname + location.search;
    if (user === null) {
      fill(
        el,
        h('a', { href: here === null ? `/login${location.search}` : loginHref(here), 'data-testid': 'nav-login' }, 'Log in'),
        h('a', { href: here === null ? `/register${location.search}` : loginHref(here, 'register'), 'data-testid': 'nav-register' }, 'Register'),
      );
      return;
    }
    fill(
      el,
      h('a', { href: `/@/${encodeURIComponent(user)}`, class: 'nav-user', 'data-testid': 'nav-user', title: 'Your page: ratings and games' }, user),
      h('a', { href: '/account', 'data-testid': 'nav-account' }, 'Account'),
    );
  };
  draw();
  onAccount(a => {
    user = a.user?.name ?? null;
    render();
  });
  // A server that cannot be reached leaves the corner empty; pages say what is wrong.
  void account().catch(() => undefined);
  return { el, update: render };
}
