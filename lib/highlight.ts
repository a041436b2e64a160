import type { HighlightSpan, PermissionHighlight } from "./api.ts";
import { clamp, isString } from "./values.ts";
import { toVisibleWithSpans } from "./visible.ts";

/**
 * Resolves an Author's highlight against the tool detail: sorted, merged, half-open spans
 * clamped to the detail. A throwing callback or a bad pattern yields no highlight, never an error.
 */
export function highlightSpans(detail: string, highlight: PermissionHighlight | undefined): HighlightSpan[] {
  try {
    return merge(collect(detail, highlight), detail.length);
  } catch {
    return [];
  }
}

/**
 * The detail as shown (see visible.ts), escaped as a whole, with the highlighted parts passed
 * through `mark` line by line, so no styling spans a line break.
 */
export function markHighlights(detail: string, spans: readonly HighlightSpan[], mark: (part: string) => string): string {
  const { text, spans: shown } = toVisibleWithSpans(detail, spans);
  let out = "";
  let at = 0;
  for (const span of shown) {
    out += text.slice(at, span.start);
    out += text.slice(span.start, span.end).split("\n").map(mark).join("\n");
    at = span.end;
  }
  return out + text.slice(at);
}

function collect(detail: string, highlight: PermissionHighlight | undefined): HighlightSpan[] {
  if (highlight == null) return [];
  if (typeof highlight === "function") {
    const spans = highlight(detail);
    return Array.isArray(spans) ? spans : [];
  }
  const patterns = Array.isArray(highlight) ? highlight : [highlight];
  return patterns.flatMap((pattern) => matches(detail, pattern));
}

/** The characters a regex reads as syntax: a string pattern escapes them, so it means itself. */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|]/g;

function matches(detail: string, pattern: unknown): HighlightSpan[] {
  const regex = isString(pattern) ? new RegExp(pattern.replace(REGEX_SYNTAX, "\\$&")) : pattern;
  if (!(regex instanceof RegExp)) return [];
  const global = new RegExp(regex.source, `${regex.flags.replace("g", "")}g`);
  const spans: HighlightSpan[] = [];
  for (const match of detail.matchAll(global)) {
    if (match[0].length) spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

function merge(spans: HighlightSpan[], length: number): HighlightSpan[] {
  const within = (offset: number) => clamp(Math.floor(offset), length);
  const clamped = spans
    .filter((span) => span && Number.isFinite(span.start) && Number.isFinite(span.end))
    .map((span) => ({ start: within(span.start), end: within(span.end) }))
    .filter((span) => span.end > span.start)
    .sort((a, b) => a.start - b.start);
  const merged: HighlightSpan[] = [];
  for (const span of clamped) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push(span);
  }
  return merged;
}
