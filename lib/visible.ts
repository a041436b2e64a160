// Faithful display: every character of a command is shown, none reaches the terminal as a control.
// Characters that would be invisible, deceptive or interpreted by the terminal become a notation
// like ⟨ESC⟩ or ⟨U+202E⟩; `fromVisible` turns the notation back, so editing round-trips the bytes.

import type { HighlightSpan } from "./api.ts";

const NAMES: Record<string, string> = {
  "\x00": "NUL",
  "\x08": "BS",
  "\t": "TAB",
  "\r": "CR",
  "\x1b": "ESC",
  "\x7f": "DEL",
};
const CODES = new Map(Object.entries(NAMES).map(([char, name]) => [name, char]));

// "Invisible or deceptive", shown as notation: every character that is
// - a control (Cc: C0, DEL, C1) or Unicode White_Space — but the space and the newline;
// - Default_Ignorable_Code_Point: zero-width characters, all bidi controls (LRM, RLM, ALM,
//   embeddings, overrides, isolates), soft hyphen, combining grapheme joiner, Hangul fillers,
//   Khmer invisible vowels, Mongolian selectors, invisible operators, BOM, variation selectors,
//   tag characters, and the code points reserved as ignorable;
// - blank-looking though not ignorable: U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL
//   NOTEHEAD, and the interlinear annotation controls U+FFF9–U+FFFB;
// - a lone surrogate (in a `u` regex, \p{Cs} matches only those);
// except a joiner or presentation selector inside an emoji (see `partOfEmoji`). And the ⟨ that
// starts text that looks like notation becomes ⟨U+27E8⟩, so literal notation round-trips.
const SUSPECT =
  /(?![ \n])[\p{Cc}\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800\u{1d159}\ufff9-\ufffb\p{Cs}]|⟨(?=(?:NUL|BS|TAB|CR|ESC|DEL|U\+[0-9A-F]{4,6})⟩)/gu;
const ZWJ = "\u200d";
// Emoji parts that only look hidden: a joiner between pictographs (the first may end in a skin
// tone or an emoji presentation selector), and a presentation selector after a pictograph or a
// keycap base.
const ENDS_EMOJI = /(?:\p{Extended_Pictographic}\ufe0f?|\p{Emoji_Modifier})$/u;
const ENDS_PICTOGRAPH = /\p{Extended_Pictographic}$/u;
const STARTS_PICTOGRAPH = /^\p{Extended_Pictographic}/u;
const ENDS_KEYCAP_BASE = /[#*0-9]$/;
const NOTATION = /⟨(NUL|BS|TAB|CR|ESC|DEL|U\+[0-9A-F]{4,6})⟩/g;
/** Splits text into graphemes: a segmenter's default granularity. */
const GRAPHEMES = new Intl.Segmenter();

export const toVisible = (text: string): string => text.replace(SUSPECT, shown);

/**
 * `toVisible(text)`, and where the given spans of `text` fall in it. A span edge inside a
 * character that becomes notation, or inside a grapheme of the result (a surrogate pair, an emoji
 * sequence, a letter and its marks), widens to take all of it, so marking the spans never changes
 * which characters are shown. The spans must be sorted and disjoint, as `highlightSpans` returns
 * them; so are those returned.
 */
export function toVisibleWithSpans(text: string, spans: readonly HighlightSpan[]): { text: string; spans: HighlightSpan[] } {
  const edges = spans.flatMap((span) => [span.start, span.end]);
  const mapped: number[] = [];
  let shift = 0;
  /** The next edge to map; with none left, one past every offset. */
  const next = () => edges[mapped.length] ?? Infinity;
  /** Edges before `offset` move by the notation so far (edges are whole numbers: `offset + 1` takes those at it). */
  const shiftBefore = (offset: number) => {
    while (next() < offset) mapped.push(next() + shift);
  };
  const visible = text.replace(SUSPECT, (char: string, offset: number, whole: string) => {
    const notation = shown(char, offset, whole);
    if (notation === char) return char;
    shiftBefore(offset + 1);
    while (next() < offset + char.length) mapped.push(offset + shift + (mapped.length % 2 === 0 ? 0 : notation.length));
    shift += notation.length - char.length;
    return notation;
  });
  shiftBefore(Infinity);
  return { text: visible, spans: wholeGraphemes(visible, mapped) };
}

export const fromVisible = (text: string): string =>
  text.replace(NOTATION, (match, name: string) => CODES.get(name) ?? fromCode(match, Number.parseInt(name.slice(2), 16)));

/** A notation beyond Unicode (typed by hand, never produced) stays as it is. */
const fromCode = (match: string, code: number): string => (code <= 0x10ffff ? String.fromCodePoint(code) : match);

const shown = (char: string, offset: number, text: string): string => (partOfEmoji(char, text, offset) ? char : notation(char));

/** A character's notation: its name, or else its code point. */
function notation(char: string): string {
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `⟨${NAMES[char] ?? `U+${code}`}⟩`;
}

/** A joiner or presentation selector inside an emoji is part of the picture, not a hidden character. */
function partOfEmoji(char: string, text: string, offset: number): boolean {
  const before = text.slice(Math.max(0, offset - 3), offset);
  if (char === ZWJ) return ENDS_EMOJI.test(before) && STARTS_PICTOGRAPH.test(text.slice(offset + 1, offset + 3));
  if (char === "\ufe0e" || char === "\ufe0f") {
    return ENDS_PICTOGRAPH.test(before) || (ENDS_KEYCAP_BASE.test(before) && text[offset + 1] === "\u20e3");
  }
  return false;
}

/** Span edges (start, end, start, end …, in order) widened to grapheme boundaries; spans that come to touch merge. */
function wholeGraphemes(text: string, edges: number[]): HighlightSpan[] {
  const boundary = graphemeBoundaries(text);
  const spans: HighlightSpan[] = [];
  for (let i = 0; i < edges.length; i += 2) {
    const last = spans.at(-1);
    if (last && edges[i + 1] <= last.end) continue;
    const start = last && edges[i] <= last.end ? last.end : boundary(edges[i], "before");
    const end = boundary(edges[i + 1], "after");
    if (last && start === last.end) last.end = end;
    else spans.push({ start, end });
  }
  return spans;
}

/**
 * The grapheme boundary at or around an offset, asked for in increasing order. In visible text
 * (no CR before a newline) two characters below U+0300, where there are no marks, joiners or
 * surrogates, always have one between them; only elsewhere are graphemes counted, once, from the
 * start.
 */
function graphemeBoundaries(text: string): (offset: number, side: "before" | "after") => number {
  let graphemes: Iterator<Intl.SegmentData> | undefined;
  let start = 0;
  let end = 0;
  return (offset, side) => {
    if (offset <= 0 || offset >= text.length || (text.charCodeAt(offset - 1) < 0x300 && text.charCodeAt(offset) < 0x300)) {
      return offset;
    }
    graphemes ??= GRAPHEMES.segment(text)[Symbol.iterator]();
    while (end <= offset) {
      const next = graphemes.next().value as Intl.SegmentData;
      start = next.index;
      end = start + next.segment.length;
    }
    return start === offset || side === "before" ? start : end;
  };
}
