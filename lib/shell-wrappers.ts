// Programs that run another program given as their remaining words. The one table of them: an
// Author may add entries (`api.wrappers`), and every wrapper is looked through to the real program.

import type { ShellWord, WrapperSpec } from "./api.ts";
import { basename } from "./shell-words.ts";

/** A list of flags, or of names, written as one string, apart by single spaces: `"-u --user"`. */
export const flags = (spellings: string): string[] => (spellings ? spellings.split(" ") : []);

/** A set of names written as one string, as `flags`. */
export const nameSet = (spellings: string): Set<string> => new Set(flags(spellings));

/** A table of names and values written as one string, each name and its value apart by a colon: `"read: test:-v"`. */
export const pairs = (text: string): Map<string, string> =>
  new Map(flags(text).map((pair) => pair.split(":") as [string, string]));

/**
 * A wrapper's entry from its flags, each list written as one string: those that take a value, those
 * with which it runs no program; then how many operands come before the program.
 */
const wrapper = (valueFlags = "", noRunFlags = "", operands = 0): WrapperSpec => ({
  valueFlags: flags(valueFlags),
  noRunFlags: flags(noRunFlags),
  operands,
});

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = Object.freeze({
  command: wrapper("", "-v -V"),
  builtin: wrapper(),
  exec: wrapper("-a"),
  env: {
    assignments: true,
    valueFlags: flags("-u --unset -C --chdir -S --split-string"),
    payloadFlags: flags("-S --split-string"),
    dirFlags: flags("-C --chdir"),
  },
  sudo: {
    assignments: true,
    valueFlags: flags(
      "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role -t --type -U --other-user -T --command-timeout -R --chroot",
    ),
    noRunFlags: flags("-l --list -v --validate -V --version -e --edit -K --remove-timestamp"),
    dirFlags: flags("-D --chdir"),
  },
  doas: wrapper("-u -a -C", "-C -L"),
  nohup: wrapper(),
  nice: wrapper("-n --adjustment"),
  // A keyword, which assignments and `!` may follow.
  time: { assignments: true, valueFlags: flags("-f --format -o --output") },
  timeout: wrapper("-s --signal -k --kill-after", "", 1),
  stdbuf: wrapper("-i --input -o --output -e --error"),
  setsid: wrapper(),
  ionice: wrapper("-c --class -n --classdata", "-p --pid -P --pgid -u --uid"),
  taskset: wrapper("", "-p --pid", 1),
  chrt: wrapper("-T --sched-runtime -P --sched-period -D --sched-deadline", "-p --pid -m --max", 1),
  chroot: wrapper("--userspec --groups", "", 1),
  flock: wrapper("-w --timeout --wait -E --conflict-exit-code", "", 1),
  runuser: wrapper("-u --user -g --group -G --supp-group -w --whitelist-environment -s --shell -c --command"),
  unbuffer: wrapper(),
  caffeinate: wrapper("-t -w"),
  eatmydata: wrapper(),
  fakeroot: wrapper("-l --lib --faked -s -i -b --fd-base"),
  coproc: { assignments: true },
  "!": wrapper(),
  busybox: wrapper("", "--list --help --install"),
});

export interface Unwrapped {
  /** Index of the program word; the wrapper's own index when it runs nothing. */
  program: number;
  /** A command line a wrapper runs (`env -S '…'`). */
  payload?: ShellWord;
  /** The directory a wrapper switches to; `null` when it does so with a value not known before run time. */
  dir?: ShellWord | null;
}

/** As `env` takes one: any name, even one a shell wouldn't assign (`a.b=1`), not an option. */
const ASSIGNMENT = /^[^=-][^=]*=/;

const NAMES = new WeakMap<Record<string, WrapperSpec>, Set<string>>();

/**
 * The names in the table; a set of them spares making every program name a property key. Kept per
 * table, so a table is never changed once made (WRAPPERS and the loader's are frozen).
 */
export function wrapperNames(wrappers: Record<string, WrapperSpec>): ReadonlySet<string> {
  let names = NAMES.get(wrappers);
  if (!names) {
    names = new Set(Object.keys(wrappers));
    NAMES.set(wrappers, names);
  }
  return names;
}

/** Looks through the wrappers at the start of `words`, from `from`. */
export function unwrap(words: readonly ShellWord[], from: number, wrappers: Record<string, WrapperSpec>): Unwrapped {
  const found: Unwrapped = { program: from };
  let at = from;
  while (at < words.length) {
    const word = words[at];
    const name = basename(word.text);
    const spec = !word.dynamic && wrapperNames(wrappers).has(name) ? wrappers[name] : undefined;
    if (!spec) break;
    const next = afterOptions(words, at + 1, spec, found);
    // Without -u, runuser is su: a user follows its options, then the shell's arguments (shell-parse.ts).
    if (name === "runuser" && afterOptions(words, at + 1, { ...spec, noRunFlags: ["-u", "--user"] }) >= 0) break;
    // No program is named like an option: `flock f -c '…'` runs a command line (shell-parse.ts).
    if (next < 0 || next >= words.length || words[next].text[0] === "-") break;
    at = next;
  }
  found.program = Math.min(at, Math.max(words.length - 1, 0));
  return found;
}

/**
 * Skips a wrapper's options from `at`, noting payloads and directories in `found`. Returns where
 * the wrapped program starts, or -1 when the wrapper runs none.
 */
export function afterOptions(words: readonly ShellWord[], at: number, spec: WrapperSpec, found?: Unwrapped): number {
  const valueFlags = spec.valueFlags ?? [];
  const noRun = spec.noRunFlags ?? [];
  const assignments = spec.assignments === true;
  const take = (flag: string, value: ShellWord | undefined) => {
    if (!found || !value) return;
    if (spec.payloadFlags?.includes(flag)) found.payload = value;
    if (spec.dirFlags?.includes(flag)) found.dir = value.dynamic ? null : value;
  };
  // Past a `--`, only assignments may come before the program: `env -- A=1 cmd`.
  let options = true;
  while (at < words.length) {
    const word = words[at];
    const text = word.text;
    if (assignments && ASSIGNMENT.test(text)) {
      at++;
      continue;
    }
    if (!options) break;
    // `-` alone is env's `-i`; no program is named `-`.
    if (text === "--" || text === "-") {
      options = text === "-";
      at++;
      continue;
    }
    if (text.length < 2 || text[0] !== "-" || word.dynamic) break;
    if (text[1] === "-") {
      const equals = text.indexOf("=");
      const written = equals === -1 ? text : text.slice(0, equals);
      // getopt takes a long option's start when only one option starts so: `--sig` for `--signal`. Not
      // for one that runs nothing: the table may not know an option that starts so too.
      const flag =
        noRun.includes(written) || valueFlags.includes(written)
          ? written
          : (valueFlags.find((each) => each.startsWith(written)) ?? written);
      if (noRun.includes(flag)) return -1;
      if (valueFlags.includes(flag)) {
        if (equals === -1) {
          take(flag, words[at + 1]);
          at++;
        } else take(flag, part(word, equals + 1));
      }
      at++;
      continue;
    }
    for (let index = 1; index < text.length; index++) {
      const flag = `-${text[index]}`;
      if (noRun.includes(flag)) return -1;
      if (valueFlags.includes(flag)) {
        if (index + 1 < text.length) take(flag, part(word, index + 1));
        else {
          take(flag, words[at + 1]);
          at++;
        }
        break;
      }
    }
    at++;
  }
  return at + (spec.operands ?? 0);
}

/** The rest of a word from `offset` of its text: an attached flag value, an alias's value. */
export const part = (word: ShellWord, offset: number): ShellWord => ({
  text: word.text.slice(offset),
  start: Math.min(word.start + offset, word.end),
  end: word.end,
  dynamic: word.dynamic,
});
