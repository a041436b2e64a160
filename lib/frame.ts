// Drawing shared by the overlays: a rounded border, and wrapping that never yields zero lines.
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import type { Paint } from "./presenter.ts";

/** A border around the body, every line exactly `width` columns wide. */
export function frame(body: string[], width: number, paint: Paint): string[] {
  if (width < 4) return body.map((line) => truncateToWidth(line, Math.max(0, width)));
  const inner = width - 4;
  const edge = (text: string) => paint.fg("border", text);
  const top = edge(`╭${"─".repeat(width - 2)}╮`);
  const bottom = edge(`╰${"─".repeat(width - 2)}╯`);
  const side = edge("│");
  const rows = body.map((line) => {
    const fitted = fit(line, inner);
    return `${side} ${fitted}${" ".repeat(Math.max(0, inner - visibleWidth(fitted)))} ${side}`;
  });
  return [top, ...rows, bottom];
}

/** truncateToWidth walks a heavily styled line (an Editor border: ~180 µs) even when it fits. */
function fit(line: string, width: number): string {
  return visibleWidth(line) > width ? truncateToWidth(line, width) : line;
}

export function wrap(text: string, width: number): string[] {
  const lines = wrapTextWithAnsi(text, width);
  return lines.length > 0 ? lines : [""];
}
