// A small modal question with a few answers, for the promotion piece and for a king move that
// could also be a castle. Keyboard: Tab between the answers, Enter picks, Escape cancels.

import { h } from '../dom';

export interface Choice<T> {
  label: string;
  detail?: string;
  value: T;
  testId: string;
}

export function choose<T>(host: HTMLElement, question: string, choices: Choice<T>[]): Promise<T | null> {
  return new Promise(resolve => {
    const finish = (value: T | null): void => {
      overlay.remove();
      resolve(value);
    };
    const buttons = choices.map(choice =>
      h(
        'button',
        { type: 'button', class: 'choice', 'data-testid': choice.testId, onclick: () => finish(choice.value) },
        h('strong', {}, choice.label),
        choice.detail ? h('small', {}, choice.detail) : null,
      ),
    );
    const titleId = `chooser-${Math.random().toString(36).slice(2)}`;
    const overlay = h(
      'div',
      {
        class: 'chooser-overlay',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': titleId,
        onkeydown: (event: Event) => {
          if ((event as KeyboardEvent).key === 'Escape') finish(null);
        },
      },
      h(
        'div',
        { class: 'chooser' },
        h('p', { id: titleId }, question),
        h('div', { class: 'choices' }, buttons),
        h('button', { type: 'button', class: 'link', onclick: () => finish(null) }, 'Cancel'),
      ),
    );
    host.append(overlay);
    buttons[0]?.focus();
  });
}
