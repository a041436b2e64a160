import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { HighlightSpan, PermissionHighlight } from "../lib/api.ts";
import { highlightSpans, markHighlights } from "../lib/highlight.ts";
import { toVisible } from "../lib/visible.ts";
import { gitCommitRequest, openPrompt, tagged } from "./support/prompt-harness.ts";

const DETAIL = "git commit -m 'x' && git push; git commit --amend";
//              0123456789012345678901234567890123456789012345678
//              0         1         2         3         4

/** What the spans cover, to keep expectations readable next to the offsets. */
function covered(detail: string, spans: HighlightSpan[]): string[] {
  return spans.map(({ start, end }) => detail.slice(start, end));
}

function spansOf(callback: (detail: string) => HighlightSpan[] | undefined, detail = "0123456789"): HighlightSpan[] {
  return highlightSpans(detail, callback);
}

describe("nothing to highlight", () => {
  test("undefined and null", () => {
    expect(highlightSpans(DETAIL, undefined)).toEqual([]);
    expect(highlightSpans(DETAIL, null as unknown as PermissionHighlight)).toEqual([]);
  });

  test("an empty detail", () => {
    expect(highlightSpans("", "git")).toEqual([]);
    expect(highlightSpans("", /x*/)).toEqual([]);
    expect(highlightSpans("", () => [{ start: 0, end: 5 }])).toEqual([]);
  });

  test("values that are no pattern", () => {
    for (const junk of [42, {}, true, Symbol("s")]) {
      expect(highlightSpans(DETAIL, junk as unknown as PermissionHighlight)).toEqual([]);
    }
  });
});

describe("string", () => {
  test("every occurrence", () => {
    const spans = highlightSpans(DETAIL, "git");
    expect(spans).toEqual([
      { start: 0, end: 3 },
      { start: 21, end: 24 },
      { start: 31, end: 34 },
    ]);
    expect(covered(DETAIL, spans)).toEqual(["git", "git", "git"]);
  });

  test("a phrase", () => {
    expect(highlightSpans(DETAIL, "git commit")).toEqual([
      { start: 0, end: 10 },
      { start: 31, end: 41 },
    ]);
  });

  test("is literal: regex characters mean themselves", () => {
    expect(highlightSpans("a.b axb a.b", "a.b")).toEqual([
      { start: 0, end: 3 },
      { start: 8, end: 11 },
    ]);
    expect(highlightSpans("x (y) x", "(y)")).toEqual([{ start: 2, end: 5 }]);
  });

  test("every character a regex reads as syntax means itself", () => {
    for (const char of "\\^$.*+?()[]{}|/-") {
      const detail = `a${char}b ab a${char}${char}b`;
      expect(highlightSpans(detail, `a${char}b`)).toEqual([{ start: 0, end: 3 }]);
      expect(highlightSpans(detail, char)).toEqual([
        { start: 1, end: 2 },
        { start: 8, end: 10 },
      ]);
    }
    expect(highlightSpans("x.*y xay", ".*")).toEqual([{ start: 1, end: 3 }]);
    expect(highlightSpans("a\\d 1", "\\d")).toEqual([{ start: 1, end: 3 }]);
    expect(highlightSpans("aa a{2}", "a{2}")).toEqual([{ start: 3, end: 7 }]);
    expect(highlightSpans("a [a]", "[a]")).toEqual([{ start: 2, end: 5 }]);
  });

  test("is case-sensitive", () => {
    expect(highlightSpans("Git git", "git")).toEqual([{ start: 4, end: 7 }]);
  });

  test("back-to-back occurrences merge into one span", () => {
    expect(highlightSpans("abab-ab", "ab")).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 7 },
    ]);
  });

  test("not found, or empty", () => {
    expect(highlightSpans(DETAIL, "svn")).toEqual([]);
    expect(highlightSpans(DETAIL, "")).toEqual([]);
  });

  test("the whole detail", () => {
    expect(highlightSpans("rm -rf /", "rm -rf /")).toEqual([{ start: 0, end: 8 }]);
  });

  test("offsets are UTF-16 code units, as String.slice counts", () => {
    const detail = "a😀b 😀";
    const spans = highlightSpans(detail, "😀");
    expect(spans).toEqual([
      { start: 1, end: 3 },
      { start: 5, end: 7 },
    ]);
    expect(covered(detail, spans)).toEqual(["😀", "😀"]);
    expect(highlightSpans(detail, "b")).toEqual([{ start: 3, end: 4 }]);
  });
});

describe("RegExp", () => {
  test("without the g flag: still every match", () => {
    const spans = highlightSpans(DETAIL, /git\s+commit/);
    expect(covered(DETAIL, spans)).toEqual(["git commit", "git commit"]);
    expect(spans).toEqual([
      { start: 0, end: 10 },
      { start: 31, end: 41 },
    ]);
  });

  test("with the g flag: every match", () => {
    expect(highlightSpans(DETAIL, /git \w+/g)).toEqual([
      { start: 0, end: 10 },
      { start: 21, end: 29 },
      { start: 31, end: 41 },
    ]);
  });

  test("the Author's regex is neither affected by nor changes its lastIndex", () => {
    const pattern = /git/g;
    expect(pattern.test(DETAIL)).toBe(true);
    expect(pattern.lastIndex).toBe(3);
    expect(highlightSpans(DETAIL, pattern)).toEqual([
      { start: 0, end: 3 },
      { start: 21, end: 24 },
      { start: 31, end: 34 },
    ]);
    expect(pattern.lastIndex).toBe(3);
    expect(pattern.flags).toBe("g");
  });

  test("i flag", () => {
    expect(highlightSpans("GIT Git git", /git/i)).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 8, end: 11 },
    ]);
  });

  test("m flag anchors at each line", () => {
    const detail = "git a\ngit b\nx git";
    expect(highlightSpans(detail, /^git/m)).toEqual([
      { start: 0, end: 3 },
      { start: 6, end: 9 },
    ]);
    expect(highlightSpans(detail, /^git/)).toEqual([{ start: 0, end: 3 }]);
  });

  test("s flag lets . match a newline", () => {
    expect(highlightSpans("a\nb", /a.b/s)).toEqual([{ start: 0, end: 3 }]);
    expect(highlightSpans("a\nb", /a.b/)).toEqual([]);
  });

  test("u flag: code point classes, code unit offsets", () => {
    expect(highlightSpans("x😀y", /\p{Extended_Pictographic}/u)).toEqual([{ start: 1, end: 3 }]);
  });

  test("d flag is harmless", () => {
    expect(highlightSpans("ab ab", /b/d)).toEqual([
      { start: 1, end: 2 },
      { start: 4, end: 5 },
    ]);
  });

  test("y (sticky) keeps its meaning: only a contiguous run of matches from the start", () => {
    expect(highlightSpans("gitgit git", /git/y)).toEqual([{ start: 0, end: 6 }]);
    expect(highlightSpans("x git", /git/y)).toEqual([]);
  });

  test("captures do not narrow the span", () => {
    expect(highlightSpans("git push --force", /git push (--force)/)).toEqual([{ start: 0, end: 16 }]);
  });

  test("lookarounds highlight only the match", () => {
    expect(highlightSpans("--force --force-with-lease", /--force(?!-)/)).toEqual([{ start: 0, end: 7 }]);
  });

  test("no match", () => {
    expect(highlightSpans(DETAIL, /svn/)).toEqual([]);
  });
});

describe("zero-length regex matches", () => {
  test("empty pattern: nothing, and it terminates", () => {
    expect(highlightSpans(DETAIL, /(?:)/)).toEqual([]);
    expect(highlightSpans(DETAIL, /(?:)/)).toEqual([]);
  });

  test("assertions only", () => {
    expect(highlightSpans(DETAIL, /\b/)).toEqual([]);
    expect(highlightSpans(DETAIL, /(?=git)/g)).toEqual([]);
    expect(highlightSpans(DETAIL, /^|$/gm)).toEqual([]);
  });

  test("a pattern that may match empty keeps its non-empty matches", () => {
    expect(highlightSpans("axxbx", /x*/)).toEqual([
      { start: 1, end: 3 },
      { start: 4, end: 5 },
    ]);
  });

  test("with u flag over astral characters", () => {
    expect(highlightSpans("😀😀a", /a*/u)).toEqual([{ start: 4, end: 5 }]);
  });

  test("empty matches over a long detail end, and mark nothing", () => {
    const detail = "x".repeat(200_000);
    expect(highlightSpans(detail, /(?:)/g)).toEqual([]);
    expect(highlightSpans(detail, /y*/)).toEqual([]);
  });
});

describe("arrays", () => {
  test("strings and regexes together, sorted and merged", () => {
    const spans = highlightSpans(DETAIL, [/ push/, "git", "--amend"]);
    expect(spans).toEqual([
      { start: 0, end: 3 },
      { start: 21, end: 29 },
      { start: 31, end: 34 },
      { start: 42, end: 49 },
    ]);
    expect(covered(DETAIL, spans)).toEqual(["git", "git push", "git", "--amend"]);
  });

  test("overlapping patterns merge", () => {
    expect(highlightSpans("git commit", ["git com", "commit"])).toEqual([{ start: 0, end: 10 }]);
  });

  test("empty array", () => {
    expect(highlightSpans(DETAIL, [])).toEqual([]);
  });

  test("junk entries are skipped, the rest still count", () => {
    const highlight = [null, 42, {}, "", "push", undefined] as unknown as PermissionHighlight;
    expect(highlightSpans(DETAIL, highlight)).toEqual([{ start: 25, end: 29 }]);
  });
});

describe("callback spans", () => {
  test("receives the detail; spans are used as given", () => {
    const seen: string[] = [];
    const spans = highlightSpans(DETAIL, (detail) => {
      seen.push(detail);
      return [{ start: 4, end: 10 }];
    });
    expect(seen).toEqual([DETAIL]);
    expect(spans).toEqual([{ start: 4, end: 10 }]);
  });

  test("half-open: end is exclusive, a one-character span covers one character", () => {
    const spans = spansOf(() => [{ start: 2, end: 3 }]);
    expect(spans).toEqual([{ start: 2, end: 3 }]);
    expect(covered("0123456789", spans)).toEqual(["2"]);
  });

  test("sorted", () => {
    expect(
      spansOf(() => [
        { start: 7, end: 9 },
        { start: 1, end: 2 },
        { start: 4, end: 5 },
      ]),
    ).toEqual([
      { start: 1, end: 2 },
      { start: 4, end: 5 },
      { start: 7, end: 9 },
    ]);
  });

  test("overlapping spans merge", () => {
    expect(
      spansOf(() => [
        { start: 0, end: 5 },
        { start: 3, end: 8 },
      ]),
    ).toEqual([{ start: 0, end: 8 }]);
  });

  test("adjacent spans merge", () => {
    expect(
      spansOf(() => [
        { start: 0, end: 3 },
        { start: 3, end: 6 },
      ]),
    ).toEqual([{ start: 0, end: 6 }]);
  });

  test("a contained span disappears into its container", () => {
    expect(
      spansOf(() => [
        { start: 0, end: 9 },
        { start: 2, end: 3 },
        { start: 8, end: 9 },
      ]),
    ).toEqual([{ start: 0, end: 9 }]);
  });

  test("duplicates collapse; a gap of one keeps two spans", () => {
    expect(
      spansOf(() => [
        { start: 1, end: 3 },
        { start: 1, end: 3 },
        { start: 4, end: 6 },
      ]),
    ).toEqual([
      { start: 1, end: 3 },
      { start: 4, end: 6 },
    ]);
  });

  test("a chain merges through several spans", () => {
    expect(
      spansOf(() => [
        { start: 6, end: 8 },
        { start: 0, end: 2 },
        { start: 2, end: 4 },
        { start: 3, end: 6 },
      ]),
    ).toEqual([{ start: 0, end: 8 }]);
  });

  test("clamped to [0, length]", () => {
    expect(spansOf(() => [{ start: -5, end: 3 }])).toEqual([{ start: 0, end: 3 }]);
    expect(spansOf(() => [{ start: 7, end: 999 }])).toEqual([{ start: 7, end: 10 }]);
    expect(spansOf(() => [{ start: -100, end: 100 }])).toEqual([{ start: 0, end: 10 }]);
  });

  test("spans entirely outside the detail are dropped", () => {
    expect(
      spansOf(() => [
        { start: -10, end: -1 },
        { start: 10, end: 12 },
        { start: 20, end: 30 },
      ]),
    ).toEqual([]);
  });

  test("empty and reversed spans are dropped", () => {
    expect(
      spansOf(() => [
        { start: 3, end: 3 },
        { start: 5, end: 2 },
      ]),
    ).toEqual([]);
  });

  test("NaN and ±Infinity are dropped, not clamped", () => {
    expect(
      spansOf(() => [
        { start: Number.NaN, end: 3 },
        { start: 1, end: Number.NaN },
        { start: 0, end: Number.POSITIVE_INFINITY },
        { start: Number.NEGATIVE_INFINITY, end: 4 },
        { start: 6, end: 7 },
      ]),
    ).toEqual([{ start: 6, end: 7 }]);
  });

  test("fractional offsets are floored", () => {
    expect(spansOf(() => [{ start: 1.7, end: 3.2 }])).toEqual([{ start: 1, end: 3 }]);
  });

  test("malformed entries are dropped", () => {
    const junk = [null, undefined, 3, "1-2", {}, { start: "1", end: "3" }, { start: 1 }, { start: 8, end: 9 }];
    expect(spansOf(() => junk as unknown as HighlightSpan[])).toEqual([{ start: 8, end: 9 }]);
  });

  test("returning nothing or a non-array means no highlight", () => {
    expect(spansOf(() => undefined)).toEqual([]);
    expect(spansOf(() => ({ start: 0, end: 3 }) as unknown as HighlightSpan[])).toEqual([]);
    expect(spansOf(() => "0-3" as unknown as HighlightSpan[])).toEqual([]);
  });

  test("the Author's span objects are not mutated", () => {
    const mine = [
      { start: -2, end: 3 },
      { start: 2, end: 50 },
    ];
    expect(spansOf(() => mine)).toEqual([{ start: 0, end: 10 }]);
    expect(mine).toEqual([
      { start: -2, end: 3 },
      { start: 2, end: 50 },
    ]);
  });
});

describe("never throws", () => {
  test("a throwing callback yields no highlight", () => {
    expect(
      highlightSpans(DETAIL, () => {
        throw new Error("author bug");
      }),
    ).toEqual([]);
  });

  test("a span whose getter throws yields no highlight", () => {
    const evil = {
      get start(): number {
        throw new Error("nope");
      },
      end: 3,
    };
    expect(highlightSpans(DETAIL, () => [evil])).toEqual([]);
  });

  test("a RegExp whose flags throw yields no highlight", () => {
    class Evil extends RegExp {
      override get flags(): string {
        throw new Error("nope");
      }
    }
    expect(highlightSpans(DETAIL, new Evil("git"))).toEqual([]);
  });

  test("a callback returning a huge array is fine", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ start: i % 10, end: (i % 10) + 1 }));
    expect(spansOf(() => many)).toEqual([{ start: 0, end: 10 }]);
  });
});

describe("markHighlights: a highlight never changes what is shown", () => {
  const brackets = (part: string) => `[${part}]`;
  const marked = (detail: string, highlight: PermissionHighlight) =>
    markHighlights(detail, highlightSpans(detail, highlight), brackets);

  test("a RegExp without u that ends inside an emoji marks the whole emoji", () => {
    expect(marked('git commit -m "🎉 yay"', /-m .{0,2}/)).toBe('git commit [-m "🎉] yay"');
  });

  test("a highlight inside literal notation text leaves its ⟨ escaped", () => {
    expect(marked("echo literal:⟨ESC⟩", /[A-Z]+/g)).toBe("echo literal:⟨U+27E8⟩[ESC]⟩");
    expect(marked("printf '⟨U+202E⟩'", /U\+202E/)).toBe("printf '⟨U+27E8⟩[U+202E]⟩'");
  });

  test("a highlight over a control marks its whole notation; the detail is escaped once, with context", () => {
    expect(marked("a\tb", "\t")).toBe("a[⟨TAB⟩]b");
    expect(marked("👨‍👩‍👧 ok", "👨")).toBe("[👨‍👩‍👧] ok");
    expect(marked("❤️ x", "❤")).toBe("[❤️] x");
  });

  test("marks stop at line breaks", () => {
    expect(marked("a\tb\nc d", /b\nc/)).toBe("a⟨TAB⟩[b]\n[c] d");
  });

  test("nothing to mark: the detail as shown", () => {
    expect(markHighlights("x\u2800y", [], brackets)).toBe("x⟨U+2800⟩y");
  });

  test("in the prompt: the emoji stays whole, literal notation stays escaped", () => {
    const emoji = 'git commit -m "🎉 yay"';
    const prompt = openPrompt(gitCommitRequest({ detail: emoji, highlights: highlightSpans(emoji, /-m .{0,2}/) }), {
      paint: tagged,
      width: 200,
    });
    expect(prompt.lines().join("\n")).toContain('git commit <warning><b>-m "🎉</b></warning> yay"');
    const literal = "echo literal:⟨ESC⟩";
    const escaped = openPrompt(gitCommitRequest({ detail: literal, highlights: highlightSpans(literal, /[A-Z]+/g) }), {
      paint: tagged,
      width: 200,
    });
    expect(escaped.lines().join("\n")).toContain("echo literal:⟨U+27E8⟩<warning><b>ESC</b></warning>⟩");
  });

  const FRAGMENTS = [
    ..."ab -=/'\"",
    "\n",
    "\t",
    "\r",
    "\x1b",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u1680",
    "\u2800",
    "\u200b",
    "\u200d",
    "\u202e",
    "\ufe0f",
    "\u20e3",
    "\u0301",
    "\ud83d",
    "\ude00",
    "\u{e0041}",
    "😀",
    "🎉",
    "👍🏽",
    "👨‍👩‍👧",
    "❤️",
    "1️⃣",
    "🇺🇳",
    "é",
    "漢",
    "⟨",
    "⟩",
    "ESC",
    "U+27E8",
    "⟨ESC⟩",
    "⟨TAB⟩",
    "⟨U+202E⟩",
  ];
  const detail = fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4, unit: "binary" })), { maxLength: 16 })
    .map((parts) => parts.join(""));
  const OPEN = "\x01";
  const CLOSE = "\x02";

  test("property: with the marks taken out, exactly toVisible(detail); marks only around whole graphemes", () => {
    const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    fc.assert(
      fc.property(detail, fc.array(fc.tuple(fc.nat(80), fc.nat(8))), (text, raw) => {
        const spans = highlightSpans(text, () => raw.map(([start, length]) => ({ start, end: start + length })));
        const shown = markHighlights(text, spans, (part) => `${OPEN}${part}${CLOSE}`);
        const visible = toVisible(text);
        expect(shown.replaceAll(OPEN, "").replaceAll(CLOSE, "")).toBe(visible);
        const boundaries = new Set([...graphemes.segment(visible)].map((grapheme) => grapheme.index));
        boundaries.add(visible.length);
        let at = 0;
        for (const char of shown) {
          if (char === OPEN || char === CLOSE) expect(boundaries.has(at)).toBe(true);
          else at += char.length;
        }
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
  });
});
