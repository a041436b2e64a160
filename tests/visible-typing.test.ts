import { describe, expect, test } from "bun:test";
import { VisibleTyping } from "../lib/visible-typing.ts";

const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

/** Feeds inputs one by one, as pi's TUI hands them over, and collects what reaches the field. */
function typed(...inputs: string[]): string[] {
  const typing = new VisibleTyping();
  const handed: string[] = [];
  for (const input of inputs) typing.rewrite(input, (part) => handed.push(part));
  return handed;
}

describe("typing into a field", () => {
  test("plain characters and keys pass through untouched", () => {
    expect(typed("a", "é", "漢", "\x1b[A", "\r", "\x7f", "\x0b")).toEqual(["a", "é", "漢", "\x1b[A", "\r", "\x7f", "\x0b"]);
  });

  test("an invisible or bidi character arrives as notation", () => {
    expect(typed("\u202e", "\u200b", "\u00a0")).toEqual([paste("⟨U+202E⟩"), paste("⟨U+200B⟩"), paste("⟨U+00A0⟩")]);
  });

  test("blanks that look like spaces arrive as notation: Ogham space mark, Braille blank", () => {
    expect(typed("\u1680", "\u2800", "\x1b[10240u")).toEqual([paste("⟨U+1680⟩"), paste("⟨U+2800⟩"), paste("⟨U+2800⟩")]);
  });

  test("a kitty-encoded bidi override arrives as notation; a kitty-encoded letter as the letter", () => {
    expect(typed("\x1b[8238u", "\x1b[97u")).toEqual([paste("⟨U+202E⟩"), "a"]);
  });

  test("an emoji handed over in two halves arrives whole", () => {
    expect(typed("\ud83d", "\ude00")).toEqual(["😀"]);
  });

  test("a family emoji typed unit by unit arrives as the emoji, joiners and all", () => {
    const units = [..."👨‍👩‍👧"].flatMap((char) => char.split(""));
    expect(typed(...units).join("")).toBe("👨‍👩‍👧");
  });

  test("a heart with its presentation selector stays a heart", () => {
    expect(typed("❤", "\ufe0f").join("")).toBe("❤\ufe0f");
  });

  test("a joiner that joins nothing is shown", () => {
    expect(typed("x", "\u200d", "y")).toEqual(["x", paste("⟨U+200D⟩"), "y"]);
    expect(typed("😀", "\u200d", "y")).toEqual(["😀", paste("⟨U+200D⟩y")]);
  });

  test("a half left waiting is shown when a key comes instead", () => {
    expect(typed("\ud83d", "\x1b[A")).toEqual([paste("⟨U+D83D⟩"), "\x1b[A"]);
  });

  test("pastes: controls and invisibles become notation, CRLF a newline, tabs stay tabs as notation", () => {
    expect(typed(paste("a\u202eb\r\nc\td\x1b[31m"))).toEqual([paste("a⟨U+202E⟩b\nc⟨TAB⟩d⟨ESC⟩[31m")]);
  });
});
