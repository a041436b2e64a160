// Under Bun, a permission module that imports nothing but Node's built-ins (and types) is imported
// by Bun itself rather than through pi's loader: Bun compiles TypeScript natively, where pi's loader
// (jiti) transforms each file first, which at start-up cost about half a millisecond a module. A
// module that imports anything else, or may (`require`, `import()`), goes through pi's loader, which
// resolves packages the way pi set up (docs/pi-resolution.md); so does a CommonJS one.
// Not under Node: its type stripping took 40 ms to start, and its vm's import warns before 22.2x.
import { runInThisContext, vmConstants } from "./node.ts";

/**
 * What keeps a module from loading natively: the word `import` where it may start an import (before a
 * name, a parenthesis, a quote, a brace or a star: not `import.meta`, nor the word in a pattern such
 * as `/up|import/`) unless of types only or of a Node built-in (the names, braces and commas of a
 * static import, then `"node:`); `require`; a re-export; CommonJS's `exports`. A comment saying
 * "import the" reads as an import, which only costs the native import.
 */
const NOT_NATIVE = /\bimport\b(?=\s*[\w$("'{*])(?!\s+type\s+(?!from\b)|[\w$\s{},*]*["']node:)|\brequire|\bexport(s|\s*[*{])/;

/** Whether Bun may import a module with this source natively: one that imports only built-ins and types. */
export const importsOnlyBuiltins = (source: string): boolean => !NOT_NATIVE.test(source);

let nativeImport: ((specifier: string) => Promise<unknown>) | undefined;

/** Bun's own `import()`, which the bundle's code has not (code-as-text.ts gives it pi's loader's). */
export function importNatively(specifier: string): Promise<unknown> {
  nativeImport ??= runInThisContext("s=>import(s)", {
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }) as (specifier: string) => Promise<unknown>;
  return nativeImport(specifier);
}
