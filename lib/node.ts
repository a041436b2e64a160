// Node's built-ins the extension uses, imported here once: Bun's bundle repeats an import statement
// for every module that imports a built-in itself, about 1 KB in all.
export { spawn } from "node:child_process";
export {
  appendFileSync,
  type Dirent,
  existsSync,
  globSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from "node:fs";
export { homedir, tmpdir } from "node:os";
export { basename, dirname, isAbsolute, join, matchesGlob, relative, resolve, sep } from "node:path";
export { fileURLToPath } from "node:url";
export { constants as vmConstants, runInThisContext } from "node:vm";
