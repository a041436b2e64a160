import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { parse, tokenizer } from "acorn";
import { visit } from "../scripts/alias-strings.ts";

const root = join(import.meta.dir, "..");
const committed = readFileSync(join(root, "dist/hooks.js"), "utf8");
/** The code compiled on first use (scripts/defer-modules.ts), which the bundle keeps compressed: one text a group. */
const deferred = (() => {
  const [, list = ""] =
    /"node:zlib"\)\.brotliDecompressSync\(Buffer\.from\(\[([^\]]*)\]\[i\],"base64"\)\)\)\(\)\)$/.exec(committed) ?? [];
  return (JSON.parse(`[${list}]`) as string[]).map((encoded) => brotliDecompressSync(Buffer.from(encoded, "base64")).toString());
})();

test("dist/hooks.js equals a fresh build of the source", () => {
  const out = mkdtempSync(join(tmpdir(), "bundle-check-"));
  try {
    const script = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.build as string;
    expect(script).toBe("bun scripts/build.ts");
    const build = Bun.spawnSync([process.execPath, "scripts/build.ts", join(out, "hooks.js")], { cwd: root, stderr: "pipe" });
    expect(build.exitCode).toBe(0);
    const fresh = readFileSync(join(out, "hooks.js"), "utf8");
    // A mismatch means: run `bun run build` and commit dist/hooks.js.
    expect(fresh === committed).toBe(true);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the code compiled on first use is kept apart, compressed: the prompt's and /permissions', the shell parser's, the rules'", () => {
  const parts = deferred.map((code) =>
    code.includes("HOOK_NAME") ? "ui" : code.includes("abeEfnrtv") ? "parser" : code.includes("mcp__") ? "rules" : code,
  );
  expect(parts.sort()).toEqual(["parser", "rules", "ui"]);
  for (const code of deferred) expect(code).toStartWith('"use strict";return(');
});

/** The code pi's loader runs: the one string the bundle compiles (scripts/code-as-text.ts). */
const compiled = (() => {
  let code = "";
  visit(parse(committed, { ecmaVersion: "latest", sourceType: "module" }), null, (node) => {
    if (node.type === "Literal" && "value" in node && typeof node.value === "string" && node.value.startsWith("(function("))
      code = node.value;
  });
  return code;
})();

/**
 * `import` and `require(` as code, not inside a string, template or comment. Code the bundle compiles
 * from a string at run time is not seen: lib/native-import.ts's `s=>import(s)`, which imports
 * permission modules, is the one such string.
 */
function loads(code: string): string[] {
  const tokens = [...tokenizer(code, { ecmaVersion: "latest", allowReturnOutsideFunction: true })];
  return tokens.flatMap((token, at) =>
    token.type.keyword === "import" || (code.slice(token.start, token.end) === "require" && tokens[at + 1]?.type.label === "(")
      ? [code.slice(token.start, token.start + 40)]
      : [],
  );
}

test("the bundle takes only Node built-ins itself; pi's packages only through pi's extension loader", () => {
  expect(compiled.length).toBeGreaterThan(10_000);
  expect(deferred).toHaveLength(3);
  for (const code of [committed, compiled, ...deferred]) expect(loads(code)).toEqual([]);
  // The check reads code: a text that says `import` is not one.
  expect(loads('x("import a from b"); y(`require(a)`); // import c')).toEqual([]);
  expect(loads("import('a'); require('b')")).toHaveLength(2);
  for (const code of deferred) expect(code).not.toContain("@earendil-works/");
  const builtins = [...committed.matchAll(/[\w$]+\("(node:[\w/]+)"\)/g)].map((match) => match[1] ?? "");
  expect(builtins.length).toBeGreaterThan(0);
  expect(builtins.filter((name) => !builtinModules.includes(name.slice("node:".length)))).toEqual([]);
  // Minified, the loader's import function has another name: what counts is that every mention of a pi
  // package is an argument to it.
  const mentions = committed.match(/@earendil-works\/[\w-]+/g);
  const loaded = [...committed.matchAll(/\b[\w$]+\("(@earendil-works\/[\w-]+)"\)/g)].map((match) => match[1]);
  expect(mentions).toEqual(["@earendil-works/pi-tui", "@earendil-works/pi-coding-agent"]);
  expect(loaded).toEqual(["@earendil-works/pi-tui", "@earendil-works/pi-coding-agent"]);
});

test("imported natively, the bundle fails before it resolves anything", async () => {
  await expect(import(join(root, "dist/hooks.js"))).rejects.toThrow(
    "pi-permission-hooks must be loaded by pi's extension loader",
  );
});
