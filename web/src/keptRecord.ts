// A record kept in this browser's local storage under one key, at most `max` entries, the
// oldest dropped first (insertion order: newest last). The seat tokens and the games' origins
// are kept this way. Unreadable storage reads as empty; a full or disabled one keeps nothing.

export interface KeptRecord<T> {
  /** The entry of `key`, if kept and of the right type. */
  get(key: string): T | undefined;
  /** Keeps `value` under `key` as the newest entry. */
  set(key: string, value: T): void;
}

/** The record kept under `storageKey`; `valid` says whether a stored value is a `T`. */
export function keptRecord<T>(storageKey: string, max: number, valid: (value: unknown) => value is T): KeptRecord<T> {
  function load(): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '{}');
      if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
    } catch {
      // unreadable: start afresh
    }
    return {};
  }
  return {
    get(key) {
      const value = load()[key];
      return valid(value) ? value : undefined;
    },
    set(key, value) {
      const all = load();
      delete all[key];
      all[key] = value;
      const keys = Object.keys(all);
      for (const old of keys.slice(0, Math.max(0, keys.length - max))) delete all[old];
      try {
        localStorage.setItem(storageKey, JSON.stringify(all));
      } catch {
        // storage full or disabled: nothing is kept beyond this page
      }
    },
  };
}
