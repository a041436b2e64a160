// Small checks and lookups the modules share.
import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { readFileSync } from "./node.ts";

/** A plain object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const isString = (value: unknown): value is string => typeof value === "string";

/** `value` when it is a string with more than white space in it, else `fallback`. */
export const textOr = (value: unknown, fallback: string): string => (isString(value) && value.trim() ? value : fallback);

export const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** `value`, or `max` when it is more, and never less than 0. */
export const clamp = (value: number, max: number): number => Math.max(0, Math.min(value, max));

/** The value `map` holds for `key`, made and added the first time. */
export function getOrAdd<Key, Value>(map: Map<Key, Value>, key: Key, make: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The data of this extension's custom session entries of one type, oldest first. */
export const customData = (branch: readonly SessionEntry[], customType: string): unknown[] =>
  branch.flatMap((entry) => (entry.type === "custom" && entry.customType === customType ? [entry.data] : []));

/**
 * The strings of the list under `key` in the latest of this extension's entries of one type on the
 * session's branch: that record wins; none (or no list) means none.
 */
export function latestStrings<Entry>(ctx: ExtensionContext, customType: string, key: keyof Entry & string): string[] {
  const value = (customData(ctx.sessionManager.getBranch(), customType).at(-1) as Partial<Entry> | undefined)?.[key];
  return Array.isArray(value) ? value.filter(isString) : [];
}

/** JSON text as `JSON.parse` reads it, after the byte order mark some editors write first. */
export const parseJson = (text: string): unknown => JSON.parse(text.replace(/^\uFEFF/, ""));

/** A text file's content; undefined when there is no such file. Any other failure throws. */
export function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
