// What every page of the single-page app is: an element, and a way to stop its timers and sockets.

export interface Page {
  el: HTMLElement;
  title: string;
  dispose?: () => void;
}

/** Client-side navigation (pushState), so the server's index.html stays loaded. */
export type Navigate = (path: string) => void;
