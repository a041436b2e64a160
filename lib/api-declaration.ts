// A Bun macro (imported `with { type: "macro" }`): it runs when the bundle is built, and the bundle
// holds only its result, the text of lib/api.ts, in the deferred code of /permissions (compressed
// with it: scripts/code-as-text.ts).
import { readFileSync } from "node:fs";

/**
 * lib/api.ts as it is when the bundle is built, without our linter's directives: the declaration
 * `/permissions new` writes.
 */
export const apiDeclaration = (): string =>
  readFileSync(new URL("./api.ts", import.meta.url), "utf8").replace(/^ *\/\/ biome-ignore .*\n/gm, "");
