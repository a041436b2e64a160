// Drawing shared by the overlays: where they open, a rounded border, and wrapping that never yields zero lines.

import type { Theme } from "@earendil-works/pi-coding-agent";
import { type Component, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import type { Paint } from "./presenter.ts";

const EXACT_MIN_WIDTH = 32;

/** How our overlays open, and where: the prompt and the /permissions list alike. */
export const OVERLAY = {
  overlay: true,
  overlayOptions: { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" },
} as const;

/** A component that draws nothing: what pi is handed where it wants one only to pass us its TUI. */
export const nothingDrawn = (): Component => ({ render: () => [], invalidate() {} });

/**
 * Draws a border around a body, every line exactly `width` columns wide. Rows of the previous
 * frame are reused: between two keys most rows don't change, and measuring them is the cost.
 * They are reused only while the border is painted the same, so a new theme always shows.
 */
export class Frame {
  #width = -1;
  #side = "";
  #body: string[] = [];
  #rows: string[] = [];
  #edges: [top: string, bottom: string] = ["", ""];

  readonly #paint: Paint;

  constructor(paint: Paint) {
    this.#paint = paint;
  }

  invalidate(): void {
    this.#width = -1;
  }

  /**
   * `exact` marks rows already exactly `width - 4` columns wide (pi-tui's Editor pads its own), which
   * need no measuring: measuring an Editor's rule costs more than a keystroke. Below
   * EXACT_MIN_WIDTH the Editor's "↓ N more" rule can overflow, so everything is measured there.
   */
  draw(body: string[], width: number, exact?: { from: number; to: number }): string[] {
    if (width < 4) return body.map((line) => truncateToWidth(line, Math.max(0, width)));
    const side = this.#paint.fg("border", "│");
    const reuse = width === this.#width && side === this.#side;
    const inner = width - 4;
    if (inner < EXACT_MIN_WIDTH) exact = undefined;
    const rows = body.map((line, index) => {
      if (exact && index >= exact.from && index < exact.to) return `${side} ${line} ${side}`;
      return reuse && this.#body[index] === line ? (this.#rows[index] as string) : bordered(line, inner, side);
    });
    if (!reuse) {
      const rule = "─".repeat(width - 2);
      this.#edges = [this.#paint.fg("border", `╭${rule}╮`), this.#paint.fg("border", `╰${rule}╯`)];
    }
    this.#width = width;
    this.#side = side;
    this.#body = body;
    this.#rows = rows;
    return [this.#edges[0], ...rows, this.#edges[1]];
  }
}

function bordered(line: string, inner: number, side: string): string {
  const fitted = fit(line, inner);
  return `${side} ${fitted}${" ".repeat(Math.max(0, inner - visibleWidth(fitted)))} ${side}`;
}

/** truncateToWidth walks a heavily styled line (an Editor border: ~180 µs) even when it fits. */
const fit = (line: string, width: number): string => (visibleWidth(line) > width ? truncateToWidth(line, width) : line);

/** The width inside a frame's sides and their padding. */
export const innerWidth = (width: number): number => Math.max(1, width - 4);

export function wrap(text: string, width: number): string[] {
  const lines = wrapTextWithAnsi(text, width);
  return lines.length ? lines : [""];
}

/** The overlays draw with pi's theme through the presenter's Paint. */
export const paintOf = (theme: Theme): Paint => ({
  fg: (tone, text) => theme.fg(tone, text),
  bold: (text) => theme.bold(text),
});
