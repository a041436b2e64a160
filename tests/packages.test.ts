import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Enablement } from "../lib/enablement.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import { loadPermissionModules } from "../lib/loader.ts";
import { applyPatterns, type InstalledPackage, installedPackages, packagePermissions } from "../lib/packages.ts";
import { agentHookBlock, notifyLoadError, notifyLoadErrorKept, packageProblems, promptHookScope } from "../lib/presenter.ts";
import { piSettings } from "../lib/settings.ts";
import { bashCall, fakeApprover, fakeSession } from "./support/fake-session.ts";

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

function blockingModule(name: string, reason: string): string {
  return `export default (api) => api.onToolUse({ name: ${JSON.stringify(name)}, handler: () => api.block(${JSON.stringify(reason)}) });\n`;
}

/** What JSON.parse says about `text`, in this runtime's words. */
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("valid JSON");
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
    expect(packagePermissions(installed(wrong)).manifestFailed).toBe(true);
    expect(found.manifestFailed).toBeUndefined();
    expect(notifyLoadError("/p/package.json", packageProblems.manifestNotList)).toBe(
      'Package manifest /p/package.json failed to load: its "pi.permissions" is not a list of paths',
    );
  });

  test("a package.json that is not JSON is an error of package.json, and the package provides nothing, not its permissions/ folder", () => {
    const root = pkg("manifest-broken", {
      "package.json": '{ "pi": { "permissions": ["gates"] }',
      "gates/g.ts": hookModule("g"),
      "permissions/p.ts": hookModule("p"),
    });
    const found = packagePermissions(installed(root));
    expect(found.files).toEqual([]);
    expect(found.errors).toEqual([
      {
        file: join(root, "package.json"),
        error: packageProblems.manifestNotJson(parseError('{ "pi": { "permissions": ["gates"] }')),
      },
    ]);
    expect(found.manifestFailed).toBe(true);
    expect(notifyLoadError("/p/package.json", packageProblems.manifestNotJson("Unexpected end of JSON input"))).toBe(
      "Package manifest /p/package.json failed to load: it is not JSON (Unexpected end of JSON input)",
    );
  });

  test("a package.json that starts with a byte order mark is read, as npm and pi read it", () => {
    const root = pkg("manifest-bom", {
      "package.json": `\uFEFF${JSON.stringify({ pi: { permissions: ["gates"] } })}`,
      "gates/g.ts": hookModule("g"),
    });
    const found = packagePermissions(installed(root));
    expect(relativeFiles(root, found.files)).toEqual(["gates/g.ts"]);
    expect(found.errors).toEqual([]);
  });

  test("a package.json that can't be read is an error of package.json; without one, the permissions/ folder", () => {
    const unreadable = pkg("manifest-folder", { "package.json/x": "", "permissions/p.ts": hookModule("p") });
    const found = packagePermissions(installed(unreadable));
    expect(found.files).toEqual([]);
    expect(found.errors.map((error) => error.file)).toEqual([join(unreadable, "package.json")]);
    expect(found.errors[0]?.error).toStartWith("it can't be read (");
    expect(packageProblems.manifestUnreadable("EISDIR: illegal operation on a directory, read")).toBe(
      "it can't be read (EISDIR: illegal operation on a directory, read)",
    );
    expect(found.manifestFailed).toBe(true);
    const none = pkg("manifest-none", { "permissions/p.ts": hookModule("p") });
    expect(packagePermissions(installed(none))).toEqual({
      source: none,
      root: none,
      files: [join(none, "permissions/p.ts")],
      globs: [],
      errors: [],
    });
  });

  test("entries that overlap provide each file once, where it first comes", () => {
    const root = pkg(
      "manifest-overlap",
      { "permissions/b.ts": hookModule("b"), "permissions/a.json": RULES, "extra.ts": hookModule("extra") },
      { permissions: ["permissions/*.json", "permissions", "permissions/**", "./extra.ts", "extra.ts"] },
    );
    expect(relativeFiles(root, packagePermissions(installed(root)).files)).toEqual([
      "permissions/a.json",
      "permissions/b.ts",
      "extra.ts",
    ]);
  });

  test("names starting with a dot are skipped in folders and by globs, unless a glob's part names the dot too; a listed path loads", () => {
    const files = {
      "permissions/a.ts": hookModule("a"),
      "permissions/.draft.ts": hookModule("draft"),
      "permissions/.#a.ts": hookModule("lock"),
      "permissions/.hidden/h.ts": hookModule("h"),
      ".config/c.ts": hookModule("c"),
    };
    const convention = pkg("dots-convention", files);
    expect(relativeFiles(convention, packagePermissions(installed(convention)).files)).toEqual(["permissions/a.ts"]);
    const globs = pkg("dots-globs", files, { permissions: ["permissions/*", "*/*.ts", "permissions/**/*.ts"] });
    expect(relativeFiles(globs, packagePermissions(installed(globs)).files)).toEqual(["permissions/a.ts"]);
    const named = pkg("dots-named", files, { permissions: ["permissions/.d*.ts", ".config/*.ts", "permissions/.#a.ts"] });
    expect(relativeFiles(named, packagePermissions(installed(named)).files)).toEqual([
      "permissions/.draft.ts",
      ".config/c.ts",
      "permissions/.#a.ts",
    ]);
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

  test("a glob matches a name starting with a dot only where its own part starts with a dot, as pi's filter", () => {
    const files = ["/r/permissions/.draft.ts", "/r/permissions/a.ts"];
    expect(applyPatterns(files, ["*.ts"], "/r")).toEqual(["/r/permissions/a.ts"]);
    expect(applyPatterns(files, ["permissions/*"], "/r")).toEqual(["/r/permissions/a.ts"]);
    expect(applyPatterns(files, ["!permissions/*.ts"], "/r")).toEqual(["/r/permissions/.draft.ts"]);
    expect(applyPatterns(files, [".*.ts"], "/r")).toEqual(["/r/permissions/.draft.ts"]);
    expect(applyPatterns(["/home/.pi/r/a.ts"], ["**/a.ts"], "/home/.pi/r")).toEqual(["/home/.pi/r/a.ts"]);
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

  /** An npm that answers `npm root -g` with `global` in the sandbox, and logs each run; where its log is. */
  function fakeNpm(): { global: string; log: string } {
    const sandbox = dirname(agentDir);
    const global = join(sandbox, "global");
    const log = join(sandbox, "npm.log");
    write({ "fake-npm": `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\necho ${JSON.stringify(global)}\n` }, sandbox);
    chmodSync(join(sandbox, "fake-npm"), 0o755);
    writeFileSync(log, "");
    return { global, log };
  }

  test("an npm package the user installed globally (legacy) and the project installed is one package, by name", () => {
    const { global } = fakeNpm();
    write({ "tools/package.json": "{}" }, global);
    write({ ".pi/npm/node_modules/tools/package.json": "{}" }, cwd);
    write(
      { "settings.json": JSON.stringify({ packages: ["npm:tools"], npmCommand: [join(dirname(agentDir), "fake-npm")] }) },
      agentDir,
    );
    expect(installedPackages(cwd, piSettings(cwd, false))).toEqual([{ source: "npm:tools", root: join(global, "tools") }]);
    settings(join(cwd, ".pi/settings.json"), [{ source: "npm:tools@^1", permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([
      { source: "npm:tools@^1", root: join(cwd, ".pi/npm/node_modules/tools"), filter: [] },
    ]);
  });

  test("a git package is one package whatever the URL's form: pi's host and path", () => {
    write({ "git/github.com/me/tools/package.json": "{}" }, agentDir);
    write({ ".pi/git/github.com/me/tools/package.json": "{}" }, cwd);
    settings(join(agentDir, "settings.json"), ["git:github.com/me/tools"]);
    settings(join(cwd, ".pi/settings.json"), [{ source: "https://github.com/me/tools@v1", permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([
      { source: "https://github.com/me/tools@v1", root: join(cwd, ".pi/git/github.com/me/tools"), filter: [] },
    ]);
  });

  test("a local package is one package by its path, however it is written (a file: URL)", () => {
    const both = pkg("local-both", {});
    settings(join(agentDir, "settings.json"), [`file://${both}`]);
    settings(join(cwd, ".pi/settings.json"), [{ source: "../../local-both", permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: "../../local-both", root: both, filter: [] }]);
  });

  test("npm is asked for its global folder once per session, not at every load", () => {
    const { log } = fakeNpm();
    write(
      { "settings.json": JSON.stringify({ packages: ["npm:absent"], npmCommand: [join(dirname(agentDir), "fake-npm")] }) },
      agentDir,
    );
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([]);
    expect(readFileSync(log, "utf8")).toBe("root -g\n");
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

  test("a local package that is one file (an extension) provides no permissions, and no error", () => {
    const file = join(pkg("single-file", { "ext.ts": "export default () => {};\n" }), "ext.ts");
    settings(join(agentDir, "settings.json"), [file]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([]);
  });
});

describe("pi 1.x's autoload: false (its patterns change the user's entry): all load, more gates, never fewer", () => {
  function settings(file: string, packages: unknown[]): void {
    write({ [file]: JSON.stringify({ packages }) }, "/");
  }

  test("the project's entry over the user's, as `pi config --local` writes it", () => {
    const root = pkg("autoload-shared", {});
    settings(join(cwd, ".pi/settings.json"), [
      { source: "../../autoload-shared", autoload: false, permissions: ["-permissions/b.ts"] },
    ]);
    settings(join(agentDir, "settings.json"), [{ source: root, permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: "../../autoload-shared", root }]);
  });

  test("the user's own entry", () => {
    const root = pkg("autoload-user", {});
    settings(join(agentDir, "settings.json"), [{ source: root, autoload: false }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: root, root }]);
    settings(join(agentDir, "settings.json"), [{ source: root, autoload: true, permissions: [] }]);
    expect(installedPackages(cwd, piSettings(cwd, true))).toEqual([{ source: root, root, filter: [] }]);
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

describe("a package's manifest: one that is not JSON fails closed; it and its root are watched", () => {
  const BROKEN_MANIFEST = '{ "name": "gated", "pi": { "permissions": ["gates"] ';

  function gatedPackage(): { root: string; manifest: string } {
    const root = pkg("gated", { "gates/g.js": blockingModule("Package gate", "v1") }, { permissions: ["gates"] });
    write({ "settings.json": JSON.stringify({ packages: [root] }) }, agentDir);
    return { root, manifest: join(root, "package.json") };
  }

  function gatekeeper() {
    const session = fakeSession({ cwd });
    const keeper = new Gatekeeper(new Enablement({ appendEntry: () => {} }), fakeApprover().show);
    let calls = 0;
    const call = () => keeper.onToolCall(bashCall(`c${++calls}`, "ls"), session.ctx);
    return { session, keeper, call };
  }

  test("at start-up: the Approver is told, and the package has no hooks", async () => {
    const { manifest } = gatedPackage();
    writeFileSync(manifest, BROKEN_MANIFEST);
    const { session, keeper, call } = gatekeeper();
    keeper.load(session.ctx);
    const { errors, hooks } = await keeper.loaded();
    expect(errors).toEqual([{ file: manifest, error: packageProblems.manifestNotJson(parseError(BROKEN_MANIFEST)) }]);
    expect(hooks).toEqual([]);
    expect(session.notices).toEqual([notifyLoadError(manifest, errors[0]!.error)]);
    expect(await call()).toBeUndefined();
  });

  test("on a reload: the package's previous hooks go on gating, told once, until it is fixed", async () => {
    const { root, manifest } = gatedPackage();
    const { session, keeper, call } = gatekeeper();
    keeper.load(session.ctx);
    await keeper.loaded();
    expect(await call()).toEqual({ block: true, reason: agentHookBlock("Package gate", "v1") });

    writeFileSync(manifest, BROKEN_MANIFEST);
    await keeper.reload(session.ctx, new Set([manifest]));
    const error = packageProblems.manifestNotJson(parseError(BROKEN_MANIFEST));
    expect((await keeper.loaded()).errors).toEqual([{ file: manifest, error, kept: true }]);
    expect(session.notices).toEqual([notifyLoadErrorKept(manifest, error)]);
    expect(await call()).toEqual({ block: true, reason: agentHookBlock("Package gate", "v1") });
    await keeper.reload(session.ctx, new Set([join(agentDir, "permissions/other.ts")]));
    expect(session.notices).toHaveLength(1);
    expect(await call()).toEqual({ block: true, reason: agentHookBlock("Package gate", "v1") });

    write({ "gates/g.js": blockingModule("Package gate", "v2") }, root);
    writeFileSync(manifest, JSON.stringify({ name: "gated", pi: { permissions: ["gates"] } }));
    await keeper.reload(session.ctx, new Set([manifest]));
    expect((await keeper.loaded()).errors).toEqual([]);
    expect(await call()).toEqual({ block: true, reason: agentHookBlock("Package gate", "v2") });
    expect(session.notices).toHaveLength(1);
  });

  test("a package's manifest is watched, so that a fix reloads", async () => {
    const { root } = gatedPackage();
    const { session, keeper } = gatekeeper();
    keeper.load(session.ctx);
    expect(await keeper.watchedFolders(session.ctx)).toContain(root);
  });

  test("in a package's root, only its manifest and the files it lists reload: not its code or lock file", async () => {
    const root = pkg("rooted", { "gate.js": blockingModule("Root gate", "v1"), "index.ts": "" }, { permissions: ["gate.js"] });
    write({ "settings.json": JSON.stringify({ packages: [root] }) }, agentDir);
    const { session, keeper } = gatekeeper();
    keeper.load(session.ctx);
    const first = await keeper.loaded();
    await keeper.reload(session.ctx, new Set([join(root, "index.ts"), join(root, "package-lock.json")]));
    expect(await keeper.loaded()).toBe(first);
    for (const file of ["gate.js", "package.json"]) {
      const before = await keeper.loaded();
      await keeper.reload(session.ctx, new Set([join(root, file)]));
      expect(await keeper.loaded()).not.toBe(before);
    }
  });

  test("a file made in a package's root that a manifest glob matches reloads, and gates", async () => {
    const root = pkg("globbed", { "gate-a.js": blockingModule("Gate A", "a"), "index.ts": "" }, { permissions: ["gate-*.js"] });
    write({ "settings.json": JSON.stringify({ packages: [root] }) }, agentDir);
    const { session, keeper, call } = gatekeeper();
    keeper.load(session.ctx);
    const first = await keeper.loaded();
    expect(first.hooks.map((hook) => hook.name)).toEqual(["Gate A"]);
    write({ "gate-b.js": blockingModule("Gate B", "b"), "notes.js": "" }, root);
    await keeper.reload(session.ctx, new Set([join(root, "notes.js")]));
    expect(await keeper.loaded()).toBe(first);
    await keeper.reload(session.ctx, new Set([join(root, "gate-b.js")]));
    expect((await keeper.loaded()).hooks.map((hook) => hook.name)).toEqual(["Gate A", "Gate B"]);
    expect(await call()).toEqual({ block: true, reason: agentHookBlock("Gate A", "a") });
  });
});

test("the prompt names a package's hook's package, and nothing for the user's and the project's", () => {
  expect(promptHookScope("package:npm:deploy-tools")).toBe("From the pi package npm:deploy-tools.");
  expect(promptHookScope("user")).toBeUndefined();
  expect(promptHookScope("project")).toBeUndefined();
});
