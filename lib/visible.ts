// Faithful display: every character of a command is shown, none reaches the terminal as a control.
// Characters that would be invisible, deceptive or interpreted by the terminal become a notation
// like ⟨ESC⟩ or ⟨U+202E⟩; `fromVisible` turns the notation back, so editing round-trips the bytes.

const NAMES: Record<string, string> = {
  "\x00": "NUL",
  "\x08": "BS",
  "\t": "TAB",
  "\r": "CR",
  "\x1b": "ESC",
  "\x7f": "DEL",
};
const CODES = new Map(Object.entries(NAMES).map(([char, name]) => [name, char]));

// C0 (but newline), DEL, C1, soft hyphen, combining grapheme joiner, Hangul fillers, Mongolian
// vowel separator, Khmer invisible vowels, zero-width and bidi marks, line/paragraph separators,
// bidi embeddings/overrides/isolates, invisible operators, odd spaces, BOM, interlinear
// annotations, tag characters, variation selectors outside emoji, and lone surrogates.
const SUSPECT =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: every code point here is matched on its own, on purpose
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\xa0\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const ZWJ = "\u200d";
// Emoji parts that only look hidden: a joiner between pictographs (the first may end in a skin
// tone or an emoji presentation selector), and a presentation selector after a pictograph or a
// keycap base.
const ENDS_EMOJI = /(?:\p{Extended_Pictographic}\ufe0f?|\p{Emoji_Modifier})$/u;
const ENDS_PICTOGRAPH = /\p{Extended_Pictographic}$/u;
const STARTS_PICTOGRAPH = /^\p{Extended_Pictographic}/u;
const ENDS_KEYCAP_BASE = /[#*0-9]$/;
const NOTATION = /⟨(NUL|BS|TAB|CR|ESC|DEL|U\+[0-9A-F]{4,6})⟩/g;

export function toVisible(text: string): string {
  const escaped = text.includes("⟨") ? text.replace(NOTATION, (match) => `⟨U+27E8⟩${match.slice(1)}`) : text;
  return escaped.replace(SUSPECT, (char, offset: number, whole: string) =>
    partOfEmoji(char, whole, offset) ? char : notation(char),
  );
}

export function fromVisible(text: string): string {
  return text.replace(NOTATION, (match, name: string) => CODES.get(name) ?? fromCode(match, Number.parseInt(name.slice(2), 16)));
}

/** A notation beyond Unicode (typed by hand, never produced) stays as it is. */
function fromCode(match: string, code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : match;
}

function notation(char: string): string {
  const name = NAMES[char];
  if (name) return `⟨${name}⟩`;
  const code = char.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
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
