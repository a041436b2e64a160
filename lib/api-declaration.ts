// A Bun macro (imported `with { type: "macro" }`): it runs when the bundle is built, and the bundle
// holds only its result, lib/api.ts gzipped as base64, about half the size of the text.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export function packedApiDeclaration(): string {
  return gzipSync(readFileSync(new URL("./api.ts", import.meta.url)), { level: 9 }).toString("base64");
}
