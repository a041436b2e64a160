import { describe, expect, test } from "bun:test";
import { keyNames } from "../lib/keys.ts";
import { clip, fitRows, hintRows, maxScroll, pageSize, paintSample, renderHints, scrollWindow } from "../lib/layout.ts";
import { DEFAULT_LABELS, type Paint, permissionsHints, plain, selectHints } from "../lib/presenter.ts";
import { DEFAULT_KEY_NAMES } from "./support/key-names.ts";
import { keybindings, tagged } from "./support/prompt-harness.ts";

const KEYS = DEFAULT_KEY_NAMES;
const SELECT = selectHints(KEYS, DEFAULT_LABELS.dontAsk);

test("the default key names are pi's default keybindings, as hints name them", () => {
  expect(keyNames(keybindings())).toEqual(DEFAULT_KEY_NAMES);
});

test("an action with no key bound, or keybindings that throw, shows pi's default key", () => {
  const unbound = { matches: () => false, getKeys: () => [] };
  const throwing = {
    matches: () => false,
    getKeys: (): string[] => {
      throw new Error("no keybindings");
    },
  };
  expect(keyNames(unbound)).toEqual(DEFAULT_KEY_NAMES);
  expect(keyNames(throwing)).toEqual(DEFAULT_KEY_NAMES);
});

describe("hints", () => {
  test("one line: the key dim, the action plain, two spaces between", () => {
    expect(renderHints(SELECT, plain)).toBe(
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort  ctrl+s don't ask again",
    );
    expect(renderHints(SELECT.slice(0, 2), tagged)).toBe("<dim>↑↓</dim> select  <dim>enter</dim> confirm");
    expect(renderHints(permissionsHints(KEYS), plain)).toBe("↑↓ move  space toggle  g toggle all  enter save  esc close");
    expect(renderHints([], plain)).toBe("");
  });

  test("rows: as many hints per line as fit the width, never split inside a hint", () => {
    expect(hintRows(SELECT, 90, plain)).toEqual([
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort  ctrl+s don't ask again",
    ]);
    expect(hintRows(SELECT, 89, plain)).toEqual([
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
    expect(hintRows(SELECT, 30, plain)).toEqual([
      "↑↓ select  enter confirm",
      "tab add note  shift+tab close",
      "esc abort",
      "ctrl+s don't ask again",
    ]);
    expect(hintRows(SELECT, 5, plain)).toHaveLength(6);
    expect(hintRows([], 80, plain)).toEqual([]);
    expect(hintRows([["界界", "wide"]], 8, plain)).toEqual(["界界 wide"]);
    expect(
      hintRows(
        [
          ["界界", "wide"],
          ["x", "y"],
        ],
        12,
        plain,
      ),
    ).toEqual(["界界 wide", "x y"]);
  });
});

describe("fitting parts into the height", () => {
  const ladder = [["b", 2], "gaps", ["b", 0], ["a", 0]] as const;

  test("everything fits: nothing changes, the gaps stay, the rest is spare", () => {
    expect(fitRows(10, { a: 2, b: 3 }, 2, ladder)).toEqual({ rows: { a: 2, b: 3 }, gaps: true, spare: 3 });
  });

  test("steps run in order, only as far as needed", () => {
    expect(fitRows(6, { a: 2, b: 3 }, 2, ladder)).toEqual({ rows: { a: 2, b: 2 }, gaps: true, spare: 0 });
    expect(fitRows(3, { a: 2, b: 3 }, 0, ladder)).toEqual({ rows: { a: 2, b: 1 }, gaps: false, spare: 0 });
    expect(fitRows(1, { a: 2, b: 3 }, 0, ladder)).toEqual({ rows: { a: 1, b: 0 }, gaps: false, spare: 0 });
  });

  test("the gaps go all at once; what they free beyond the need goes back to the parts cut before", () => {
    expect(fitRows(5, { a: 2, b: 3 }, 2, ladder)).toEqual({ rows: { a: 2, b: 3 }, gaps: false, spare: 0 });
    expect(fitRows(4, { a: 2, b: 3 }, 2, ladder)).toEqual({ rows: { a: 2, b: 2 }, gaps: false, spare: 0 });
  });

  test("parts the ladder doesn't name never shrink, even past the budget", () => {
    expect(fitRows<"a" | "c">(1, { a: 2, c: 3 }, 0, [["a", 0]])).toEqual({ rows: { a: 0, c: 3 }, gaps: true, spare: 0 });
  });
});

describe("cutting a text short", () => {
  test("the last row kept ends in the marker; a full row gives it its last column", () => {
    expect(clip(["one", "two", "three"], 3, 10, plain)).toEqual(["one", "two", "three"]);
    expect(clip(["one", "two", "three"], 2, 10, tagged)).toEqual(["one", "two<dim>…</dim>"]);
    expect(clip(["0123456789", "more"], 1, 10, plain)).toEqual(["012345678\x1b[0m…"]);
    expect(clip(["one", "two"], 0, 10, plain)).toEqual([]);
  });
});

describe("a scrolling window", () => {
  const LINES = ["l1", "l2", "l3", "l4", "l5", "l6"];

  test("markers say what is above and below, where they fit beside a line", () => {
    expect(scrollWindow(LINES, 6, 0, plain)).toEqual(LINES);
    expect(scrollWindow(LINES, 4, 0, plain)).toEqual(["l1", "l2", "l3", "↓ 3 more lines"]);
    expect(scrollWindow(LINES, 4, 1, plain)).toEqual(["↑ 1 more line", "l2", "l3", "↓ 3 more lines"]);
    expect(scrollWindow(LINES, 4, 3, plain)).toEqual(["↑ 3 more lines", "l4", "l5", "l6"]);
    expect(scrollWindow(LINES, 4, 99, plain)).toEqual(["↑ 3 more lines", "l4", "l5", "l6"]);
    expect(scrollWindow(LINES, 2, 0, tagged)).toEqual(["l1", "<dim>↓ 5 more lines</dim>"]);
    expect(scrollWindow(LINES, 2, 4, plain)).toEqual(["l5", "l6"]);
    expect(scrollWindow(LINES, 1, 2, plain)).toEqual(["l3"]);
    expect(scrollWindow(LINES, 0, 0, plain)).toEqual([]);
  });

  test("the last position shows the last line; a page is all a window shows but one", () => {
    expect([maxScroll(6, 6), maxScroll(6, 4), maxScroll(6, 2), maxScroll(6, 1)]).toEqual([0, 3, 4, 5]);
    expect([pageSize(11), pageSize(4), pageSize(2)]).toEqual([8, 1, 1]);
  });
});

describe("a sample of the paint", () => {
  test("changes when a sampled colour changes", () => {
    const theme = { accent: "36" };
    const paint: Paint = {
      fg: (tone, text) => `\x1b[${tone === "accent" ? theme.accent : "2"}m${text}\x1b[39m`,
      bold: (text) => text,
    };
    const before = paintSample(paint, ["accent", "dim"]);
    expect(paintSample(paint, ["accent", "dim"])).toBe(before);
    theme.accent = "35";
    expect(paintSample(paint, ["accent", "dim"])).not.toBe(before);
    expect(paintSample(plain, ["accent"])).toBe("");
  });
});
