// Live reload: the permission folders are watched, and a burst of saves becomes one change.
import { isPermissionFile } from "./loader.ts";
import { basename, dirname, join, readdirSync, statSync, watch } from "./node.ts";
import { realPath } from "./real-path.ts";
import type { Timers } from "./timers.ts";
import { getOrAdd } from "./values.ts";

/** Editors save in bursts (a temp file, a rename, a chmod): one change once they have settled. */
export const SETTLE_MS = 150;

export interface Watching {
  close(): void;
}

/** Calls `onEvent` with the name of each entry that changes in `dir`; undefined when `dir` can't be watched. */
export type WatchFolder = (dir: string, onEvent: (name: string | null) => void) => Watching | undefined;

/** What a FolderWatch reads of the file system; tests pass their own. */
export interface Folders {
  watch: WatchFolder;
  /** A folder's device, inode and birth time (never empty), new when it is made again; undefined when `path` is no folder. */
  identity(path: string): string | undefined;
  /** The permission files in `folder` that are symlinks, each with the real path it leads to (or will, once made). */
  links(folder: string): [link: string, target: string][];
}

/** The operating system's notifications (inotify, FSEvents): nothing runs while nothing changes. */
export const systemFolders: Folders = {
  watch: (dir, onEvent) => {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
      // A watched folder that goes away ends its watcher; its parent's watch re-arms it.
      watcher.on("error", () => watcher.close());
      return watcher;
    } catch {
      return undefined;
    }
  },
  identity: (path) => {
    try {
      const stat = statSync(path, { bigint: true });
      // ext4 gives a folder made again the inode number it had; its birth time tells them apart.
      return stat.isDirectory() ? `${stat.dev}:${stat.ino}:${stat.birthtimeNs}` : undefined;
    } catch {
      return undefined;
    }
  },
  links: (folder) => {
    try {
      return readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isSymbolicLink() && isPermissionFile(entry.name))
        .map((entry): [string, string] => [join(folder, entry.name), realPath(join(folder, entry.name))]);
    } catch {
      return [];
    }
  },
};

/** A wanted folder: which folder was there when it was last looked at, and what watches it. */
interface Watched {
  identity: string | undefined;
  /** Counts the events its nearest ancestor had for it: each may be a folder made again unseen by `identity`. */
  heard: number;
  watching: Map<string, Watching>;
}

/**
 * Watches permission folders and reports what changed in them once changes have settled: paths of
 * module and rule files, or a folder itself (made, removed, made again, or an event without a name).
 * Each folder's nearest existing ancestor is watched too, for the folder (or the first folder on the
 * way to it) being made, removed or replaced; a symlinked file is watched in its target's folder.
 */
export class FolderWatch {
  readonly #watched = new Map<string, Watched>();
  #changed = new Set<string>();
  #settling: unknown;
  readonly #folders: Folders;
  readonly #timers: Timers;
  readonly #onChange: (changed: ReadonlySet<string>) => void;

  constructor(folders: Folders, timers: Timers, onChange: (changed: ReadonlySet<string>) => void) {
    this.#folders = folders;
    this.#timers = timers;
    this.#onChange = onChange;
  }

  /** From now on, exactly these folders; one that was replaced unheard is watched again, and is a change. */
  watch(folders: readonly string[]): void {
    for (const [folder, watched] of this.#watched) {
      if (folders.includes(folder)) continue;
      for (const watching of watched.watching.values()) watching.close();
      this.#watched.delete(folder);
    }
    for (const folder of folders) this.#arm(folder);
  }

  close(): void {
    this.watch([]);
    this.#timers.clearTimeout(this.#settling);
    this.#settling = undefined;
    this.#changed = new Set();
  }

  /**
   * Watches `folder` as it is now, keeping the watchers still right. Another folder than before is a
   * change, and so is one its ancestor `heard` of: a folder made again within one tick of a coarse
   * file system clock can have the identity it had.
   */
  #arm(folder: string, heard = false): void {
    const identity = this.#folders.identity(folder);
    const watched = getOrAdd(this.#watched, folder, () => ({ identity, heard: 0, watching: new Map<string, Watching>() }));
    if (heard) watched.heard++;
    const wanted = this.#watchers(folder, identity, watched.heard);
    const { watching } = watched;
    for (const [key, watcher] of watching) {
      if (wanted.has(key)) continue;
      watcher.close();
      watching.delete(key);
    }
    for (const [key, start] of wanted) {
      if (watching.has(key)) continue;
      const watcher = start();
      if (watcher) watching.set(key, watcher);
    }
    if (watched.identity !== identity || (heard && identity)) this.#change(folder);
    watched.identity = identity;
  }

  /** The watchers `folder` needs, by a key that changes when the folder a watcher would watch does. */
  #watchers(folder: string, identity: string | undefined, heard: number): Map<string, () => Watching | undefined> {
    const wanted = new Map<string, () => Watching | undefined>();
    // Each watcher is silent once `folder` is no longer wanted: an event already on its way must not arm it again.
    const want = (key: string, dir: string, onEvent: (name: string | null) => void) =>
      wanted.set(key, () =>
        this.#folders.watch(dir, (name) => {
          if (this.#watched.has(folder)) onEvent(name);
        }),
      );
    let next = folder;
    let ancestor = dirname(folder);
    let ancestorIdentity = this.#folders.identity(ancestor);
    while (!ancestorIdentity && dirname(ancestor) !== ancestor) {
      next = ancestor;
      ancestor = dirname(ancestor);
      ancestorIdentity = this.#folders.identity(ancestor);
    }
    // Any other event there may be the ancestor's own removal, which its identity tells.
    if (ancestorIdentity)
      want(`around\0${ancestor}\0${ancestorIdentity}`, ancestor, (name) =>
        this.#arm(folder, name === null || name === basename(next)),
      );
    if (!identity) return wanted;
    want(`in\0${identity}\0${heard}`, folder, (name) => {
      if (name === null) this.#change(folder);
      else if (isPermissionFile(name)) this.#change(join(folder, name));
    });
    for (const [link, target] of this.#folders.links(folder))
      want(`link\0${link}\0${target}`, dirname(target), (name) => {
        if (name === null || name === basename(target)) this.#change(link);
      });
    return wanted;
  }

  #change(path: string): void {
    this.#changed.add(path);
    this.#timers.clearTimeout(this.#settling);
    this.#settling = this.#timers.setTimeout(() => {
      this.#settling = undefined;
      const changed = this.#changed;
      this.#changed = new Set();
      this.#onChange(changed);
    }, SETTLE_MS);
  }
}

/** Whether a change touched `file`: the file itself, or its folder as a whole. */
export const touched = (changed: ReadonlySet<string>, file: string): boolean => changed.has(file) || changed.has(dirname(file));
