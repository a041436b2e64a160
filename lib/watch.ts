// Live reload: the permission folders are watched, and a burst of saves becomes one change.
import { statSync, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isPermissionFile } from "./loader.ts";
import type { Timers } from "./timers.ts";

/** Editors save in bursts (a temp file, a rename, a chmod): one change once they have settled. */
export const SETTLE_MS = 150;

export interface Watching {
  close(): void;
}

/** Calls `onEvent` with the name of each entry that changes in `dir`; undefined when `dir` can't be watched. */
export type WatchFolder = (dir: string, onEvent: (name: string | null) => void) => Watching | undefined;

/** The operating system's notifications (inotify, FSEvents): nothing runs while nothing changes. */
export const watchFolder: WatchFolder = (dir, onEvent) => {
  try {
    const watcher = watch(dir, { persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
    // A watched folder that goes away ends its watcher; the next change of its parent's watch re-arms it.
    watcher.on("error", () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
};

/**
 * Watches permission folders and reports what changed in them once changes have settled: paths of
 * module and rule files, or a folder itself (created, removed, or an event without a name). A folder
 * that doesn't exist yet is watched through its parent, for its creation.
 */
export class FolderWatch {
  readonly #watching = new Map<string, Watching>();
  #changed = new Set<string>();
  #settling: unknown;
  readonly #watchFolder: WatchFolder;
  readonly #timers: Timers;
  readonly #isFolder: (path: string) => boolean;
  readonly #onChange: (changed: ReadonlySet<string>) => void;

  constructor(
    watchFolder: WatchFolder,
    timers: Timers,
    isFolder: (path: string) => boolean,
    onChange: (changed: ReadonlySet<string>) => void,
  ) {
    this.#watchFolder = watchFolder;
    this.#timers = timers;
    this.#isFolder = isFolder;
    this.#onChange = onChange;
  }

  /** From now on, exactly these folders. */
  watch(folders: readonly string[]): void {
    const wanted = new Map<string, () => Watching | undefined>();
    for (const folder of folders) {
      if (this.#isFolder(folder))
        wanted.set(`in\0${folder}`, () =>
          this.#watchFolder(folder, (name) => {
            if (name === null) this.#change(folder);
            else if (isPermissionFile(name)) this.#change(join(folder, name));
          }),
        );
      else if (this.#isFolder(dirname(folder)))
        wanted.set(`for\0${folder}`, () =>
          this.#watchFolder(dirname(folder), (name) => {
            if (name === null || name === basename(folder)) this.#change(folder);
          }),
        );
    }
    for (const [key, watching] of this.#watching) {
      if (wanted.has(key)) continue;
      watching.close();
      this.#watching.delete(key);
    }
    for (const [key, start] of wanted) {
      if (this.#watching.has(key)) continue;
      const watching = start();
      if (watching) this.#watching.set(key, watching);
    }
  }

  close(): void {
    for (const watching of this.#watching.values()) watching.close();
    this.#watching.clear();
    if (this.#settling !== undefined) this.#timers.clearTimeout(this.#settling);
    this.#settling = undefined;
    this.#changed = new Set();
  }

  #change(path: string): void {
    this.#changed.add(path);
    if (this.#settling !== undefined) this.#timers.clearTimeout(this.#settling);
    this.#settling = this.#timers.setTimeout(() => {
      this.#settling = undefined;
      const changed = this.#changed;
      this.#changed = new Set();
      this.#onChange(changed);
    }, SETTLE_MS);
  }
}

/** Whether a change touched `file`: the file itself, or its folder as a whole. */
export function touched(changed: ReadonlySet<string>, file: string): boolean {
  return changed.has(file) || changed.has(dirname(file));
}

export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
