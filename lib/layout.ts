// Layout shared by the overlays: hint rows, fitting parts into the terminal's height, and the
// windows and truncation that shrink a part.

import { type TUI, truncateToWidth, visibleWidth } from "@earendil-works/pi-tui";
import { type Hint, type Paint, scrollMarker, type Tone, TRUNCATION_MARKER } from "./presenter.ts";
import { clamp, isString } from "./values.ts";

/** One line of hints: the key dim, the action plain, two spaces between hints. */
export const renderHints = (hints: readonly Hint[], paint: Paint): string =>
  hints.map(([key, action]) => `${paint.fg("dim", key)} ${action}`).join("  ");

/** Hints on as few lines as fit `width`, in order; a hint wider than a line gets its own. */
export function hintRows(hints: readonly Hint[], width: number, paint: Paint): string[] {
  const rows: Hint[][] = [];
  let used = 0;
  for (const hint of hints) {
    const size = visibleWidth(hint.join(" "));
    const row = rows.at(-1);
    if (row && used + 2 + size <= width) {
      row.push(hint);
      used += 2 + size;
    } else {
      rows.push([hint]);
      used = size;
    }
  }
  return rows.map((row) => renderHints(row, paint));
}

/** The terminal's height, which no overlay exceeds. */
export const terminalRows = (tui: TUI): number => tui.terminal?.rows ?? 24;

/** A command window gives way down to this many lines before the blank rows go: pi-tui's Editor never shows fewer. */
export const COMFORTABLE_LINES = 5;

/**
 * A step of giving way when the parts don't fit: the part shrinks down to `floor` rows; a part
 * named alone goes entirely; for "gaps", every blank row between parts goes at once.
 */
export type Step<Part extends string> = readonly [part: Part, floor: number] | Part | "gaps";

/**
 * Shrinks `rows` (each part's wanted height) in place, and says whether the blank `gaps` between the
 * parts stay, so that all fit in `budget` rows; `spare` is what is left unused. The ladder says what
 * gives way first; steps run only while something is left over. A step that frees more than needed
 * (the gaps, all at once) hands the surplus back to the parts cut before it, the latest cut first.
 * Parts the ladder doesn't name are never cut: when even they don't fit, the result exceeds the budget.
 */
export function fitRows<Part extends string>(
  budget: number,
  rows: Record<Part, number>,
  gaps: number,
  ladder: readonly Step<Part>[],
): { rows: Record<Part, number>; gaps: boolean; spare: number } {
  let keepGaps = true;
  let excess = gaps - budget;
  for (const part in rows) excess += rows[part];
  const cuts: [part: Part, rows: number][] = [];
  for (const step of ladder) {
    if (excess <= 0) break;
    if (step === "gaps") {
      keepGaps = false;
      excess -= gaps;
      continue;
    }
    const [part, floor] = isString(step) ? [step, 0] : step;
    const cut = clamp(excess, rows[part] - floor);
    rows[part] -= cut;
    excess -= cut;
    cuts.push([part, cut]);
  }
  for (const [part, cut] of cuts.reverse()) {
    if (excess >= 0) break;
    const back = Math.min(cut, -excess);
    rows[part] += back;
    excess += back;
  }
  return { rows, gaps: keepGaps, spare: Math.max(0, -excess) };
}

/** The first `rows` lines; when some are left out, the last one shown ends in the truncation marker. */
export function clip(lines: readonly string[], rows: number, width: number, paint: Paint): readonly string[] {
  if (lines.length <= rows) return lines;
  if (rows <= 0) return [];
  const kept = lines.slice(0, rows);
  const last = kept[rows - 1] as string;
  const room = Math.max(0, width - visibleWidth(TRUNCATION_MARKER));
  const fitted = visibleWidth(last) > room ? truncateToWidth(last, room, "") : last;
  kept[rows - 1] = fitted + paint.fg("dim", TRUNCATION_MARKER);
  return kept;
}

/**
 * Lines from `scroll` on in `rows` rows. A marker row says how many lines are above and below,
 * where there are some and there is room for one besides a line (the one below first).
 */
export function scrollWindow(lines: readonly string[], rows: number, scroll: number, paint: Paint): readonly string[] {
  if (lines.length <= rows) return lines;
  if (rows <= 0) return [];
  const top = Math.min(scroll, maxScroll(lines.length, rows));
  const up = top > 0 && rows >= 3;
  const down = top + rows - (up ? 1 : 0) < lines.length && rows >= 2;
  const visible = rows - (up ? 1 : 0) - (down ? 1 : 0);
  const marker = (direction: "up" | "down", count: number) => paint.fg("dim", scrollMarker(direction, count));
  return [
    ...(up ? [marker("up", top)] : []),
    ...lines.slice(top, top + visible),
    ...(down ? [marker("down", lines.length - top - visible)] : []),
  ];
}

/** The last scroll position of a window of `rows` rows over `total` lines: the last line shows, under a marker. */
export const maxScroll = (total: number, rows: number): number => (total <= rows ? 0 : total - (rows >= 3 ? rows - 1 : rows));

/** Lines a page key moves a window of `rows` rows: all it shows but one, at least one. */
export const pageSize = (rows: number): number => Math.max(1, rows - 3);

/** `index` moved `step` places through `count` items, wrapping around at either end. */
export const cycle = (index: number, step: number, count: number): number => (index + step + count) % count;

/**
 * A drawing kept while the width and the key stay the same: the key holds all else it is drawn
 * from (the paint's sample, …), so any change draws it afresh.
 */
export class Drawn<Value> {
  #width = -1;
  #key = "";
  #value: Value | undefined;

  get(width: number, key: string, draw: () => Value): Value {
    if (width !== this.#width || key !== this.#key) {
      this.#value = draw();
      this.#width = width;
      this.#key = key;
    }
    return this.#value as Value;
  }

  /** The next `get` draws afresh (a theme change). */
  forget(): void {
    this.#width = -1;
  }
}

/**
 * A sample of the colours a paint gives: cached drawing is only reused while it matches, so a theme
 * change shows even if no one calls invalidate() (as pi-tui's Box samples its background).
 */
export function paintSample(paint: Paint, tones: readonly Tone[]): string {
  let sample = "";
  for (const tone of tones) sample += paint.fg(tone, "");
  return sample;
}
