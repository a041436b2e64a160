import { join, readFileSync } from "./node.ts";
import { isString, isStringList, parseJson } from "./values.ts";

/**
 * The toggle-all shortcut's id in pi's keybindings.json, next to pi's own actions:
 * `{ "permissionHooks.toggleAll": "ctrl+alt+p" }`, a list of keys, or `[]` for none.
 */
export const TOGGLE_ALL = "permissionHooks.toggleAll";
const DEFAULT_KEY = "alt+p";

/**
 * The keys bound to toggle-all. pi keeps ids it doesn't know in keybindings.json but gives
 * extensions nothing that resolves them, so the file is read here. /reload re-runs the
 * extension, which re-reads it, just as /reload applies pi's own keybindings.
 */
export function toggleAllKeys(agentDir: string): string[] {
  let config: unknown;
  try {
    config = parseJson(readFileSync(join(agentDir, "keybindings.json"), "utf8"));
  } catch {
    return [DEFAULT_KEY];
  }
  const bound = (config as Record<string, unknown> | null)?.[TOGGLE_ALL];
  const keys = isString(bound) ? [bound] : bound;
  if (isStringList(keys)) return [...new Set(keys)].filter((key) => key.trim());
  return [DEFAULT_KEY];
}
