// The build: Bun bundles index.ts and lib/ into one ES module (the `@earendil-works/*` imports
// mapped to lib/host.ts by tsconfig.build.json), the modules a start doesn't run move into functions
// run on first use, a group each (defer-modules.ts), then terser and UglifyJS minify Bun's output
// again (about 7 KB less than Bun's minifier alone, and UglifyJS 4 KB less than terser's), and
// repeated strings are declared once (alias-strings.ts), the most used module-level names get the
// shortest (shorten-names.ts); last, the deferred functions' code is taken out as text, and the code
// becomes one string the bundle compiles under pi's loader (code-as-text.ts).
// `bun scripts/build.ts [outfile] [--watch]`.
import { readFileSync, watch } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";
import uglify from "uglify-js";
import { aliasStrings } from "./alias-strings.ts";
import { aliasThis } from "./alias-this.ts";
import { codeAsText } from "./code-as-text.ts";
import { deferModules, extractDeferred } from "./defer-modules.ts";
import { INTERNAL_PROPERTIES, unsafeToRename } from "./internal-properties.ts";
import { shortenNames } from "./shorten-names.ts";

const ROOT = join(import.meta.dir, "..");
// Bun renames and simplifies, and keeps the `// lib/x.ts` comments that defer-modules.ts reads.
const BUN_BUILD =
  "build index.ts --format esm --target node --tsconfig-override tsconfig.build.json --minify-syntax --minify-identifiers".split(
    " ",
  );
/** Modules a start runs none of, in groups each compiled when first used (defer-modules.ts). */
const DEFERRED_MODULES = [
  // The prompt and /permissions: when the Approver is first asked, or first types the command.
  [
    "lib/prompt-overlay.ts",
    "lib/edit-mode.ts",
    "lib/layout.ts",
    "lib/visible-typing.ts",
    "lib/external-editor.ts",
    "lib/permissions-overlay.ts",
    "lib/rpc-prompt.ts",
    "lib/scaffold.ts",
    "lib/permissions-command.ts",
    "lib/permissions-run.ts",
    "lib/show-prompt.ts",
    "lib/frame.ts",
    "lib/keys.ts",
  ],
  // The shell parser: when a hook first reads `tool.commands`, or a rule or grant is matched.
  ["lib/shell-words.ts", "lib/shell-scan.ts", "lib/shell-parse.ts", "lib/shell-command.ts"],
  // Rules: when a rule file loads, or the branch has a grant.
  ["lib/rules-grammar.ts", "lib/rules-match.ts", "lib/rules-file.ts"],
];
const [outfile = join(ROOT, "dist/hooks.js")] = process.argv.slice(2).filter((arg) => arg !== "--watch");

async function build(): Promise<void> {
  const bundled = Bun.spawnSync([process.execPath, ...BUN_BUILD], { cwd: ROOT, stderr: "inherit" });
  if (bundled.exitCode !== 0) throw new Error(`bun build exited with ${bundled.exitCode}`);
  // unsafe_arrows turns function expressions that don't use `this` into arrows; no code of ours
  // calls a function expression with `new` or reads its prototype. unsafe_proto writes
  // `Object.prototype.toString` as `{}.toString`: the same function, from a fresh object's prototype.
  const bundle = deferModules(bundled.stdout.toString(), DEFERRED_MODULES);
  const unsafe = unsafeToRename(bundle, readFileSync(join(ROOT, "lib/api.ts"), "utf8"));
  if (unsafe.length > 0) throw new Error(`named in the Author API or a text, so not renamed safely: ${unsafe.join(", ")}`);
  const { code } = await minify(bundle, {
    module: true,
    ecma: 2022,
    // The deferred modules' function is marked with `debugger` (defer-modules.ts).
    compress: { passes: 3, unsafe_arrows: true, unsafe_proto: true, drop_debugger: false },
    // builtins: terser keeps names a DOM object has (`state`, `construct`) even when listed; ours are ours.
    mangle: { properties: { regex: new RegExp(`^(?:${INTERNAL_PROPERTIES.join("|")})$`), builtins: true } },
  });
  // UglifyJS declares with `var` where no closure or TDZ can tell the difference, and folds more
  // statements into expressions.
  // A second run finds a little more to fold in the first one's output.
  // unsafe takes the built-ins as they are: `charCodeAt(i) === 45` compared with `==`, `RegExp`
  // called without `new`, `Boolean(x)` as `!!x`, and `String(x)` as `"" + x`, so printable() calls
  // String through `call` (lib/failure.ts). pure_getters: no property read of ours throws, its
  // object is never null where TypeScript says so, and reads move to where their value is used.
  const compress = { passes: 3, unsafe: true, pure_getters: true, hoist_funs: true, drop_debugger: false };
  let uglified = code ?? "";
  for (let run = 0; run < 2; run++) {
    const { code, error } = uglify.minify(uglified, { module: true, toplevel: true, compress });
    if (error) throw error;
    uglified = code;
  }
  const { code: main, deferred } = extractDeferred(shortenNames(aliasStrings(aliasThis(uglified))));
  const bytes = await Bun.write(outfile, codeAsText(main, deferred));
  console.log(`built ${outfile}: ${bytes} bytes`);
}

await build();
if (process.argv.includes("--watch")) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const rebuild = () => {
    clearTimeout(timer);
    timer = setTimeout(() => build().catch(console.error), 100);
  };
  for (const path of ["index.ts", "lib"]) watch(join(ROOT, path), rebuild);
}
