import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Folders, FolderWatch, SETTLE_MS, systemFolders, touched } from "../lib/watch.ts";
import { manualTimers } from "./support/manual-timers.ts";

/**
 * A file system the test changes by hand: folders, each with a new identity when it is made again
 * (unless the test gives the old one, as ext4 can), symlinked files, and watchers it fires. As
 * inotify's, a watcher hears the folder it started on: the events queued before that folder went,
 * nothing of one made again in its place.
 */
function fakeFolders(existing: string[], links: Record<string, string> = {}) {
  const folders = new Map<string, { identity: string; made: number }>();
  let made = 0;
  const make = (...paths: string[]) => {
    for (const path of paths) folders.set(path, { identity: `#${++made}`, made });
  };
  make(...existing);
  const open = new Set<{ dir: string; made: number | undefined; onEvent: (name: string | null) => void }>();
  let started = 0;
  const fake: Folders = {
    watch(dir, onEvent) {
      if (!folders.has(dir)) return undefined;
      started++;
      const watcher = { dir, made: folders.get(dir)?.made, onEvent };
      open.add(watcher);
      return { close: () => open.delete(watcher) };
    },
    identity: (path) => folders.get(path)?.identity,
    links: (folder) => Object.entries(links).filter(([link]) => dirname(link) === folder),
  };
  /** An event in `dir`: the folder there now, or the last of one removed. */
  const fire = (dir: string, name: string | null) => {
    const now = folders.get(dir)?.made;
    const hearing = [...open].filter((watcher) => watcher.dir === dir && (now === undefined || watcher.made === now));
    if (hearing.length === 0) throw new Error(`${dir} is not watched`);
    for (const watcher of hearing) watcher.onEvent(name);
  };
  return {
    folders: fake,
    make,
    /** Removes `path` and makes it again under the identity it had. */
    remakeAlike: (path: string) => folders.set(path, { identity: folders.get(path)!.identity, made: ++made }),
    remove: (path: string) => folders.delete(path),
    fire,
    /** The folders watched, each as often as it is. */
    watched: () => [...open].map((watcher) => watcher.dir).sort(),
    started: () => started,
  };
}

function setUp(existing: string[], links: Record<string, string> = {}) {
  const files = fakeFolders(existing, links);
  const clock = manualTimers();
  const changes: string[][] = [];
  const watch = new FolderWatch(files.folders, clock.timers, (changed) => changes.push([...changed]));
  return { ...files, clock, changes, watch };
}

describe("FolderWatch", () => {
  test("a burst of saves is one change, once it has settled, with every file it touched", () => {
    const { watch, fire, clock, changes } = setUp(["/u", "/u/permissions"]);
    watch.watch(["/u/permissions"]);
    fire("/u/permissions", "a.ts");
    clock.advance(SETTLE_MS - 1);
    fire("/u/permissions", "rules.json");
    clock.advance(SETTLE_MS - 1);
    expect(changes).toEqual([]);
    clock.advance(1);
    expect(changes).toEqual([["/u/permissions/a.ts", "/u/permissions/rules.json"]]);
    fire("/u/permissions", "a.ts");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions/a.ts", "/u/permissions/rules.json"], ["/u/permissions/a.ts"]]);
  });

  test("editor scratch files, declarations and tsconfig.json are no change; an event without a name is the folder", () => {
    const { watch, fire, clock, changes } = setUp(["/u", "/u/permissions"]);
    watch.watch(["/u/permissions"]);
    for (const name of [".a.ts.swp", "a.ts~", "4913", ".#a.ts", ".draft.ts", "types.d.ts", "tsconfig.json", "notes.md"])
      fire("/u/permissions", name);
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    fire("/u/permissions", null);
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"]]);
  });

  test("a folder is watched, and its parent for it; one that doesn't exist yet through its parent, for its creation", () => {
    const { watch, fire, make, clock, changes, watched } = setUp(["/", "/u", "/u/permissions", "/p"]);
    watch.watch(["/u/permissions", "/p/permissions"]);
    expect(watched()).toEqual(["/p", "/u", "/u/permissions"]);
    fire("/p", "settings.json");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    make("/p/permissions");
    fire("/p", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/p/permissions"]]);
    expect(watched()).toEqual(["/p", "/p/permissions", "/u", "/u/permissions"]);
  });

  test("a folder whose parents don't exist yet is watched through the nearest that does, deeper as each is made", () => {
    const { watch, fire, make, clock, changes, watched } = setUp(["/", "/project"]);
    watch.watch(["/project/.pi/permissions"]);
    expect(watched()).toEqual(["/project"]);
    make("/project/.pi");
    fire("/project", ".pi");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    expect(watched()).toEqual(["/project/.pi"]);
    make("/project/.pi/permissions");
    fire("/project/.pi", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/project/.pi/permissions"]]);
    fire("/project/.pi/permissions", "gate.ts");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/project/.pi/permissions"], ["/project/.pi/permissions/gate.ts"]]);
  });

  test("folders made all at once, before the event is heard, are watched all the way down", () => {
    const { watch, fire, make, clock, changes, watched } = setUp(["/", "/project"]);
    watch.watch(["/project/.pi/permissions"]);
    make("/project/.pi", "/project/.pi/permissions");
    fire("/project", ".pi");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/project/.pi/permissions"]]);
    expect(watched()).toEqual(["/project/.pi", "/project/.pi/permissions"]);
  });

  test("a folder removed and made again is watched again: on its parent's event, or at the next watch()", () => {
    const { watch, fire, make, remove, clock, changes, watched } = setUp(["/", "/u", "/u/permissions"]);
    watch.watch(["/u/permissions"]);
    remove("/u/permissions");
    make("/u/permissions");
    fire("/u", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"]]);
    fire("/u/permissions", "a.ts");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"], ["/u/permissions/a.ts"]]);

    // Made again unheard (the parent's watcher went with it): the next watch() sees another folder.
    remove("/u");
    remove("/u/permissions");
    make("/u", "/u/permissions");
    watch.watch(["/u/permissions"]);
    expect(watched()).toEqual(["/u", "/u/permissions"]);
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"], ["/u/permissions/a.ts"], ["/u/permissions"]]);
    fire("/u/permissions", "b.ts");
    clock.advance(SETTLE_MS);
    expect(changes.at(-1)).toEqual(["/u/permissions/b.ts"]);
  });

  test("a folder made again under the identity it had is watched again once its parent hears it", () => {
    const { watch, fire, remakeAlike, clock, changes } = setUp(["/", "/u", "/u/permissions"]);
    watch.watch(["/u/permissions"]);
    remakeAlike("/u/permissions");
    fire("/u", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"]]);
    fire("/u/permissions", "a.ts");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"], ["/u/permissions/a.ts"]]);
  });

  test("a folder removed is watched for through its nearest existing parent", () => {
    const { watch, fire, remove, clock, changes, watched } = setUp(["/", "/p", "/p/.pi", "/p/.pi/permissions"]);
    watch.watch(["/p/.pi/permissions"]);
    remove("/p/.pi/permissions");
    remove("/p/.pi");
    fire("/p/.pi", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/p/.pi/permissions"]]);
    expect(watched()).toEqual(["/p"]);
  });

  test("a symlinked module is watched in its target's folder, and changes as the link", () => {
    const { watch, fire, clock, changes, watched } = setUp(["/", "/u", "/u/permissions", "/dots"], {
      "/u/permissions/gate.ts": "/dots/gate.ts",
    });
    watch.watch(["/u/permissions"]);
    expect(watched()).toEqual(["/dots", "/u", "/u/permissions"]);
    fire("/dots", "notes.md");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    fire("/dots", "gate.ts");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions/gate.ts"]]);
  });

  test("watch() keeps the folders still wanted, starts new ones and closes the rest; nothing starts when nothing changed", () => {
    const { watch, watched, started } = setUp(["/", "/a", "/b", "/c"]);
    watch.watch(["/a", "/b"]);
    watch.watch(["/b", "/c"]);
    expect(watched()).toEqual(["/", "/", "/b", "/c"]);
    expect(started()).toBe(6);
    watch.watch(["/b", "/c"]);
    expect(started()).toBe(6);
  });

  test("close() stops watching and drops a change still settling", () => {
    const { watch, fire, clock, changes, watched } = setUp(["/", "/a"]);
    watch.watch(["/a"]);
    fire("/a", "x.ts");
    watch.close();
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    expect(watched()).toEqual([]);
    expect(clock.pending()).toBe(0);
  });

  test("touched: the file, or its folder as a whole", () => {
    expect(touched(new Set(["/a/x.ts"]), "/a/x.ts")).toBe(true);
    expect(touched(new Set(["/a"]), "/a/x.ts")).toBe(true);
    expect(touched(new Set(["/a/y.ts"]), "/a/x.ts")).toBe(false);
  });
});

describe("systemFolders", () => {
  const TEMP = realpathSync(mkdtempSync(join(tmpdir(), "pph-watch-")));
  afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

  test("a folder made again is another folder, even where its inode number is reused; a file is no folder", () => {
    const folder = join(TEMP, "permissions");
    mkdirSync(folder);
    const before = systemFolders.identity(folder);
    expect(systemFolders.identity(folder)).toBe(before!);
    rmSync(folder, { recursive: true });
    expect(systemFolders.identity(folder)).toBeUndefined();
    mkdirSync(folder);
    expect(systemFolders.identity(folder)).not.toBe(before!);
    writeFileSync(join(folder, "gate.ts"), "");
    expect(systemFolders.identity(join(folder, "gate.ts"))).toBeUndefined();
  });

  test("links: the permission files that are symlinks, with the real paths they lead to or will", () => {
    const folder = join(TEMP, "linked");
    const dots = join(TEMP, "dots");
    mkdirSync(folder);
    mkdirSync(dots);
    for (const name of ["gate.ts", "rules.json", "notes.md"]) writeFileSync(join(dots, name), "");
    writeFileSync(join(folder, "own.ts"), "");
    symlinkSync(join(dots, "gate.ts"), join(folder, "gate.ts"));
    symlinkSync("../dots/rules.json", join(folder, "rules.json"));
    symlinkSync(join(dots, "notes.md"), join(folder, "notes.md"));
    symlinkSync(join(dots, "gone.ts"), join(folder, "gone.ts"));
    expect(systemFolders.links(folder).sort()).toEqual([
      [join(folder, "gate.ts"), join(dots, "gate.ts")],
      [join(folder, "gone.ts"), join(dots, "gone.ts")],
      [join(folder, "rules.json"), join(dots, "rules.json")],
    ]);
    expect(systemFolders.links(join(TEMP, "missing"))).toEqual([]);
  });
});
