import { describe, expect, test } from "bun:test";
import { fromVisible, toVisible, toVisibleWithSpans } from "../lib/visible.ts";

const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, "0");
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Nothing the terminal would interpret or hide survives: no C0 but newline, no DEL or C1, no bidi
 * controls, no zero-width or odd-space characters, no BOM, no tag characters, no lone surrogates.
 * A zero-width joiner or a presentation selector may remain only where `allowEmoji` says so.
 */
function expectSafe(output: string, allowEmoji = false): void {
  const offenders: string[] = [];
  for (const char of output) {
    const code = char.codePointAt(0) ?? 0;
    const unsafe =
      (code < 0x20 && char !== "\n") ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069) ||
      (code >= 0x2000 && code <= 0x200c) ||
      [0x00a0, 0x00ad, 0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202f, 0x205f, 0x2060, 0x3000, 0xfeff].includes(code) ||
      (code >= 0xe0000 && code <= 0xe007f) ||
      (code >= 0xd800 && code <= 0xdfff) ||
      (!allowEmoji && [0x200d, 0xfe0e, 0xfe0f].includes(code));
    if (unsafe) offenders.push(`U+${hex(code)}`);
  }
  expect(offenders, JSON.stringify(output)).toEqual([]);
}

function expectRoundTrip(text: string): void {
  expect(fromVisible(toVisible(text))).toBe(text);
}

describe("named controls", () => {
  test.each([
    ["\x00", "⟨NUL⟩"],
    ["\x08", "⟨BS⟩"],
    ["\t", "⟨TAB⟩"],
    ["\r", "⟨CR⟩"],
    ["\x1b", "⟨ESC⟩"],
    ["\x7f", "⟨DEL⟩"],
  ])("%j → %s", (char, shown) => {
    expect(toVisible(char)).toBe(shown);
    expect(toVisible(`a${char}b`)).toBe(`a${shown}b`);
    expect(fromVisible(shown)).toBe(char);
  });
});

describe("C0 controls", () => {
  test("every C0 character but newline becomes notation", () => {
    const named: Record<number, string> = { 0: "⟨NUL⟩", 8: "⟨BS⟩", 9: "⟨TAB⟩", 13: "⟨CR⟩", 27: "⟨ESC⟩" };
    for (const code of range(0x00, 0x1f)) {
      if (code === 0x0a) continue;
      const char = String.fromCharCode(code);
      expect(toVisible(char)).toBe(named[code] ?? `⟨U+${hex(code)}⟩`);
      expectSafe(toVisible(char));
      expectRoundTrip(char);
    }
  });

  test("exact notation of a few unnamed ones", () => {
    expect(toVisible("\x01")).toBe("⟨U+0001⟩");
    expect(toVisible("\x07")).toBe("⟨U+0007⟩");
    expect(toVisible("\x0b")).toBe("⟨U+000B⟩");
    expect(toVisible("\x0c")).toBe("⟨U+000C⟩");
    expect(toVisible("\x1f")).toBe("⟨U+001F⟩");
  });

  test("newline is kept", () => {
    expect(toVisible("a\nb\n")).toBe("a\nb\n");
  });

  test("CR cannot hide the start of a line", () => {
    expect(toVisible("echo safe\rrm -rf ~")).toBe("echo safe⟨CR⟩rm -rf ~");
    expect(toVisible("a\r\nb")).toBe("a⟨CR⟩\nb");
  });

  test("BS cannot erase what was shown", () => {
    expect(toVisible("ls\b\b\brm -rf /")).toBe("ls⟨BS⟩⟨BS⟩⟨BS⟩rm -rf /");
  });

  test("TAB is shown", () => {
    expect(toVisible("a\tb\t\tc")).toBe("a⟨TAB⟩b⟨TAB⟩⟨TAB⟩c");
  });
});

describe("escape sequences", () => {
  test("CSI colour and cursor sequences", () => {
    expect(toVisible("\x1b[31mred\x1b[0m")).toBe("⟨ESC⟩[31mred⟨ESC⟩[0m");
    expect(toVisible("safe\x1b[2K\x1b[1Gevil")).toBe("safe⟨ESC⟩[2K⟨ESC⟩[1Gevil");
    expect(toVisible("x\x1b[8mhidden\x1b[28m")).toBe("x⟨ESC⟩[8mhidden⟨ESC⟩[28m");
  });

  test("OSC hyperlink and title, BEL- and ST-terminated", () => {
    expect(toVisible("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07")).toBe(
      "⟨ESC⟩]8;;https://evil.example⟨U+0007⟩click⟨ESC⟩]8;;⟨U+0007⟩",
    );
    expect(toVisible("\x1b]0;pwned\x1b\\")).toBe("⟨ESC⟩]0;pwned⟨ESC⟩\\");
  });

  test("DCS, and the 8-bit C1 forms of CSI and OSC", () => {
    expect(toVisible("\x1bP+q\x1b\\")).toBe("⟨ESC⟩P+q⟨ESC⟩\\");
    expect(toVisible("\x9b31mred")).toBe("⟨U+009B⟩31mred");
    expect(toVisible("\x9d0;t\x9c")).toBe("⟨U+009D⟩0;t⟨U+009C⟩");
  });

  test("none of it reaches the output, and it all round-trips", () => {
    const samples = ["\x1b[31mred\x1b[0m", "\x1b]8;;u\x07l\x1b]8;;\x07", "\x1b]0;t\x1b\\", "\x9b2J", "a\x1b"];
    for (const sample of samples) {
      expectSafe(toVisible(sample));
      expectRoundTrip(sample);
    }
  });
});

describe("DEL and C1", () => {
  test("every one of U+007F–U+009F becomes notation", () => {
    expect(toVisible("\x7f")).toBe("⟨DEL⟩");
    for (const code of range(0x80, 0x9f)) {
      const char = String.fromCharCode(code);
      expect(toVisible(char)).toBe(`⟨U+${hex(code)}⟩`);
      expectRoundTrip(char);
    }
  });

  test("printable Latin-1 is untouched", () => {
    const latin = range(0xa1, 0xff)
      .filter((code) => code !== 0xad)
      .map((code) => String.fromCharCode(code))
      .join("");
    expect(toVisible(latin)).toBe(latin);
  });
});

describe("bidi controls", () => {
  test("embeddings and overrides U+202A–U+202E", () => {
    for (const code of range(0x202a, 0x202e)) {
      const char = String.fromCharCode(code);
      expect(toVisible(`a${char}b`)).toBe(`a⟨U+${hex(code)}⟩b`);
      expectRoundTrip(char);
    }
  });

  test("isolates U+2066–U+2069", () => {
    for (const code of range(0x2066, 0x2069)) {
      const char = String.fromCharCode(code);
      expect(toVisible(`a${char}b`)).toBe(`a⟨U+${hex(code)}⟩b`);
      expectRoundTrip(char);
    }
  });

  test("marks: LRM, RLM, ALM", () => {
    expect(toVisible("\u200e\u200f\u061c")).toBe("⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩");
  });

  test("a Trojan Source line shows its override", () => {
    const trojan = "if (isAdmin) {\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only";
    const shown = toVisible(trojan);
    expect(shown).toBe("if (isAdmin) {⟨U+202E⟩ } ⟨U+2066⟩if (isAdmin)⟨U+2069⟩ ⟨U+2066⟩ begin admins only");
    expectSafe(shown);
    expectRoundTrip(trojan);
  });
});

describe("invisible characters", () => {
  test("zero-width space, non-joiner, joiner, word joiner, BOM", () => {
    expect(toVisible("a\u200bb")).toBe("a⟨U+200B⟩b");
    expect(toVisible("a\u200cb")).toBe("a⟨U+200C⟩b");
    expect(toVisible("a\u200db")).toBe("a⟨U+200D⟩b");
    expect(toVisible("a\u2060b")).toBe("a⟨U+2060⟩b");
    expect(toVisible("\ufeffecho")).toBe("⟨U+FEFF⟩echo");
  });

  test("soft hyphen, combining grapheme joiner, invisible operators, Hangul fillers", () => {
    expect(toVisible("r\u00adm")).toBe("r⟨U+00AD⟩m");
    expect(toVisible("a\u034fb")).toBe("a⟨U+034F⟩b");
    expect(toVisible("a\u2061\u2062\u2063\u2064b")).toBe("a⟨U+2061⟩⟨U+2062⟩⟨U+2063⟩⟨U+2064⟩b");
    expect(toVisible("\u115f\u1160\u3164\uffa0")).toBe("⟨U+115F⟩⟨U+1160⟩⟨U+3164⟩⟨U+FFA0⟩");
  });

  test("line and paragraph separators", () => {
    expect(toVisible("a\u2028b\u2029c")).toBe("a⟨U+2028⟩b⟨U+2029⟩c");
  });

  test("NBSP and odd spaces", () => {
    expect(toVisible("rm\u00a0-rf")).toBe("rm⟨U+00A0⟩-rf");
    for (const code of [...range(0x2000, 0x200a), 0x202f, 0x205f, 0x3000]) {
      const char = String.fromCharCode(code);
      expect(toVisible(`a${char}b`)).toBe(`a⟨U+${hex(code)}⟩b`);
      expectRoundTrip(char);
    }
  });

  test("an ordinary space is untouched", () => {
    expect(toVisible("a b  c")).toBe("a b  c");
  });

  test("tag characters", () => {
    expect(toVisible("\u{e0001}")).toBe("⟨U+E0001⟩");
    expect(toVisible("ok\u{e0069}\u{e0067}\u{e006e}")).toBe("ok⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩");
    for (const code of range(0xe0000, 0xe007f)) {
      const char = String.fromCodePoint(code);
      expect(toVisible(char)).toBe(`⟨U+${code.toString(16).toUpperCase()}⟩`);
      expectRoundTrip(char);
    }
  });

  test("hidden 'ASCII smuggled' in tag characters is spelled out", () => {
    const smuggled = `echo hi${[..."rm -rf"].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0))).join("")}`;
    expect(toVisible(smuggled)).toBe("echo hi⟨U+E0072⟩⟨U+E006D⟩⟨U+E0020⟩⟨U+E002D⟩⟨U+E0072⟩⟨U+E0066⟩");
  });

  test("variation selectors outside emoji", () => {
    expect(toVisible("rm\ufe0f -rf")).toBe("rm⟨U+FE0F⟩ -rf");
    expect(toVisible("a\ufe0eb")).toBe("a⟨U+FE0E⟩b");
    expect(toVisible("\ufe0fstart")).toBe("⟨U+FE0F⟩start");
    expect(toVisible("1\ufe0f")).toBe("1⟨U+FE0F⟩");
    expect(toVisible("x\ufe00")).toBe("x⟨U+FE00⟩");
    expect(toVisible("葛\u{e0100}")).toBe("葛⟨U+E0100⟩");
  });

  test("lone surrogates", () => {
    expect(toVisible("\ud800")).toBe("⟨U+D800⟩");
    expect(toVisible("\udfff")).toBe("⟨U+DFFF⟩");
    expect(toVisible("a\ud83db")).toBe("a⟨U+D83D⟩b");
    expect(toVisible("a\ude00b")).toBe("a⟨U+DE00⟩b");
    expect(toVisible("\ude00\ud83d")).toBe("⟨U+DE00⟩⟨U+D83D⟩");
    expect(toVisible("\ud83d\ud83d\ude00")).toBe("⟨U+D83D⟩😀");
    expect(toVisible("\ud83d\ude00\ude00")).toBe("😀⟨U+DE00⟩");
    for (const sample of ["\ud800", "\udfff", "a\ud83db", "\ude00\ud83d", "\ud83d\ud83d\ude00", "x\ud800"]) {
      expectSafe(toVisible(sample));
      expectRoundTrip(sample);
    }
  });

  test("Khmer and Mongolian invisibles, interlinear annotation", () => {
    expect(toVisible("\u17b4\u17b5\u180e")).toBe("⟨U+17B4⟩⟨U+17B5⟩⟨U+180E⟩");
    expect(toVisible("\ufff9a\ufffab\ufffb")).toBe("⟨U+FFF9⟩a⟨U+FFFA⟩b⟨U+FFFB⟩");
  });
});

describe("the definition: invisible or deceptive", () => {
  // Controls and White_Space but space and newline, Default_Ignorable_Code_Point (which holds every
  // Bidi_Control), interlinear annotations, blank-looking symbols, lone surrogates.
  const PROPERTIES = /[\p{Cc}\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;
  const BLANK_LOOKING = [0x2800, 0x1d159, 0xfff9, 0xfffa, 0xfffb];
  const NAMED: Record<number, string> = { 0: "NUL", 8: "BS", 9: "TAB", 13: "CR", 27: "ESC", 127: "DEL" };

  function invisible(code: number): boolean {
    if (code === 0x20 || code === 0x0a) return false;
    return (code >= 0xd800 && code <= 0xdfff) || BLANK_LOOKING.includes(code) || PROPERTIES.test(String.fromCodePoint(code));
  }

  test("every code point of Unicode: notation that round-trips if it is in the set, itself otherwise", () => {
    const wrong: string[] = [];
    let count = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      const char = String.fromCodePoint(code);
      const shown = toVisible(char);
      if (invisible(code)) {
        count++;
        const expected = `⟨${NAMED[code] ?? `U+${hex(code)}`}⟩`;
        if (shown !== expected || fromVisible(shown) !== char) wrong.push(`U+${hex(code)} → ${shown}`);
      } else if (shown !== char) wrong.push(`U+${hex(code)} → ${shown}`);
    }
    expect(wrong).toEqual([]);
    expect(count).toBeGreaterThan(6_000);
  });

  test("U+1680 Ogham space mark and U+2800 Braille blank are shown, like the other blanks", () => {
    expect(toVisible("rm\u1680-rf")).toBe("rm⟨U+1680⟩-rf");
    expect(toVisible("echo \u2800")).toBe("echo ⟨U+2800⟩");
    expect(toVisible("\u3164\u115f\u1160\uffa0\u{1d159}")).toBe("⟨U+3164⟩⟨U+115F⟩⟨U+1160⟩⟨U+FFA0⟩⟨U+1D159⟩");
  });

  test("the newer ignorables: Mongolian selectors, shorthand and musical format controls, unassigned ignorables", () => {
    expect(toVisible("\u180b\u180f\u2065\ufff0")).toBe("⟨U+180B⟩⟨U+180F⟩⟨U+2065⟩⟨U+FFF0⟩");
    expect(toVisible("\u{1bca0}\u{1d173}\u{e0080}\u{e0fff}")).toBe("⟨U+1BCA0⟩⟨U+1D173⟩⟨U+E0080⟩⟨U+E0FFF⟩");
  });

  test("every bidi control is in the set", () => {
    for (let code = 0; code <= 0x10ffff; code++) {
      if (/\p{Bidi_Control}/u.test(String.fromCodePoint(code)))
        expect(toVisible(String.fromCodePoint(code))).toBe(`⟨U+${hex(code)}⟩`);
    }
  });
});

describe("visible text is untouched", () => {
  const untouched = [
    "git commit -m 'fix: typo' && git push",
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    "日本語のテキスト、漢字と仮名",
    "中文 한국어",
    "e\u0301 n\u0303 a\u0308\u0304",
    "नमस्ते",
    "שלום עולם مرحبا",
    "ภาษาไทย",
    "😀 👍🏽 🇺🇳 🇩🇪",
    "👨\u200d👩\u200d👧\u200d👦",
    "👨🏻\u200d👩🏻\u200d👧🏻\u200d👦🏻",
    "👩\u200d💻 🧑\u200d🤝\u200d🧑 👨🏽\u200d🦰",
    "🏳️\u200d🌈 ❤️\u200d🔥 👁️\u200d🗨️",
    "❤️ ☺️ ☺︎ ✔️ ©️ ™️",
    "#️⃣ 1️⃣ *️⃣",
    "⟨ ⟩ ⟨⟩ ⟨tab⟩ ⟨U+00e9⟩ ⟨U+12⟩ ⟨NOPE⟩",
    "",
  ];

  for (const text of untouched) {
    test(JSON.stringify(text), () => {
      expect(toVisible(text)).toBe(text);
      expect(fromVisible(text)).toBe(text);
      expectSafe(toVisible(text), true);
    });
  }
});

describe("joiners outside a real emoji sequence are shown", () => {
  test.each([
    ["👍\u200d", "👍⟨U+200D⟩"],
    ["\u200d👍", "⟨U+200D⟩👍"],
    ["a\u200d👍", "a⟨U+200D⟩👍"],
    ["👍\u200da", "👍⟨U+200D⟩a"],
    ["☺x\u200d👍", "☺x⟨U+200D⟩👍"],
    ["👍\u200d\u200d👍", "👍⟨U+200D⟩⟨U+200D⟩👍"],
    ["x\ufe0f\u200d👍", "x⟨U+FE0F⟩⟨U+200D⟩👍"],
  ])("%j → %s", (text, shown) => {
    expect(toVisible(text)).toBe(shown);
    expectRoundTrip(text);
  });
});

describe("literal notation in the text round-trips", () => {
  test.each([
    ["⟨TAB⟩", "⟨U+27E8⟩TAB⟩"],
    ["⟨ESC⟩[31m", "⟨U+27E8⟩ESC⟩[31m"],
    ["⟨U+202E⟩", "⟨U+27E8⟩U+202E⟩"],
    ["⟨U+27E8⟩", "⟨U+27E8⟩U+27E8⟩"],
    ["⟨U+27E8⟩TAB⟩", "⟨U+27E8⟩U+27E8⟩TAB⟩"],
    ["⟨NUL⟩⟨BS⟩⟨CR⟩⟨DEL⟩", "⟨U+27E8⟩NUL⟩⟨U+27E8⟩BS⟩⟨U+27E8⟩CR⟩⟨U+27E8⟩DEL⟩"],
    ["⟨⟨TAB⟩⟩", "⟨⟨U+27E8⟩TAB⟩⟩"],
    ["⟨U+110000⟩", "⟨U+27E8⟩U+110000⟩"],
  ])("%j shows as %s", (text, shown) => {
    expect(toVisible(text)).toBe(shown);
    expect(fromVisible(shown)).toBe(text);
  });

  test("literal notation next to the real character it names", () => {
    for (const text of ["⟨TAB⟩\t", "\t⟨TAB⟩", "⟨\t⟩", "⟨" + "\x1b" + "ESC⟩", "⟨TAB⟩\u202e⟨U+202E⟩"]) {
      expectRoundTrip(text);
      expectSafe(toVisible(text));
    }
    expect(toVisible("⟨TAB⟩\t")).toBe("⟨U+27E8⟩TAB⟩⟨TAB⟩");
    expect(toVisible("⟨\t⟩")).toBe("⟨⟨TAB⟩⟩");
  });
});

describe("toVisibleWithSpans: spans follow the text into its visible form", () => {
  const spansOf = (text: string, ...spans: [number, number][]) =>
    toVisibleWithSpans(
      text,
      spans.map(([start, end]) => ({ start, end })),
    );
  const covered = ({ text, spans }: { text: string; spans: { start: number; end: number }[] }) =>
    spans.map((span) => text.slice(span.start, span.end));

  test("text without notation: the spans as given", () => {
    expect(spansOf("git commit -m x", [0, 3], [4, 10])).toEqual({
      text: "git commit -m x",
      spans: [
        { start: 0, end: 3 },
        { start: 4, end: 10 },
      ],
    });
    expect(spansOf("abc")).toEqual({ text: "abc", spans: [] });
  });

  test("after notation the spans shift; a span over a character takes its whole notation", () => {
    expect(spansOf("\t\tx", [2, 3])).toEqual({ text: "⟨TAB⟩⟨TAB⟩x", spans: [{ start: 10, end: 11 }] });
    expect(covered(spansOf("a\tb", [1, 2]))).toEqual(["⟨TAB⟩"]);
    expect(covered(spansOf("a\tb", [0, 1], [2, 3]))).toEqual(["a", "b"]);
    expect(covered(spansOf("a\u202eb\x1b[0m", [2, 4]))).toEqual(["b⟨ESC⟩"]);
  });

  test("a span edge inside a surrogate pair takes the whole character", () => {
    const text = 'git commit -m "🎉 yay"';
    expect(spansOf(text, [11, 16])).toEqual({ text, spans: [{ start: 11, end: 17 }] });
    expect(spansOf(text, [16, 18])).toEqual({ text, spans: [{ start: 15, end: 18 }] });
  });

  test("a span edge inside a character that becomes notation takes the whole notation", () => {
    expect(covered(spansOf("a\u{e0041}b", [0, 2]))).toEqual(["a⟨U+E0041⟩"]);
    expect(covered(spansOf("a\u{e0041}b", [2, 4]))).toEqual(["⟨U+E0041⟩b"]);
  });

  test("literal notation text: the escaped ⟨ is never left out of a span that starts inside it", () => {
    expect(spansOf("literal:⟨ESC⟩", [9, 12])).toEqual({ text: "literal:⟨U+27E8⟩ESC⟩", spans: [{ start: 16, end: 19 }] });
    expect(covered(spansOf("literal:⟨ESC⟩", [9, 12]))).toEqual(["ESC"]);
    expect(covered(spansOf("literal:⟨ESC⟩", [8, 10]))).toEqual(["⟨U+27E8⟩E"]);
  });

  test("a span edge inside a grapheme takes the whole grapheme", () => {
    expect(covered(spansOf("👨‍👩‍👧 x", [0, 2]))).toEqual(["👨‍👩‍👧"]);
    expect(covered(spansOf("👨‍👩‍👧 x", [3, 5]))).toEqual(["👨‍👩‍👧"]);
    expect(covered(spansOf("cafe\u0301!", [3, 4]))).toEqual(["e\u0301"]);
    expect(covered(spansOf("🇺🇳🇩🇪", [2, 6]))).toEqual(["🇺🇳🇩🇪"]);
    expect(covered(spansOf("1️⃣2", [0, 1]))).toEqual(["1️⃣"]);
  });

  test("a joiner shown as notation is no part of the grapheme before it", () => {
    expect(spansOf("👍\u200dx", [0, 2])).toEqual({ text: "👍⟨U+200D⟩x", spans: [{ start: 0, end: 2 }] });
  });

  test("spans that come to touch or overlap merge", () => {
    expect(spansOf("😀😀", [0, 1], [3, 4])).toEqual({ text: "😀😀", spans: [{ start: 0, end: 4 }] });
    expect(spansOf("a😀b", [0, 2], [3, 4])).toEqual({ text: "a😀b", spans: [{ start: 0, end: 4 }] });
    expect(spansOf("👨‍👩‍👧", [0, 1], [3, 4], [6, 7])).toEqual({ text: "👨‍👩‍👧", spans: [{ start: 0, end: 8 }] });
  });
});

describe("fromVisible", () => {
  test("turns notation back into characters", () => {
    expect(fromVisible("a⟨TAB⟩b⟨CR⟩⟨ESC⟩[0m⟨NUL⟩⟨BS⟩⟨DEL⟩")).toBe("a\tb\r\x1b[0m\x00\b\x7f");
    expect(fromVisible("⟨U+0041⟩⟨U+202E⟩⟨U+1F600⟩⟨U+E0041⟩⟨U+10FFFF⟩")).toBe("A\u202e😀\u{e0041}\u{10ffff}");
  });

  test("the edited text of an Approver who types notation by hand", () => {
    expect(fromVisible("printf 'a⟨TAB⟩b'")).toBe("printf 'a\tb'");
    expect(fromVisible("⟨U+0009⟩")).toBe("\t");
  });

  test("what is not notation stays as it is", () => {
    for (const text of ["⟨tab⟩", "⟨U+12⟩", "⟨U+1234567⟩", "⟨U+00e9⟩", "⟨ TAB ⟩", "⟨TAB", "TAB⟩", "<TAB>"]) {
      expect(fromVisible(text)).toBe(text);
    }
  });

  test("notation beyond Unicode stays as it is instead of throwing", () => {
    expect(fromVisible("⟨U+110000⟩")).toBe("⟨U+110000⟩");
    expect(fromVisible("a⟨U+FFFFFF⟩b⟨TAB⟩")).toBe("a⟨U+FFFFFF⟩b\t");
  });
});

describe("round trip", () => {
  test("every class above", () => {
    const samples = [
      "\x00\x01\x07\x08\t\r\x0b\x0c\x1b\x1f\x7f",
      String.fromCharCode(...range(0x80, 0x9f)),
      "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
      "\u200b\u200c\u200d\ufeff\u00a0\u2000\u3000\u00ad",
      "\u{e0001}\u{e0041}\u{e007f}",
      "\ud800 \udfff",
      "👨\u200d👩\u200d👧 e\u0301 漢字",
      "⟨TAB⟩ ⟨U+27E8⟩ ⟨ESC⟩",
      "git commit -m \"$(cat <<'EOF'\nfix:\ttypo\r\nEOF\n)\"",
    ];
    for (const sample of samples) {
      expectRoundTrip(sample);
      expectSafe(toVisible(sample), true);
    }
  });

  test("every code point of the BMP, one by one", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const shown = toVisible(char);
      if (fromVisible(shown) !== char) expect(`U+${hex(code)} → ${shown}`).toBe("round trip");
    }
    const all = String.fromCharCode(...range(0, 0xffff));
    expectRoundTrip(all);
    expectSafe(toVisible(all), false);
  });

  describe("property: seeded random strings", () => {
    // mulberry32: small, seeded, reproducible.
    function random(seed: number): () => number {
      let state = seed >>> 0;
      return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }

    const FRAGMENTS = [
      ..."abcxyz ABC019#*-_/.;'\"$`\\",
      "\n",
      "\t",
      "\r",
      "\x00",
      "\x08",
      "\x1b",
      "\x7f",
      "\x07",
      "\x9b",
      "\x85",
      "\x1b[31m",
      "\x1b]8;;x\x07",
      "\u202a",
      "\u202e",
      "\u2066",
      "\u2069",
      "\u200e",
      "\u061c",
      "\u200b",
      "\u200c",
      "\u200d",
      "\u2060",
      "\ufeff",
      "\u00a0",
      "\u2003",
      "\u3000",
      "\u00ad",
      "\u2028",
      "\u{e0001}",
      "\u{e0041}",
      "\u{e007f}",
      "\u{e0100}",
      "\ufe0e",
      "\ufe0f",
      "\u20e3",
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
      "\ud83d",
      "\ude00",
      "😀",
      "👍",
      "🏽",
      "👨",
      "👩",
      "🌈",
      "🏳",
      "❤",
      "☺",
      "©",
      "e\u0301",
      "漢",
      "字",
      "ש",
      "م",
      "⟨",
      "⟩",
      "TAB",
      "ESC",
      "NUL",
      "BS",
      "CR",
      "DEL",
      "U+",
      "27E8",
      "202E",
      "0041",
      "110000",
      "1F600",
      "E",
      "F",
      "⟨TAB⟩",
      "⟨ESC⟩",
      "⟨U+27E8⟩",
      "⟨U+202E⟩",
      "⟨U+0041⟩",
      "⟨U+110000⟩",
      "⟨U+D800⟩",
    ];

    function randomText(next: () => number): string {
      const length = Math.floor(next() * 24);
      let text = "";
      for (let i = 0; i < length; i++) {
        const roll = next();
        if (roll < 0.85) text += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
        else if (roll < 0.95) text += String.fromCharCode(Math.floor(next() * 0x10000));
        else text += String.fromCodePoint(Math.floor(next() * 0x110000));
      }
      return text;
    }

    test("5,000 cases: fromVisible(toVisible(s)) === s and the output is safe", () => {
      const next = random(0x5eed_07);
      let checked = 0;
      for (let i = 0; i < 5_000; i++) {
        const text = randomText(next);
        const shown = toVisible(text);
        if (fromVisible(shown) !== text) {
          expect({ case: i, text, shown }).toEqual({ case: i, text, shown: "a string that round-trips" });
        }
        expectSafe(shown, true);
        checked++;
      }
      expect(checked).toBe(5_000);
    });

    test("the generator is deterministic", () => {
      const a = random(42);
      const b = random(42);
      expect([randomText(a), randomText(a)]).toEqual([randomText(b), randomText(b)]);
    });
  });
});
