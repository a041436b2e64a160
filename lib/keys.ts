import { matchesKey } from "@earendil-works/pi-tui";
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

export function isShiftTab(data: string): boolean {
  return matchesKey(data, "shift+tab");
}

export function isRestore(data: string): boolean {
  return matchesKey(data, "ctrl+r");
}

/** pi has no action for "don't ask again", so its key is fixed. */
const DONT_ASK_KEY = "ctrl+s";

export function isDontAskAgain(data: string): boolean {
  return matchesKey(data, DONT_ASK_KEY);
}

/** pi has no action for a grant either: the key that opens the grant step is fixed too. */
export const GRANT_KEY = "ctrl+t";

export function isGrant(data: string): boolean {
  return matchesKey(data, GRANT_KEY);
}

export function keyNames(keys: KeyMatcher): KeyNames {
  const first = (id: string, fallback: string) => keyName(safeKeys(keys, id)[0], fallback);
  return {
    up: first(KEY.up, "↑"),
    down: first(KEY.down, "↓"),
    confirm: first(KEY.confirm, "enter"),
    submit: first(KEY.submit, "enter"),
    newLine: first(KEY.newLine, "shift+enter"),
    tab: first(KEY.tab, "tab"),
    cancel: first(KEY.cancel, "esc"),
    external: first(KEY.external, "ctrl+g"),
    dontAsk: DONT_ASK_KEY,
  };
}

function safeKeys(keys: KeyMatcher, id: string): string[] {
  try {
    return keys.getKeys(id) ?? [];
  } catch {
    return [];
  }
}
