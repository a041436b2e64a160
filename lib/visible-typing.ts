import { decodeKittyPrintable } from "@earendil-works/pi-tui";
import { toVisible } from "./visible.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Rewrites what the Approver types or pastes into a field so that invisible and control
 * characters arrive as notation (see visible.ts), like those of the agent's command do.
 * Keys pass through untouched; one instance per input stream, since pastes span chunks.
 */
export class VisibleTyping {
  private inPaste = false;

  rewrite(data: string): string {
    if (this.inPaste || data.includes(PASTE_START)) return this.rewritePaste(data);
    const printable = decodeKittyPrintable(data) ?? (/^[^\x00-\x1f\x7f]+$/.test(data) ? data : undefined);
    if (printable === undefined) return data;
    const visible = toVisible(printable);
    return visible === printable ? data : `${PASTE_START}${visible}${PASTE_END}`;
  }

  private rewritePaste(data: string): string {
    let out = "";
    let rest = data;
    while (rest !== "") {
      if (!this.inPaste) {
        const start = rest.indexOf(PASTE_START);
        if (start === -1) return out + rest;
        out += rest.slice(0, start + PASTE_START.length);
        rest = rest.slice(start + PASTE_START.length);
        this.inPaste = true;
        continue;
      }
      const end = rest.indexOf(PASTE_END);
      const content = end === -1 ? rest : rest.slice(0, end);
      out += toVisible(content.replace(/\r\n?/g, "\n"));
      if (end === -1) return out;
      out += PASTE_END;
      rest = rest.slice(end + PASTE_END.length);
      this.inPaste = false;
    }
    return out;
  }
}
