import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const committed = readFileSync(join(root, "dist/hooks.js"), "utf8");

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

test("the bundle takes only Node built-ins itself; pi's packages only through pi's extension loader", () => {
  expect(committed).not.toMatch(/\bimport\s*[\w${*"']/);
  expect(committed).not.toMatch(/\brequire\(/);
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
