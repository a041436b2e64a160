// Word-level decoding shared by the scanner and the payload parser: `$'…'` strings, quote removal
// with a map back to source offsets, program basenames, and the directory arithmetic of `cd`.

/** `$'…'`'s escapes that stand for one character: a backslash and the character at an index of ESCAPE_CHARS decode to the one at that index of ESCAPED. */
const ESCAPE_CHARS = "abeEfnrtv\\'\"?";
const ESCAPED = "\x07\b\x1b\x1b\f\n\r\t\v\\'\"?";

/**
 * Decodes the `$'…'` string whose opening quote is at `quote`, reading no further than `end`. Returns
 * the text and the offset just after the closing quote (`end + 1` when it never closes).
 */
export function decodeAnsiC(source: string, quote: number, end = source.length): [string, number] {
  let text = "";
  let at = quote + 1;
  let run = at;
  while (at < end) {
    const char = source[at];
    if (char === "'") return [cutAtNul(text + source.slice(run, at)), at + 1];
    if (char !== "\\" || at + 1 >= end) {
      at++;
      continue;
    }
    text += source.slice(run, at);
    const next = source[at + 1];
    at += 2;
    const escaped = ESCAPE_CHARS.indexOf(next);
    // \x, \u and \U take up to 2, 4 and 8 hex digits.
    const hex = "xuU".indexOf(next);
    const digits = hex >= 0 ? /^[0-9A-Fa-f]+/.exec(source.slice(at, Math.min(at + (2 << hex), end)))?.[0] : undefined;
    if (escaped >= 0) text += ESCAPED[escaped];
    else if (next >= "0" && next <= "7") {
      // Always a match, maybe empty.
      const octal = (/^[0-7]{0,2}/.exec(source.slice(at, Math.min(at + 2, end))) as RegExpExecArray)[0];
      text += String.fromCharCode(Number.parseInt(next + octal, 8) & 0xff);
      at += octal.length;
    } else if (digits !== undefined) {
      const code = Number.parseInt(digits, 16);
      text += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      at += digits.length;
    } else if (next === "c" && at < end) {
      text += String.fromCharCode(source.charCodeAt(at) & 0x1f);
      at++;
    } else text += `\\${next}`;
    run = at;
  }
  return [cutAtNul(text + source.slice(run, end)), end + 1];
}

/** Bash's strings end at a NUL: `$'rm\0x'` is `rm`. */
const cutAtNul = (text: string): string => text.split("\0", 1)[0];

/**
 * Removes quotes and escapes from a word without run-time expansions, keeping for every character of
 * the result the source offset it came from (one more entry: the offset just past the word).
 */
export function decodeMapped(source: string, start: number, end: number): { text: string; map: number[] } {
  let text = "";
  const map: number[] = [];
  const keep = (from: number, to: number) => {
    text += source.slice(from, to);
    for (let at = from; at < to; at++) map.push(at);
  };
  let at = start;
  let doubleQuoted = false;
  while (at < end) {
    const char = source[at];
    if (char === '"') {
      doubleQuoted = !doubleQuoted;
      at++;
    } else if (char === "\\") {
      const next = source[at + 1];
      if (next === "\n") at += 2;
      else if (!doubleQuoted || next === "$" || next === "`" || next === '"' || next === "\\") {
        keep(at + 1, Math.min(at + 2, end));
        at += 2;
      } else {
        keep(at, at + 1);
        at++;
      }
    } else if (char === "'" && !doubleQuoted) {
      const close = source.indexOf("'", at + 1);
      const stop = close === -1 || close > end ? end : close;
      keep(at + 1, stop);
      at = stop + 1;
    } else if (char === "$" && !doubleQuoted && source[at + 1] === "'") {
      // Unclosed, it ends with the word, as a quote does above.
      const [decoded, after] = decodeAnsiC(source, at + 1, end);
      text += decoded;
      // Escapes change lengths: every decoded character points at the string's opening.
      for (let index = 0; index < decoded.length; index++) map.push(at);
      at = after;
    } else if (char === "$" && !doubleQuoted && source[at + 1] === '"') {
      doubleQuoted = true;
      at += 2;
    } else {
      keep(at, at + 1);
      at++;
    }
  }
  map.push(end);
  return { text, map };
}

/** `/usr/bin/git` → `git`. */
export function basename(path: string): string {
  // A loop of charCodeAt, which compiles inline, where lastIndexOf would be a call into the runtime.
  const last = path.length - 1;
  if (path.charCodeAt(last) === SLASH) return path;
  for (let at = last - 1; at >= 0; at--) if (path.charCodeAt(at) === SLASH) return path.slice(at + 1);
  return path;
}

const SLASH = 47;
const DOT = 46;
const TILDE = 126;

/** `dir`, `a/b`: no root, and no part to normalize (empty, `.` or `..`). */
function isPlainRelative(path: string): boolean {
  if (!path || path.charCodeAt(0) === TILDE) return false;
  let partStart = 0;
  for (let at = 0; at <= path.length; at++) {
    if (at < path.length && path.charCodeAt(at) !== SLASH) continue;
    const length = at - partStart;
    if (
      length === 0 ||
      (path.charCodeAt(partStart) === DOT && (length === 1 || (length === 2 && path.charCodeAt(partStart + 1) === DOT)))
    )
      return false;
    partStart = at + 1;
  }
  return true;
}

/**
 * The directory `cd target` leads to from `base` (both relative, absolute or `~`-rooted), normalized.
 * A relative directory whose name starts with `~` reads `./~…`, so only home reads `~`.
 */
export function changeDir(base: string, target: string): string {
  if (base === "." && isPlainRelative(target)) return target;
  const joined = isRooted(target) ? target : `${base}/${target}`;
  const root = joined.startsWith("/") ? "/" : isHome(joined) ? "~" : "";
  const parts: string[] = [];
  for (const part of joined.slice(root.length).split("/")) {
    if (!part || part === ".") continue;
    if (part === ".." && parts.length && parts[parts.length - 1] !== "..") parts.pop();
    else if (part !== ".." || root !== "/") parts.push(part);
  }
  const path = parts.join("/");
  if (root === "/") return `/${path}`;
  if (root === "~") return path ? `~/${path}` : "~";
  return !path ? "." : path.charCodeAt(0) === TILDE ? `./${path}` : path;
}

/** `~` or `~/…`: home, or a path under it. */
export const isHome = (path: string): boolean => path === "~" || path.startsWith("~/");

/** Absolute, or under home. */
export const isRooted = (path: string): boolean => path.startsWith("/") || isHome(path);

/** A word whose one expansion, a leading `~`, is known before run time: `~`, `~/dir`. */
export const TILDE_PATH = /^~(?:\/[^$`*?[{\\'"]*)?$/;

/** A directory as bash got it, quoted or escaped: a leading `~` is part of its name, not home. */
export const literalDir = (text: string): string => (text.charCodeAt(0) === TILDE ? `./${text}` : text);
