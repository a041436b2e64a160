import type { KeyNames } from "../../lib/presenter.ts";

/** The key names hints show with pi's default keybindings. */
export const DEFAULT_KEY_NAMES: KeyNames = {
  up: "↑",
  down: "↓",
  confirm: "enter",
  submit: "enter",
  newLine: "shift+enter",
  tab: "tab",
  cancel: "esc",
  external: "ctrl+g",
  dontAsk: "ctrl+s",
};
