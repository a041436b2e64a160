import { type KeyNames, keyName } from "./presenter.ts";

/** The slice of pi's KeybindingsManager the prompt uses; a user's remaps arrive through it. */
export interface KeyMatcher {
  matches(data: string, id: string): boolean;
  getKeys(id: string): string[];
}

export const KEY = {
  up: "tui.select.up",
  down: "tui.select.down",
  pageUp: "tui.select.pageUp",
  pageDown: "tui.select.pageDown",
  confirm: "tui.select.confirm",
  cancel: "tui.select.cancel",
  tab: "tui.input.tab",
  submit: "tui.input.submit",
  newLine: "tui.input.newLine",
  external: "app.editor.external",
} as const;

/** Keys of actions pi has none for ("don't ask again", a grant, a restore), matched as they are. */
export const FIXED_KEY = { shiftTab: "shift+tab", restore: "ctrl+r", dontAsk: "ctrl+s", grant: "ctrl+t" } as const;

/** The key names hints show: each action's first key, or, when none is bound, what pi binds by default. */
export function keyNames(keys: KeyMatcher): KeyNames {
  const first = (id: string, unbound: string) => keyName(firstKey(keys, id), unbound);
  return {
    up: first(KEY.up, "↑"),
    down: first(KEY.down, "↓"),
    confirm: first(KEY.confirm, "enter"),
    submit: first(KEY.submit, "enter"),
    newLine: first(KEY.newLine, "shift+enter"),
    tab: first(KEY.tab, "tab"),
    cancel: first(KEY.cancel, "esc"),
    external: first(KEY.external, "ctrl+g"),
    dontAsk: FIXED_KEY.dontAsk,
  };
}

function firstKey(keys: KeyMatcher, id: string): string | undefined {
  try {
    return keys.getKeys(id)?.[0];
  } catch {
    return undefined;
  }
}
