import { decodeKittyPrintable } from "@earendil-works/pi-tui";
import { toVisible } from "./visible.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const PRINTABLE = /^[^\x00-\x1f\x7f]+$/;
const ZWJ = "\u200d";
const ENDS_IN_HIGH_SURROGATE = /[\ud800-\udbff]$/;
const ENDS_IN_PICTOGRAPH = /\p{Extended_Pictographic}\ufe0f?$/u;

/**
 * Rewrites what the Approver types or pastes into a field so that invisible and control
 * characters arrive as notation (see visible.ts), like those of the agent's command do. Keys pass
 * through. pi hands over a character outside the BMP one UTF-16 unit at a time, and a joiner means
 * nothing until the character after it arrives, so those wait for the next input.
 * What the field should get is handed to `hand`, in order.
 */
export class VisibleTyping {
  #pending = "";
  /** The last character handed over as typed, as context for what follows it. */
  #previous = "";

  rewrite(data: string, hand: (part: string) => void): void {
    if (!this.#pending && data.length === 1 && data >= " " && data <= "~") {
      this.#previous = data;
      return hand(data);
    }
    if (data.includes(PASTE_START)) {
      this.#flush(hand);
      return hand(rewritePastes(data));
    }
    const printable = decodeKittyPrintable(data) ?? (PRINTABLE.test(data) ? data : undefined);
    if (printable === undefined) {
      this.#flush(hand);
      return hand(data);
    }
    const text = this.#pending + printable;
    this.#pending = "";
    if (
      ENDS_IN_HIGH_SURROGATE.test(text) ||
      (text.endsWith(ZWJ) && ENDS_IN_PICTOGRAPH.test(this.#previous + text.slice(0, -1)))
    ) {
      this.#pending = text;
      return;
    }
    const visible = toVisible(this.#previous + text).slice(this.#previous.length);
    this.#previous = visible === text ? lastCharacter(text) : "";
    hand(visible === text ? text : asPaste(visible));
  }

  /** What waited is handed over as it stands: a lone half or a joiner that joined nothing. */
  #flush(hand: (part: string) => void): void {
    this.#previous = "";
    if (!this.#pending) return;
    const waiting = this.#pending;
    this.#pending = "";
    hand(asPaste(toVisible(waiting)));
  }
}

const rewritePastes = (data: string): string =>
  data.replace(/\x1b\[200~([\s\S]*?)\x1b\[201~/g, (_match, content: string) =>
    asPaste(toVisible(content.replace(/\r\n?/g, "\n"))),
  );

const asPaste = (text: string): string => `${PASTE_START}${text}${PASTE_END}`;

const lastCharacter = (text: string): string => Array.from(text).at(-1) ?? "";
