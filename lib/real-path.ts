import { basename, dirname, join, lstatSync, readlinkSync, realpathSync, resolve, statSync } from "./node.ts";

/** As many symlinks as Linux follows for one path before it gives up (ELOOP). */
const MAX_SYMLINKS = 40;

/**
 * An absolute path with symlinks resolved. For a path that doesn't exist yet, its longest existing
 * prefix is resolved, and a dangling symlink on the way leads to its target. Never throws.
 */
export function realPath(path: string): string {
  let symlinks = MAX_SYMLINKS;
  const resolved = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      const parent = dirname(path);
      if (parent === path) return path;
      const joined = join(resolved(parent), basename(path));
      try {
        if (symlinks > 0 && lstatSync(joined).isSymbolicLink()) {
          symlinks--;
          return resolved(resolve(dirname(joined), readlinkSync(joined)));
        }
      } catch {
        // Not there (yet): the rest of the path is taken as written.
      }
      return joined;
    }
  };
  return resolved(path);
}

/** What is at `path`, symlinks followed: a file, a directory, or neither (nothing, or something else). */
export function pathKind(path: string): "file" | "directory" | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}
