// The Author's side of the types: the package's declaration alone, laid out as `pi install` lays
// it out, checks the README's modules and the examples with the README's tsconfig, and with the
// strictest options an Author may turn on.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const MANIFEST = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { types: string; files: string[] };
const TYPES = MANIFEST.types.replace(/^\.\//, "");
const TEMP = mkdtempSync(join(tmpdir(), "pph-author-types-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

/** The fenced blocks of a language in the README, in order. */
function blocks(language: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((match) => match[1] ?? "");
}

/** A README snippet as a module: fragments that use `api` go inside a default export. */
function asModule(block: string): string {
  if (block.includes("export default")) return block;
  return `import type { PermissionsAPI } from "pi-permission-hooks";\n\nexport default function (api: PermissionsAPI) {\n${block}}\n`;
}

let agents = 0;
/**
 * An agent dir as pi leaves it after `pi install npm:pi-permission-hooks`: the package (its
 * manifest and declaration only) under npm/node_modules, and these files in permissions/.
 */
function agentDir(files: Record<string, string>): string {
  const dir = join(TEMP, `agent-${++agents}`);
  const installed = join(dir, "npm", "node_modules", "pi-permission-hooks");
  mkdirSync(dirname(join(installed, TYPES)), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(installed, "package.json"));
  cpSync(join(ROOT, TYPES), join(installed, TYPES));
  mkdirSync(join(dir, "permissions"));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, "permissions", name), source);
  return dir;
}

/** tsc's report on a project: empty when it type-checks. */
function typeCheck(project: string): string {
  const run = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", project], { stdout: "pipe", stderr: "pipe" });
  const report = `${run.stdout.toString()}${run.stderr.toString()}`;
  return run.exitCode === 0 ? report : report || `tsc exited with ${run.exitCode}`;
}

const README_TSCONFIG = blocks("json").find((block) => block.includes('"pi-permission-hooks"')) ?? "";
/** The README's permission modules and snippets of them; its other ts blocks are code for pi extensions. */
const README_MODULES = Object.fromEntries(
  blocks("ts")
    .filter((block) => block.includes("api."))
    .map((block, index) => [`readme-${index}.ts`, asModule(block)]),
);
const EXAMPLES = Object.fromEntries(
  readdirSync(join(ROOT, "examples"))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => [name, readFileSync(join(ROOT, "examples", name), "utf8")]),
);

describe("the package's types, as an Author has them", () => {
  test("the declaration is published, and imports nothing (neither pi nor the extension's internals)", () => {
    expect(MANIFEST.files.some((entry) => TYPES === entry || TYPES.startsWith(`${entry}/`))).toBe(true);
    expect(readFileSync(join(ROOT, TYPES), "utf8")).not.toMatch(/^\s*(import|export)\b[^;]*\bfrom\s/m);
  });

  test("every ts block of the README type-checks with the README's tsconfig: 0 errors", () => {
    expect(README_TSCONFIG).toContain('"strict": true');
    expect(Object.keys(README_MODULES).length).toBeGreaterThanOrEqual(5);
    expect(README_MODULES["readme-0.ts"]).toContain('import type { PermissionsAPI } from "pi-permission-hooks"');
    const dir = agentDir({ "tsconfig.json": README_TSCONFIG, ...README_MODULES });
    expect(typeCheck(join(dir, "permissions"))).toBe("");
  });

  test("a type error in a module is reported, so the check above can fail", () => {
    const broken = { "broken.ts": README_MODULES["readme-0.ts"]?.replace("programName", "programNam") ?? "" };
    const dir = agentDir({ "tsconfig.json": README_TSCONFIG, ...broken });
    expect(typeCheck(join(dir, "permissions"))).toContain("broken.ts");
  });

  test("the examples, which import Node built-ins, type-check with @types/node above the folder", () => {
    const dir = agentDir({ "tsconfig.json": README_TSCONFIG, ...EXAMPLES });
    mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"));
    expect(typeCheck(join(dir, "permissions"))).toBe("");
  });

  test("with the strictest options and bundler resolution, the declaration adds no error", () => {
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        noEmit: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noPropertyAccessFromIndexSignature: true,
        noImplicitOverride: true,
        noImplicitReturns: false,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        paths: { "pi-permission-hooks": ["../npm/node_modules/pi-permission-hooks"] },
      },
    };
    const dir = agentDir({ "tsconfig.json": JSON.stringify(tsconfig), ...README_MODULES });
    expect(typeCheck(join(dir, "permissions"))).toBe("");
  });

  test("no README, example or design text narrows a tool with an `in` check", () => {
    const texts = [README, ...Object.values(EXAMPLES), readFileSync(join(ROOT, "docs", "design.md"), "utf8")];
    for (const text of texts) expect(text).not.toMatch(/["']command["']\s+in\s/);
  });
});
