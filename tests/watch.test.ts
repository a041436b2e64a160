import { describe, expect, test } from "bun:test";
import { FolderWatch, SETTLE_MS, touched, type WatchFolder } from "../lib/watch.ts";
import { manualTimers } from "./support/manual-timers.ts";

/** Watchers the test fires by hand; records which folders are watched. */
function fakeFolders() {
  const open = new Map<string, (name: string | null) => void>();
  let started = 0;
  const watchFolder: WatchFolder = (dir, onEvent) => {
    started++;
    open.set(dir, onEvent);
    return { close: () => open.delete(dir) };
  };
  const fire = (dir: string, name: string | null) => {
    const onEvent = open.get(dir);
    if (!onEvent) throw new Error(`${dir} is not watched`);
    onEvent(name);
  };
  return { watchFolder, fire, watched: () => [...open.keys()].sort(), started: () => started };
}

function setUp(existing: string[]) {
  const folders = fakeFolders();
  const clock = manualTimers();
  const changes: string[][] = [];
  const watch = new FolderWatch(
    folders.watchFolder,
    clock.timers,
    (path) => existing.includes(path),
    (changed) => changes.push([...changed]),
  );
  return { ...folders, clock, changes, watch };
}

describe("FolderWatch", () => {
  test("a burst of saves is one change, once it has settled, with every file it touched", () => {
    const { watch, fire, clock, changes } = setUp(["/u/permissions"]);
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
    const { watch, fire, clock, changes } = setUp(["/u/permissions"]);
    watch.watch(["/u/permissions"]);
    for (const name of [".a.ts.swp", "a.ts~", "4913", ".#a.ts", ".draft.ts", "types.d.ts", "tsconfig.json", "notes.md"])
      fire("/u/permissions", name);
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    fire("/u/permissions", null);
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"]]);
  });

  test("a folder that doesn't exist yet is watched through its parent, for its own name only", () => {
    const { watch, fire, clock, changes, watched } = setUp(["/u"]);
    watch.watch(["/u/permissions", "/gone/permissions"]);
    expect(watched()).toEqual(["/u"]);
    fire("/u", "settings.json");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([]);
    fire("/u", "permissions");
    clock.advance(SETTLE_MS);
    expect(changes).toEqual([["/u/permissions"]]);
  });

  test("watch() keeps the folders still wanted, starts new ones and closes the rest", () => {
    const { watch, watched, started } = setUp(["/a", "/b", "/c"]);
    watch.watch(["/a", "/b"]);
    watch.watch(["/b", "/c"]);
    expect(watched()).toEqual(["/b", "/c"]);
    expect(started()).toBe(3);
  });

  test("close() stops watching and drops a change still settling", () => {
    const { watch, fire, clock, changes, watched } = setUp(["/a"]);
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
