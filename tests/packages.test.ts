import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadPermissionModules } from "../lib/loader.ts";
import { applyPatterns, type InstalledPackage, installedPackages, packagePermissions } from "../lib/packages.ts";
import { notifyLoadError, packageProblems, promptHookScope } from "../lib/presenter.ts";
import { piSettings } from "../lib/settings.ts";

const TEMP = mkdtempSync(join(tmpdir(), "pph-packages-"));
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
afterAll(() => {
  process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  rmSync(TEMP, { recursive: true, force: true });
});

let count = 0;
let agentDir: string;
let cwd: string;
beforeEach(() => {
  const sandbox = join(TEMP, `sandbox-${++count}`);
  agentDir = join(sandbox, "agent");
  cwd = join(sandbox, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  process.env.PI_CODING_AGENT_DIR = agentDir;
});

function write(files: Record<string, string>, base: string): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(base, name)), { recursive: true });
    writeFileSync(join(base, name), content);
  }
}

/** A package folder in the sandbox holding the files, with `pi` as its manifest's `pi` key (none: no package.json). */
function pkg(name: string, files: Record<string, string>, pi?: unknown): string {
  const root = join(dirname(agentDir), name);
  mkdirSync(root, { recursive: true });
  write(files, root);
  if (pi !== undefined) write({ "package.json": JSON.stringify({ name, pi }) }, root);
  return root;
}

function hookModule(name: string): string {
  return `export default (api) => api.onToolUse({ name: ${JSON.stringify(name)}, handler: () => api.request() });\n`;
}

const RULES = JSON.stringify({ permissions: { ask: ["Bash(git push:*)"] } });

function installed(root: string, filter?: string[]): InstalledPackage {
  return filter === undefined ? { source: root, root } : { source: root, root, filter };
}

const relativeFiles = (root: string, files: string[]) => files.map((file) => file.slice(root.length + 1));

describe("what a package provides", () => {
  test("by convention: the top-level module and rule files of permissions/, in name order", () => {
    const root = pkg("conv", {
      "permissions/b.ts": hookModule("b"),
      "permissions/a.json": RULES,
      "permissions/types.d.ts": "",
      "permissions/tsconfig.json": "{}",
      "permissions/nested/c.ts": hookModule("c"),
      "extensions/x.ts": "",
    });
    const found = packagePermissions(installed(root));
    expect(relativeFiles(root, found.files)).toEqual(["permissions/a.json", "permissions/b.ts"]);
    expect(found.errors).toEqual([]);
  });

  test("a manifest without pi.permissions still has the permissions/ folder", () => {
    const root = pkg("manifest-others", { "permissions/a.ts": hookModule("a") }, { extensions: ["./ext.ts"] });
    expect(relativeFiles(root, packagePermissions(installed(root)).files)).toEqual(["permissions/a.ts"]);
  });

  test("pi.permissions: files, folders and globs in the order listed; ! excludes; the permissions/ folder is not looked at", () => {
    const root = pkg(
      "manifest",
      {
        "gates/z.ts": hookModule("z"),
        "gates/old.ts": hookModule("old"),
        "rules/one.json": RULES,
        "rules/two.json": RULES,
        "lone.mjs": hookModule("lone"),
        "permissions/ignored.ts": hookModule("ignored"),
      },
      { permissions: ["./lone.mjs", "gates", "rules/*.json", "!**/old.ts"] },
    );
    const found = packagePermissions(installed(root));
    expect(relativeFiles(root, found.files)).toEqual(["lone.mjs", "gates/z.ts", "rules/one.json", "rules/two.json"]);
    expect(found.errors).toEqual([]);
  });

  test("an empty pi.permissions provides nothing", () => {
    const root = pkg("manifest-empty", { "permissions/a.ts": hookModule("a") }, { permissions: [] });
    expect(packagePermissions(installed(root)).files).toEqual([]);
  });

  test("a path the manifest lists that is not there, or a manifest value that is not a list, is an error of package.json", () => {
    const missing = pkg("manifest-missing", { "a.ts": hookModule("a") }, { permissions: ["a.ts", "gone.ts", "none/*.ts"] });
    const found = packagePermissions(installed(missing));
    expect(relativeFiles(missing, found.files)).toEqual(["a.ts"]);
    expect(found.errors).toEqual([
      { file: join(missing, "package.json"), error: packageProblems.notFound("gone.ts") },
      { file: join(missing, "package.json"), error: packageProblems.notFound("none/*.ts") },
    ]);
    const wrong = pkg("manifest-wrong", {}, { permissions: "a.ts" });
    expect(packagePermissions(installed(wrong)).errors).toEqual([
      { file: join(wrong, "package.json"), error: packageProblems.manifestNotList },
    ]);
    expect(notifyLoadError("/p/package.json", packageProblems.manifestNotList)).toBe(
      'Package manifest /p/package.json failed to load: its "pi.permissions" is not a list of paths',
    );
  });
});

describe("the settings entry's filter, as pi filters a package's other resources", () => {
  const files = { "permissions/a.ts": hookModule("a"), "permissions/b.ts": hookModule("b"), "permissions/c.json": RULES };

  test("[] turns them all off", () => {
    const root = pkg("filter-none", files);
    expect(packagePermissions(installed(root, [])).files).toEqual([]);
  });

  test("globs include (by path from the package root or by name), ! excludes", () => {
    const root = pkg("filter-globs", files);
    expect(relativeFiles(root, packagePermissions(installed(root, ["permissions/*.ts"])).files)).toEqual([
      "permissions/a.ts",
      "permissions/b.ts",
    ]);
    expect(relativeFiles(root, packagePermissions(installed(root, ["*.json"])).files)).toEqual(["permissions/c.json"]);
    expect(relativeFiles(root, packagePermissions(installed(root, ["!permissions/b.ts"])).files)).toEqual([
      "permissions/a.ts",
      "permissions/c.json",
    ]);
  });

  test("+path adds back an exact path, -path removes one even when included", () => {
    const root = pkg("filter-exact", files);
    expect(relativeFiles(root, packagePermissions(installed(root, ["!*.ts", "+permissions/b.ts"])).files)).toEqual([
      "permissions/b.ts",
      "permissions/c.json",
    ]);
    expect(relativeFiles(root, packagePermissions(installed(root, ["-./permissions/a.ts"])).files)).toEqual([
      "permissions/b.ts",
      "permissions/c.json",
    ]);
  });

  test("a filter narrows what the package provides and can't add to it", () => {
    const root = pkg("filter-narrow", { ...files, "other/d.ts": hookModule("d") });
    expect(packagePermissions(installed(root, ["+other/d.ts"])).files).not.toContain(join(root, "other/d.ts"));
  });

  test("applyPatterns keeps the order of the files", () => {
    expect(applyPatterns(["/r/b.ts", "/r/a.ts", "/r/c.ts"], ["!a.ts", "+a.ts"], "/r")).toEqual(["/r/b.ts", "/r/a.ts", "/r/c.ts"]);
  });
});

describe("which packages: pi's settings and package manager", () => {
  function settings(file: string, packages: unknown[]): void {
    write({ [file]: JSON.stringify({ packages }) }, "/");
  }

  test("the project's packages first, then the user's; local paths resolve from their settings file; filters come along", () => {
    const user = pkg("user-pkg", { "permissions/u.ts": hookModule("u") });
    const project = pkg("project-pkg", { "permissions/p.ts": hookModule("p") });
    settings(join(agentDir, "settings.json"), ["../user-pkg", "../not-installed"]);
    settings(join(cwd, ".pi/settings.json"), [{ source: "../../project-pkg", permissions: ["p.ts"] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([
      { source: "../../project-pkg", root: project, filter: ["p.ts"] },
      { source: "../user-pkg", root: user },
    ]);
  });

  test("in a project pi doesn't trust, only the user's", () => {
    const user = pkg("user-only", {});
    settings(join(agentDir, "settings.json"), [user]);
    settings(join(cwd, ".pi/settings.json"), [pkg("project-only", {})]);
    expect(installedPackages(cwd, piSettings(cwd, false))).toEqual([{ source: user, root: user }]);
  });

  test("a package in both scopes loads once, as the project lists it", () => {
    const both = pkg("both", {});
    settings(join(agentDir, "settings.json"), [both]);
    settings(join(cwd, ".pi/settings.json"), [{ source: both, permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: both, root: both, filter: [] }]);
  });

  test("an npm package installed for the user and for the project is one package", () => {
    write({ "npm/node_modules/tools/package.json": "{}" }, agentDir);
    write({ ".pi/npm/node_modules/tools/package.json": "{}" }, cwd);
    settings(join(agentDir, "settings.json"), ["npm:tools"]);
    settings(join(cwd, ".pi/settings.json"), ["npm:tools@1.0.0"]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([
      { source: "npm:tools@1.0.0", root: join(cwd, ".pi/npm/node_modules/tools") },
    ]);
  });

  test("during a session start, from the settings it read for everything (one read of each file)", () => {
    const before = pkg("listed-at-start", {});
    settings(join(agentDir, "settings.json"), [before]);
    settings(join(cwd, ".pi/settings.json"), []);
    const read = piSettings(cwd, true);
    read();
    settings(join(agentDir, "settings.json"), [pkg("listed-later", {})]);
    expect(installedPackages(cwd, read)).toEqual([{ source: before, root: before }]);
  });

  test("a filter that is not a list narrows nothing", () => {
    const root = pkg("bad-filter", {});
    settings(join(agentDir, "settings.json"), [{ source: root, permissions: "none" }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: root, root }]);
  });
});

describe("loading: after the project's and the user's, scoped by the package", () => {
  test("order, scope and permissionRoot; a package's manifest errors are load errors", async () => {
    const user = join(agentDir, "permissions");
    const project = join(cwd, ".pi/permissions");
    write({ "a.ts": hookModule("user hook") }, user);
    write({ "z.ts": hookModule("project hook") }, project);
    const first = pkg("first", { "permissions/0.ts": hookModule("first package hook") });
    const second = pkg("second", { "0.json": RULES }, { permissions: ["0.json", "gone.ts"] });
    const result = await loadPermissionModules({
      project,
      user,
      packages: [
        packagePermissions({ source: "npm:first", root: first }),
        packagePermissions({ source: "../second", root: second }),
      ],
    });
    expect(result.hooks.map(({ name, scope, permissionRoot }) => ({ name, scope, permissionRoot }))).toEqual([
      { name: "project hook", scope: "project", permissionRoot: project },
      { name: "user hook", scope: "user", permissionRoot: user },
      { name: "first package hook", scope: "package:npm:first", permissionRoot: first },
      { name: "0.json", scope: "package:../second", permissionRoot: second },
    ]);
    expect(result.errors).toEqual([{ file: join(second, "package.json"), error: packageProblems.notFound("gone.ts") }]);
  });

  test("a package module that fails to load is an error naming its file, and adds no hook", async () => {
    const root = pkg("broken", { "permissions/bad.ts": "export default 42;\n", "permissions/good.ts": hookModule("good") });
    const result = await loadPermissionModules({
      user: join(agentDir, "permissions"),
      packages: [packagePermissions(installed(root))],
    });
    expect(result.hooks.map((hook) => hook.name)).toEqual(["good"]);
    expect(result.errors.map((error) => error.file)).toEqual([join(root, "permissions/bad.ts")]);
  });
});

test("the prompt names a package's hook's package, and nothing for the user's and the project's", () => {
  expect(promptHookScope("package:npm:deploy-tools")).toBe("From the pi package npm:deploy-tools.");
  expect(promptHookScope("user")).toBeUndefined();
  expect(promptHookScope("project")).toBeUndefined();
});
