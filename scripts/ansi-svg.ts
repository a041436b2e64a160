/**
 * Renders a terminal screen captured with `tmux capture-pane -e -p` as an SVG: monospace text,
 * 16/256/truecolor foreground and background, bold, dim, italic, underline, inverse. Box-drawing
 * lines are drawn as strokes so borders join up whatever font the viewer has.
 */

export interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

/** One terminal cell; a wide character's second cell has `text: ""`. */
export interface Cell {
  text: string;
  style: Style;
}

export type Screen = Cell[][];

export interface SvgOptions {
  fontSize?: number;
  /** Blank space around the cells, in px. */
  padding?: number;
  background?: string;
  foreground?: string;
}

const DEFAULT_BACKGROUND = "#16161a";
const DEFAULT_FOREGROUND = "#d4d4d4";
const ANSI_16 = [
  "#000000",
  "#cd3131",
  "#0dbc79",
  "#e5e510",
  "#2472c8",
  "#bc3fbc",
  "#11a8cd",
  "#e5e5e5",
  "#666666",
  "#f14c4c",
  "#23d18b",
  "#f5f543",
  "#3b8eea",
  "#d670d6",
  "#29b8db",
  "#ffffff",
];
const TOKEN = /\x1b\[([0-?]*)([ -/]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.?|\n|[^\x1b\n]+/g;

// ── Parsing ────────────────────────────────────────────────────────────────────────────────

/** Cells of every line; SGR state carries across lines, as capture-pane writes it. */
export function parseAnsi(ansi: string): Screen {
  const screen: Screen = [[]];
  let style: Style = {};
  for (const match of ansi.matchAll(TOKEN)) {
    const [token, params, intermediates, final] = match;
    if (token === "\n") screen.push([]);
    else if (final === "m" && intermediates === "") style = applySgr(style, params);
    else if (!token.startsWith("\x1b")) (screen.at(-1) as Cell[]).push(...cellsOf(token, style));
  }
  if (screen.at(-1)?.length === 0) screen.pop();
  return screen;
}

function cellsOf(text: string, style: Style): Cell[] {
  const cells: Cell[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const width = Bun.stringWidth(segment);
    if (width === 0) continue;
    cells.push({ text: segment, style });
    if (width === 2) cells.push({ text: "", style });
  }
  return cells;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function applySgr(current: Style, params: string): Style {
  const codes = params === "" ? [0] : params.split(";").map((code) => Number(code) || 0);
  let style = { ...current };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (code === 0) style = {};
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 7) style.inverse = true;
    else if (code === 22) style.bold = style.dim = false;
    else if (code === 23) style.italic = false;
    else if (code === 24) style.underline = false;
    else if (code === 27) style.inverse = false;
    else if (code >= 30 && code <= 37) style.fg = ANSI_16[code - 30];
    else if (code >= 90 && code <= 97) style.fg = ANSI_16[code - 90 + 8];
    else if (code >= 40 && code <= 47) style.bg = ANSI_16[code - 40];
    else if (code >= 100 && code <= 107) style.bg = ANSI_16[code - 100 + 8];
    else if (code === 39) style.fg = undefined;
    else if (code === 49) style.bg = undefined;
    else if (code === 38 || code === 48) {
      const [color, used] = extendedColor(codes.slice(i + 1));
      if (code === 38) style.fg = color;
      else style.bg = color;
      i += used;
    }
  }
  return style;
}

/** `5;n` or `2;r;g;b` after a 38/48; returns the color and how many codes it consumed. */
function extendedColor(rest: number[]): [string | undefined, number] {
  if (rest[0] === 5) return [color256(rest[1] ?? 0), 2];
  if (rest[0] === 2) return [hex(rest[1] ?? 0, rest[2] ?? 0, rest[3] ?? 0), 4];
  return [undefined, 0];
}

function color256(index: number): string {
  if (index < 16) return ANSI_16[index];
  if (index < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const n = index - 16;
    return hex(levels[Math.floor(n / 36)], levels[Math.floor(n / 6) % 6], levels[n % 6]);
  }
  const gray = 8 + (index - 232) * 10;
  return hex(gray, gray, gray);
}

function hex(...channels: number[]): string {
  return `#${channels.map((channel) => Math.max(0, Math.min(255, channel)).toString(16).padStart(2, "0")).join("")}`;
}

// ── Cropping ───────────────────────────────────────────────────────────────────────────────

export interface Region {
  top: number;
  left: number;
  height: number;
  width: number;
}

export function crop(screen: Screen, { top, left, height, width }: Region): Screen {
  const blank: Cell = { text: " ", style: {} };
  return Array.from({ length: height }, (_, row) =>
    Array.from({ length: width }, (_, col) => screen[top + row]?.[left + col] ?? blank),
  );
}

/** The first rounded box (╭…╮ down to ╰…╯) on the screen, e.g. an overlay. */
export function findBox(screen: Screen): Region | undefined {
  const top = screen.findIndex((row) => row.some((cell) => cell.text === "╭"));
  if (top === -1) return undefined;
  const left = screen[top].findIndex((cell) => cell.text === "╭");
  const right = screen[top].findIndex((cell, col) => col > left && cell.text === "╮");
  const bottom = screen.findIndex((row, index) => index > top && row[left]?.text === "╰");
  if (right === -1 || bottom === -1) return undefined;
  return { top, left, height: bottom - top + 1, width: right - left + 1 };
}

/** Plain text of a screen, for comparing captures. */
export function textOf(screen: Screen): string {
  return screen.map((row) => row.map((cell) => cell.text).join("")).join("\n");
}

// ── Rendering ──────────────────────────────────────────────────────────────────────────────

/** Which edges of its cell a box-drawing character reaches: up, right, down, left. */
const BOX_EDGES: Record<string, [boolean, boolean, boolean, boolean]> = {
  "─": [false, true, false, true],
  "│": [true, false, true, false],
  "┌": [false, true, true, false],
  "┐": [false, false, true, true],
  "└": [true, true, false, false],
  "┘": [true, false, false, true],
  "├": [true, true, true, false],
  "┤": [true, false, true, true],
  "┬": [false, true, true, true],
  "┴": [true, true, false, true],
  "┼": [true, true, true, true],
};
const ROUNDED: Record<string, string> = { "╭": "┌", "╮": "┐", "╰": "└", "╯": "┘" };

export function renderSvg(screen: Screen, options: SvgOptions = {}): string {
  const fontSize = options.fontSize ?? 14;
  const padding = options.padding ?? 12;
  const palette = { bg: options.background ?? DEFAULT_BACKGROUND, fg: options.foreground ?? DEFAULT_FOREGROUND };
  const cell: Size = { width: fontSize * 0.6, height: Math.round(fontSize * 1.4) };
  const columns = Math.max(0, ...screen.map((row) => row.length));
  const width = columns * cell.width + 2 * padding;
  const height = screen.length * cell.height + 2 * padding;

  // One path per colour: a single path's overlapping segments don't paint twice, so lines stay even.
  const strokes = new Map<string, string[]>();
  const body = screen.flatMap((row, index) => {
    const y = padding + index * cell.height;
    return runsOf(row).flatMap((run) => {
      const colors = resolveColors(run.style, palette);
      const area = { x: padding + run.start * cell.width, y, width: run.cells.length * cell.width, height: cell.height };
      const background = colors.bg === palette.bg ? [] : [rect(area, colors.bg)];
      if (run.kind === "box") {
        strokes.set(colors.fg, [...(strokes.get(colors.fg) ?? []), boxPath(run, area, cell)]);
        return background;
      }
      return [...background, ...textElement(run, area, colors.fg, cell, fontSize)];
    });
  });
  const paths = [...strokes].map(
    ([stroke, commands]) => `<path d="${commands.join("")}" stroke="${stroke}" stroke-width="1.2" fill="none"/>`,
  );

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}">`,
    `<rect width="100%" height="100%" rx="6" fill="${palette.bg}"/>`,
    `<g font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="${fontSize}" xml:space="preserve">`,
    ...body,
    "</g>",
    ...paths,
    "</svg>",
    "",
  ].join("\n");
}

interface Size {
  width: number;
  height: number;
}

interface Area extends Size {
  x: number;
  y: number;
}

interface Run {
  start: number;
  cells: Cell[];
  style: Style;
  kind: "text" | "box";
}

/** Consecutive cells of one style; box-drawing characters apart from text. */
function runsOf(row: Cell[]): Run[] {
  const runs: Run[] = [];
  row.forEach((cell, col) => {
    const kind = boxEdges(cell.text) ? "box" : "text";
    const last = runs.at(-1);
    if (last && last.kind === kind && last.style === cell.style) last.cells.push(cell);
    else runs.push({ start: col, cells: [cell], style: cell.style, kind });
  });
  return runs;
}

function textElement(run: Run, area: Area, fg: string, cell: Size, fontSize: number): string[] {
  const text = run.cells.map((c) => c.text).join("");
  if (text.trim() === "") return [];
  const attributes = [
    `x="${num(area.x)}"`,
    `y="${num(area.y + cell.height / 2 + fontSize * 0.35)}"`,
    `textLength="${num(area.width)}"`,
    `lengthAdjust="spacingAndGlyphs"`,
    `fill="${fg}"`,
    ...(run.style.bold ? [`font-weight="bold"`] : []),
    ...(run.style.italic ? [`font-style="italic"`] : []),
    ...(run.style.underline ? [`text-decoration="underline"`] : []),
  ];
  return [`<text ${attributes.join(" ")}>${escapeXml(text)}</text>`];
}

/** Path commands for a run of box-drawing characters: lines from each cell's centre to its edges. */
function boxPath(run: Run, area: Area, cell: Size): string {
  const commands = run.cells.map((c, index) => {
    const x = area.x + index * cell.width;
    const cx = x + cell.width / 2;
    const cy = area.y + cell.height / 2;
    const [up, right, down, left] = boxEdges(c.text) as [boolean, boolean, boolean, boolean];
    if (c.text in ROUNDED) {
      const from = up ? [cx, area.y] : [cx, area.y + cell.height];
      const to = right ? [x + cell.width, cy] : [x, cy];
      return `M${num(from[0])} ${num(from[1])}Q${num(cx)} ${num(cy)} ${num(to[0])} ${num(to[1])}`;
    }
    const ends = [
      ...(up ? [[cx, area.y]] : []),
      ...(right ? [[x + cell.width, cy]] : []),
      ...(down ? [[cx, area.y + cell.height]] : []),
      ...(left ? [[x, cy]] : []),
    ];
    return ends.map(([ex, ey]) => `M${num(cx)} ${num(cy)}L${num(ex)} ${num(ey)}`).join("");
  });
  return commands.join("");
}

function boxEdges(text: string): [boolean, boolean, boolean, boolean] | undefined {
  return BOX_EDGES[ROUNDED[text] ?? text];
}

function resolveColors(style: Style, palette: { fg: string; bg: string }): { fg: string; bg: string } {
  let fg = style.fg ?? palette.fg;
  let bg = style.bg ?? palette.bg;
  if (style.inverse) [fg, bg] = [bg, fg];
  if (style.dim) fg = mix(fg, bg, 0.55);
  return { fg, bg };
}

/** `weight` of `a` plus the rest of `b`, channel by channel. */
function mix(a: string, b: string, weight: number): string {
  const channels = (color: string) => [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  const [ca, cb] = [channels(a), channels(b)];
  return hex(...ca.map((value, i) => Math.round(value * weight + cb[i] * (1 - weight))));
}

function rect(area: Area, fill: string): string {
  return `<rect x="${num(area.x)}" y="${num(area.y)}" width="${num(area.width)}" height="${num(area.height)}" fill="${fill}"/>`;
}

function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[char]};`);
}
