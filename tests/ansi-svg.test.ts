import { describe, expect, test } from "bun:test";
import { crop, findBox, parseAnsi, renderSvg, textOf } from "../scripts/ansi-svg.ts";

describe("parseAnsi", () => {
  test("reads 16, 256 and truecolor colours and the attributes", () => {
    const [row] = parseAnsi("\x1b[31ma\x1b[38;5;69mb\x1b[48;2;1;2;3mc\x1b[0;1;2md\x1b[7;22me");
    expect(row.map((cell) => cell.style)).toEqual([
      { fg: "#cd3131" },
      { fg: "#5f87ff" },
      { fg: "#5f87ff", bg: "#010203" },
      { bold: true, dim: true },
      { bold: false, dim: false, inverse: true },
    ]);
  });

  test("carries the style across lines, as capture-pane writes it", () => {
    const screen = parseAnsi("\x1b[1ma\nb\x1b[m\nc\n");
    expect(screen.map((row) => row[0].style.bold)).toEqual([true, true, undefined]);
  });

  test("gives a wide character two cells and skips other escape sequences", () => {
    const [row] = parseAnsi("\x1b]8;;https://x\x07界\x1b[2Kx");
    expect(row.map((cell) => cell.text)).toEqual(["界", "", "x"]);
  });
});

describe("findBox and crop", () => {
  test("find the rounded box and cut it out", () => {
    const screen = parseAnsi("ab ╭──╮\ncd │hi│ x\nef ╰──╯\n");
    const box = findBox(screen);
    expect(box).toEqual({ top: 0, left: 3, height: 3, width: 4 });
    expect(textOf(crop(screen, box!))).toBe("╭──╮\n│hi│\n╰──╯");
  });
});

describe("renderSvg", () => {
  test("draws backgrounds, escapes text and strokes box lines in one path per colour", () => {
    const svg = renderSvg(parseAnsi("\x1b[44m<&>\x1b[m ─│\n"), { fontSize: 10, padding: 0 });
    expect(svg).toContain('<rect x="0" y="0" width="18" height="14" fill="#2472c8"/>');
    expect(svg).toContain(">&lt;&amp;&gt;</text>");
    expect(svg.match(/<path /g)).toHaveLength(1);
  });

  test("inverse swaps the colours; dim mixes the foreground toward the background", () => {
    const svg = renderSvg(parseAnsi("\x1b[7mX\x1b[27;2mY"), { foreground: "#ffffff", background: "#000000", padding: 0 });
    expect(svg).toMatch(/<rect [^>]*fill="#ffffff"\/>\n<text [^>]*fill="#000000">X<\/text>/);
    expect(svg).toMatch(/fill="#8c8c8c">Y<\/text>/);
  });
});
