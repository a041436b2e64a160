// One simple command as bash would run it, and the questions an Author asks of it.

import type {
  ShellCommand as AuthorShellCommand,
  ShellRedirect,
  ShellSpan,
  ShellVia,
  ShellWord,
  ValueFlagsOption,
} from "./api.ts";
import { flags } from "./shell-wrappers.ts";

export type { ShellRedirect, ShellSpan, ShellVia, ShellWord, ValueFlagsOption };

/** Global flags that take a value, for programs whose subcommands Authors match most. */
const KNOWN_VALUE_FLAGS = new Map<string, readonly string[]>([
  ["git", flags("-C -c --git-dir --work-tree --namespace --exec-path --config-env --super-prefix")],
  ["docker", flags("-H --host -c --context --config -l --log-level")],
  ["kubectl", flags("-n --namespace --context --cluster --kubeconfig -s --server --user --as")],
]);

/** The empty list of words or redirects shared by every command that has none, so a parse allocates only what it finds. */
export const NONE = Object.freeze([]) as unknown as never[];

export class ShellCommand implements AuthorShellCommand {
  /** Every word after the leading assignments: wrappers, the program, its arguments. */
  words: ShellWord[] = NONE;
  /** Leading `NAME=value` words (and `env`'s). */
  assignments: ShellWord[] = NONE;
  redirects: ShellRedirect[] = NONE;
  span: ShellSpan;
  /**
   * Where it runs, relative to the call's working directory, or absolute, or `~/…`; undefined when
   * unknown. A directory named `~` (`cd '~'`) reads `./~`: only home starts with `~`.
   */
  dir: string | undefined;
  via: ShellVia;
  /** Words of wrappers before the program: `sudo -u root`, `env -i`, `timeout 5`. */
  wrappers: ShellWord[] = NONE;
  program: ShellWord | undefined;
  /** Basename of the program as bash decodes it (`/usr/bin/git` → `git`); "" for a bare redirect. */
  programName = "";
  args: ShellWord[] = NONE;

  constructor(start: number, dir: string | undefined, via: ShellVia) {
    this.span = { start, end: start };
    this.dir = dir;
    this.via = via;
  }

  /** Any of the spellings among the flags before `--`; `-r` also matches inside a bundle such as `-rf`. */
  hasFlag(...spellings: string[]): boolean {
    for (const arg of this.args) {
      const text = arg.text;
      if (text === "--") return false;
      if (text.length < 2 || text.charCodeAt(0) !== 45 /* - */ || arg.dynamic) continue;
      const long = text.charCodeAt(1) === 45;
      for (const spelling of spellings) {
        if (text === spelling) return true;
        if (long) {
          if (text.startsWith(`${spelling}=`)) return true;
        } else if (/^-[^-]$/.test(spelling)) {
          if (text.includes(spelling[1], 1) && /^-[A-Za-z0-9]+$/.test(text)) return true;
        }
      }
    }
    return false;
  }

  /** The first word that is not a flag nor a flag's value: `git -C . add x` → `add`. */
  subcommand(options?: ValueFlagsOption): ShellWord | undefined {
    return positionalWords(this, options, true)[0];
  }

  /** The words that are not flags nor flags' values; everything after `--`. */
  positionals(options?: ValueFlagsOption): ShellWord[] {
    return positionalWords(this, options, false);
  }
}

// Not a private method: with one, an Author-shaped `ShellCommand` (api.ts) would not pass where code takes this class.
function positionalWords(command: ShellCommand, options: ValueFlagsOption | undefined, first: boolean): ShellWord[] {
  const valueFlags = options?.valueFlags ?? KNOWN_VALUE_FLAGS.get(command.programName) ?? [];
  const found: ShellWord[] = [];
  const args = command.args;
  for (let index = 0; index < args.length; index++) {
    const text = args[index].text;
    if (text === "--") {
      for (let rest = index + 1; rest < args.length && !(first && found.length); rest++) found.push(args[rest]);
      break;
    }
    if (text.length > 1 && text.charCodeAt(0) === 45 && !args[index].dynamic) {
      if (valueFlags.includes(text)) index++;
      continue;
    }
    found.push(args[index]);
    if (first) break;
  }
  return found;
}
