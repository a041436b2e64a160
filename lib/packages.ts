// Permission modules and rule files that pi packages provide. Which packages are installed, and
// where, is pi's answer (its settings and package manager); a package declares its files in
// `"pi": { "permissions": [...] }` or keeps them in `permissions/`, and the package's settings entry
// narrows them with `"permissions": [...]`, the filter pi applies to a package's other resources.
import { CONFIG_DIR_NAME, DefaultPackageManager, getAgentDir, type SettingsManager } from "@earendil-works/pi-coding-agent";
import { describeError } from "./failure.ts";
import type { LoadError } from "./loader.ts";
import { moduleFiles } from "./loader.ts";
import { basename, globSync, isAbsolute, join, matchesGlob, relative, resolve, sep } from "./node.ts";
import { packageProblems } from "./presenter.ts";
import { pathKind } from "./real-path.ts";
import type { PiSettings } from "./settings.ts";
import { getOrAdd, isString, isStringList, parseJson, readIfPresent } from "./values.ts";

/** One package's permission files, in load order. */
export interface PackagePermissions {
  /** The package as pi's settings name it (`npm:deploy-tools`, a path). */
  source: string;
  root: string;
  files: string[];
  /** The manifest's globs: a file made later that one matches is one more the package provides. */
  globs: string[];
  /** What the package declares that can't be loaded. */
  errors: LoadError[];
  /**
   * Set when its manifest can't be used (not JSON, say): what it provides is unknown, `errors` says
   * why, and on a reload its hooks from before go on gating.
   */
  manifestFailed?: true;
}

/** A package entry of pi's settings, installed at `root`. */
export interface InstalledPackage {
  source: string;
  root: string;
  /** The settings entry's `permissions`, when it has one. */
  filter?: readonly string[];
}

/**
 * Every installed package pi's settings list, the project's first (only in a project pi trusts), as
 * pi orders them; a package listed in both scopes once, as the project lists it.
 */
export function installedPackages(cwd: string, settings: PiSettings): InstalledPackage[] {
  const agentDir = getAgentDir();
  const settingsManager = settings();
  // Each scope, its folder (pi clones its git packages into the `git/` in it) and the packages its settings list.
  const scopes = [
    ["project", join(cwd, CONFIG_DIR_NAME), settingsManager.getProjectSettings().packages],
    ["user", agentDir, settingsManager.getGlobalSettings().packages],
  ] as const;
  const seen = new Set<string>();
  const installed: InstalledPackage[] = [];
  for (const [scope, base, entries] of scopes) {
    for (const entry of entries ?? []) {
      const source = isString(entry) ? entry : entry.source;
      const root = packageManager(cwd, agentDir, settingsManager).getInstalledPath(source, scope);
      // A local package that is one file is an extension.
      if (!root || pathKind(root) !== "directory") continue;
      const identity = packageIdentity(source, root, base);
      if (seen.has(identity)) continue;
      seen.add(identity);
      // A filter that is not a list narrows nothing, nor does one that pi 1.x's `autoload: false` makes
      // a list of changes to the user's entry: more gates, never fewer.
      const filter =
        typeof entry === "object" && "permissions" in entry && !("autoload" in entry && entry.autoload === false)
          ? entry.permissions
          : undefined;
      installed.push(isStringList(filter) ? { source, root, filter } : { source, root });
    }
  }
  return installed;
}

/**
 * pi's package manager asks npm for its global folder (a run of npm that blocks, ~0.1 s) once per
 * manager, to find a user's npm package installed the legacy way; one manager for as long as this
 * extension runs keeps each reload from asking again. What it reads of the settings (whether the
 * project is trusted, the npm command) is its key.
 */
const managers = new Map<string, DefaultPackageManager>();

function packageManager(cwd: string, agentDir: string, settingsManager: SettingsManager): DefaultPackageManager {
  const key = JSON.stringify([cwd, agentDir, settingsManager.isProjectTrusted(), settingsManager.getNpmCommand() ?? null]);
  return getOrAdd(managers, key, () => new DefaultPackageManager({ cwd, agentDir, settingsManager }));
}

/**
 * pi's identity of a package, the same in both scopes: an npm package by its name (the user's may be
 * a global install), a git one by host and path (where pi clones it in each scope's `git/` folder),
 * a local one by its path.
 */
function packageIdentity(source: string, root: string, scopeBase: string): string {
  if (source.startsWith("npm:")) return `npm:${npmName(source.slice("npm:".length).trim())}`;
  const clone = relative(join(scopeBase, "git"), root);
  return clone && !isAbsolute(clone) && clone.split(sep)[0] !== ".." ? `git:${posix(clone)}` : `local:${root}`;
}

/** An npm spec's package name: `@scope/tools@^1` is `@scope/tools`. */
const npmName = (spec: string): string => spec.replace(/(?<=.)@.*$/, "");

/** The files a package provides, narrowed by its settings entry's filter. */
export function packagePermissions({ source, root, filter }: InstalledPackage): PackagePermissions {
  const manifest = join(root, "package.json");
  const read = readManifest(manifest);
  if ("error" in read) {
    return { source, root, files: [], globs: [], errors: [{ file: manifest, error: read.error }], manifestFailed: true };
  }
  const errors: LoadError[] = [];
  const declared = declaredFiles(root, read.entries, (error) => errors.push({ file: manifest, error }));
  const files = !filter ? declared : filter.length ? applyPatterns(declared, filter, root) : [];
  const globs = (read.entries ?? []).filter((entry) => !isOverride(entry) && GLOB.test(entry));
  return { source, root, files, globs, errors };
}

/** Whether a change at `path`, a file in the package's root, can change what the package provides. */
export function providesFrom({ root, files, globs }: PackagePermissions, path: string): boolean {
  return path === join(root, "package.json") || files.includes(path) || matchesAny(path, globs, root);
}

/** The manifest's `pi.permissions`; none without a manifest or the key. */
function readManifest(file: string): { entries?: string[] } | { error: string } {
  let text: string | undefined;
  try {
    text = readIfPresent(file);
  } catch (error) {
    return { error: packageProblems.manifestUnreadable(describeError(error)) };
  }
  if (text === undefined) return {};
  let entries: unknown;
  try {
    entries = (parseJson(text) as { pi?: { permissions?: unknown } } | null)?.pi?.permissions;
  } catch (error) {
    return { error: packageProblems.manifestNotJson(describeError(error)) };
  }
  if (entries === undefined) return {};
  return isStringList(entries) ? { entries } : { error: packageProblems.manifestNotList };
}

const GLOB = /[*?]/;

/**
 * `pi.permissions` (paths, globs, `!`/`+`/`-` patterns), each file once where it first comes, or
 * else the `permissions/` folder.
 */
function declaredFiles(root: string, entries: readonly string[] | undefined, problem: (error: string) => void): string[] {
  if (!entries) return moduleFiles(join(root, "permissions"));
  const files = new Set<string>();
  for (const entry of entries.filter((entry) => !isOverride(entry))) {
    const paths = GLOB.test(entry)
      ? globSync(entry, { cwd: root })
          .sort()
          .filter((path) => dotsNamed(posix(path), posix(entry)))
          .map((path) => resolve(root, path))
      : [resolve(root, entry)];
    if (!paths.length) problem(packageProblems.notFound(entry));
    for (const path of paths) {
      const kind = pathKind(path);
      if (kind === "directory") for (const file of moduleFiles(path)) files.add(file);
      else if (kind === "file") files.add(path);
      else problem(packageProblems.notFound(entry));
    }
  }
  const overrides = entries.filter(isOverride);
  return overrides.length ? applyPatterns([...files], overrides, root) : [...files];
}

/**
 * pi's filter over a package's resources: globs include (all when none), `!glob` excludes,
 * `+path` adds back an exact path, `-path` removes one; a glob matches the path from the package
 * root, the file name or the absolute path.
 */
export function applyPatterns(files: readonly string[], patterns: readonly string[], root: string): string[] {
  const includes = patterns.filter((pattern) => !isOverride(pattern));
  const [excludes = [], forceIncludes = [], forceExcludes = []] = ["!", "+", "-"].map((prefix) => overridesOf(patterns, prefix));
  return files.filter(
    (file) =>
      !isExactly(file, forceExcludes, root) &&
      (isExactly(file, forceIncludes, root) ||
        ((!includes.length || matchesAny(file, includes, root)) && !matchesAny(file, excludes, root))),
  );
}

const overridesOf = (patterns: readonly string[], prefix: string): string[] =>
  patterns.filter((pattern) => pattern.startsWith(prefix)).map((pattern) => pattern.slice(1));

function matchesAny(file: string, globs: readonly string[], root: string): boolean {
  const forms = [posix(relative(root, file)), basename(file), posix(file)];
  return globs.some((glob) => forms.some((form) => matchesGlob(form, posix(glob)) && dotsNamed(form, posix(glob))));
}

/**
 * Whether each name in `path` that starts with a dot is matched by a part of `glob` that starts with
 * one: pi's globs don't match such names with `*` or `**`, and Node's and Bun's may.
 */
function dotsNamed(path: string, glob: string): boolean {
  const dotted = glob.split("/").filter((part) => part.startsWith("."));
  return path.split("/").every((name) => !name.startsWith(".") || dotted.some((part) => matchesGlob(name, part)));
}

function isExactly(file: string, paths: readonly string[], root: string): boolean {
  const forms = [posix(relative(root, file)), posix(file)];
  return paths.some((path) => forms.includes(posix(path.replace(/^\.[\\/]/, ""))));
}

const posix = (path: string): string => path.split(sep).join("/");

const isOverride = (pattern: string): boolean => /^[!+-]/.test(pattern);
