// A Bun macro (imported `with { type: "macro" }`): it runs when the bundle is built, and the bundle
// holds only its result, the text of lib/api.ts, which the build's text table then compresses with
// the bundle's other texts (scripts/pack-texts.ts).
import { readFileSync } from "node:fs";

/**
 * lib/api.ts as it is when the bundle is built, without our linter's directives: the declaration
 * `/permissions new` writes.
 */
export const apiDeclaration = (): string =>
  readFileSync(new URL("./api.ts", import.meta.url), "utf8").replace(/^ *\/\/ biome-ignore .*\n/gm, "");
