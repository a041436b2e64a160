// A Bun macro (imported `with { type: "macro" }`): it runs when the bundle is built, and the bundle
// holds only its result: lib/api.ts and the module template, compressed with Brotli and written as a
// number in base 93, about 37% of the texts' size.
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

/**
 * The digits: the printable ASCII characters but `"` and `\`, the two a string literal would escape.
 * Each carries 6.5 bits, where a base64 character carries 6. scaffold.ts reads them back.
 */
const DIGITS = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)).filter(
  (digit) => digit !== '"' && digit !== "\\",
);

/** The declaration, a NUL, then `template`, packed. */
export function packedWithDeclaration(template: string): string {
  const text = `${readFileSync(new URL("./api.ts", import.meta.url), "utf8")}\0${template}`;
  const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };
  // A 1 before the bytes: their leading zeros would be lost from the number.
  let number = BigInt(`0x01${brotliCompressSync(text, { params }).toString("hex")}`);
  const digits: string[] = [];
  for (; number > 0n; number /= 93n) digits.push(DIGITS[Number(number % 93n)] as string);
  return digits.reverse().join("");
}
