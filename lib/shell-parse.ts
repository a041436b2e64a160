// Every simple command a bash command line would run: the scanned commands, looked through their
// wrappers, plus what they run in turn — `sh -c`/`eval`/`env -S` payloads, heredocs and
// here-strings fed to a shell, `xargs` and `find -exec` commands. Pure and synchronous.

import type { WrapperSpec } from "./api.ts";
import { NONE, ShellCommand, type ShellVia, type ShellWord } from "./shell-command.ts";
import { MAX_DEPTH, NAME_SUBSCRIPT_RUNS, namesCode, relocate, runsCode, scan, subscriptRuns } from "./shell-scan.ts";
import { basename, changeDir, decodeMapped, literalDir } from "./shell-words.ts";
import { afterOptions, flags, nameSet, pairs, part, type Unwrapped, unwrap, WRAPPERS, wrapperNames } from "./shell-wrappers.ts";

export interface ParsedShell {
  /** In source order; a command reached through another comes after it. */
  commands: ShellCommand[];
  /** False when some of the input could not be followed (bad syntax, a payload known only at run time, limits). */
  complete: boolean;
}

const NOT_WRAPPED: Unwrapped = Object.freeze({ program: 0 });
/** `/proc/self/exe` is the shell that runs it. */
const SHELLS = nameSet("sh bash rbash zsh dash ksh exe");

const XARGS: WrapperSpec = {
  valueFlags: flags("-I -L -n -P -s -d -E -a --arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var"),
};

const FIND_ACTIONS = nameSet("-exec -execdir -ok -okdir");

/** `watch`'s options before the command it runs, as `sh -c` of its words joined. */
const WATCH: WrapperSpec = { valueFlags: flags("-n --interval -q --equexit -s --shotsdir") };

/**
 * Programs that run code given as an option's value, wherever it stands: its letter, alone or in a
 * bundle, the code attached or next (`-lc`, `-c'…'`); `--command` too. su's are read in `#su`.
 */
const CODE_OPTIONS = pairs("flock:c script:c mapfile:C readarray:C compgen:C");

/** Never throws: a failure inside is reported as an incomplete parse. `wrappers`: the table with the Authors' entries. */
export function parseShell(source: string, wrappers: Record<string, WrapperSpec> = WRAPPERS): ParsedShell {
  try {
    return EXPANSION.expand(source, scan(source, "source", ".", 0), wrappers);
  } catch {
    return { commands: [], complete: false };
  } finally {
    EXPANSION.end();
  }
}

const NOTHING_PARSED: ParsedShell = Object.freeze({ commands: [], complete: true });

/**
 * The commands of a parse, growing as those written are looked through and what they run is added.
 * The fields are set by `#begin`.
 */
class Expansion {
  #source!: string;
  #parsed!: ParsedShell;
  #wrappers!: Record<string, WrapperSpec>;
  #wrapperNames!: ReadonlySet<string>;
  /** How many commands the source itself holds; the rest were reached through them. */
  #written!: number;
  /** How deep each command after the written ones was reached; null until there is one. */
  #depths!: number[] | null;
  #unsorted!: boolean;
  /**
   * What payloads and heredocs fed to a shell may still cost, as source read and text scanned again: a
   * multiple of the source, so time stays linear however they nest.
   */
  #budget!: number;
  /** Whether the source, or a payload scanned so far, gives text as input: a heredoc, a here-string, `<(…)`. */
  #gives!: boolean;
  /** Whether the source names `SHELL`, which some programs start. */
  #shell!: boolean;

  /** `parsed`, the scan of `source`, with every command looked through and what it runs added. */
  expand(source: string, parsed: ParsedShell, wrappers: Record<string, WrapperSpec>): ParsedShell {
    this.#begin(source, parsed, wrappers);
    const commands = parsed.commands;
    for (let index = 0; index < commands.length; index++) this.#follow(commands[index], index);
    if (this.#unsorted) commands.sort((a, b) => a.span.start - b.span.start);
    return parsed;
  }

  /** Lets go of the parse, so that the object kept for the next one holds nothing of it. */
  end(): void {
    this.#source = "";
    this.#parsed = NOTHING_PARSED;
    this.#wrappers = WRAPPERS;
    this.#depths = null;
  }

  #begin(source: string, parsed: ParsedShell, wrappers: Record<string, WrapperSpec>): void {
    this.#source = source;
    this.#parsed = parsed;
    this.#wrappers = wrappers;
    this.#wrapperNames = wrapperNames(wrappers);
    this.#written = parsed.commands.length;
    this.#depths = null;
    this.#unsorted = false;
    this.#budget = 4 * source.length + 4096;
    this.#gives = source.includes("<") && GIVES.test(source);
    this.#shell = source.includes("SHELL");
  }

  /** Looks `command` (the `index`th) through its wrappers to its program, and adds what that runs. */
  #follow(command: ShellCommand, index: number): void {
    const words = command.words;
    if (words === NONE || !words.length) return;
    const depth = (index < this.#written ? 0 : (this.#depths as number[])[index - this.#written]) + 1;
    const first = words[0];
    const firstName = nameOf(first);
    const found = !first.dynamic && this.#wrapperNames.has(firstName) ? unwrap(words, 0, this.#wrappers) : NOT_WRAPPED;
    const program = words[found.program];
    if (found.program > 0) command.wrappers = words.slice(0, found.program);
    command.program = program;
    command.programName = program === first ? firstName : nameOf(program);
    command.args = words.length > found.program + 1 ? words.slice(found.program + 1) : NONE;
    if (found.dir !== undefined) command.dir = found.dir ? joinDir(command.dir, found.dir.text) : undefined;
    if (found.payload) {
      // `env -S` turns `\_` into a space and expands `${…}` before the shell's rules apply.
      // env reads options from it too: `env -S '-u X rm y'`.
      if (/[\\$]|^\s*-/.test(found.payload.text)) this.#incomplete();
      this.#payload([found.payload], "eval", command, depth);
    }
    // Most commands have neither: the shared empty list is not looked into.
    const wrappers = command.wrappers;
    if ((command.assignments !== NONE && command.assignments.some(runsCode)) || (wrappers !== NONE && wrappers.some(runsCode)))
      this.#incomplete();
    // runuser takes options after its program too, up to a `--`: `runuser -u u sh -- -c …` runs `sh -c …`.
    const runuser = wrappers === NONE ? -1 : wrappers.findIndex(({ text }) => basename(text) === "runuser");
    if (
      runuser >= 0 &&
      !command.wrappers.some(({ text }, at) => at > runuser && text === "--") &&
      command.args.some(({ text }) => text[0] === "-")
    )
      this.#incomplete();
    if (program.dynamic) return;
    const name = command.programName;
    // These start $SHELL (su with -m or -p, sudo -s, flock -c, script, chroot and fakeroot without a command), which the line may set.
    if (this.#shell && words.some(({ text }) => SHELL_USERS.has(basename(text)))) this.#incomplete();
    // A wrapper xargs runs takes its program from the input: `xargs env <<< 'rm y'`.
    if (command.via === "xargs" && this.#wrapperNames.has(name)) this.#incomplete();
    // Most programs run nothing they are given: the rest is for those that may.
    if (RUNNERS.has(name)) this.#followRunner(command, name, words, found, depth);
  }

  /** What a program that may run code (a shell, eval, xargs…) runs, or sets that does. */
  #followRunner(command: ShellCommand, name: string, words: ShellWord[], found: Unwrapped, depth: number): void {
    const codeLetter = CODE_OPTIONS.get(name);
    const run = SHELLS.has(name)
      ? shellInput(command.args, command, this.#source, this.#gives)
      : name === "su" || name === "runuser"
        ? this.#su(command, depth)
        : null;
    if (run !== null) {
      if (run === "stdin") this.#stdin(command, depth);
      else if (run === DYNAMIC) {
        this.#incomplete();
        this.#stdin(command, depth);
      } else if (run) this.#payload([run], "-c", command, depth);
    } else if (name === "eval") {
      const code = operands(command.args);
      if (code.length) this.#payload(code, "eval", command, depth);
    } else if (codeLetter) {
      const args = command.args;
      // The last one runs, but another option's value may look like one (`script -c 'rm y' -O -c`):
      // each is followed. script's long options may be shortened (`--co`).
      let coded = false;
      args.forEach(({ text }, at) => {
        if (text.startsWith("--c") || (/^-[A-Za-z]/.test(text) && text.includes(codeLetter))) {
          coded = true;
          const code = optionValue(args, at, codeLetter);
          if (code) this.#payload([code], "-c", command, depth);
        }
      });
      if (!coded && SHELL_STARTERS.has(name)) this.#stdin(command, depth);
      // mapfile's array may be a variable that runs code: `mapfile PS4 < f`. (An operand of flock or
      // script named so is only a file, and reads as incomplete too: rare, and on the safe side.)
      if (args.some(namesCode)) this.#incomplete();
    } else if (name === "sg") {
      // `sg [-] group [-c] 'code'`: the code runs through sh.
      let [, code, after] = command.args.filter(({ text }) => text !== "-");
      if (code?.text === "-c") code = after;
      if (code) this.#payload([code], "-c", command, depth);
      else this.#stdin(command, depth);
    } else if (SHELL_STARTERS.has(name) && afterOptions(command.args, 0, this.#wrappers[name] ?? {}) >= 0) {
      this.#stdin(command, depth);
    } else if (DECLARATIONS.has(name)) {
      // `export PS4=…` sets it as an assignment does; bash evaluates a subscript in what they assign.
      // With -n (export's un-exports), a name refers to the variable its value names, or that an
      // assignment names later: `declare -n p=PS4; p='$(…)'`.
      if (command.args.some((arg) => runsCode(arg) || namesCode(arg)) || (name !== "export" && command.hasFlag("-n")))
        this.#incomplete();
    } else if (NAME_FLAGS.has(name)) {
      // A variable these set may be one that runs code; bash evaluates a subscript in its name.
      const flag = NAME_FLAGS.get(name);
      const args = command.args;
      // Each of let's operands is arithmetic: `let '1+a[$(…)]'`.
      const named = (arg: ShellWord, at: number) =>
        (name === "let" || /^[A-Za-z_]\w*(\[|$)/.test(arg.text)) &&
        (!flag || args[at - 1]?.text === flag) &&
        (namesCode(arg) || NAME_SUBSCRIPT_RUNS.test(arg.text) || subscriptRuns(arg));
      if (args.some(named)) this.#incomplete();
    } else if (name === "alias") {
      // A value runs where its name is used: sh expands aliases, and so does bash with expand_aliases.
      for (const arg of command.args) {
        const equals = arg.text.indexOf("=");
        if (equals > 0) this.#payload([part(arg, equals + 1)], "eval", command, depth);
      }
    } else if (name === "trap") {
      // Its first operand, when a signal follows, is code the shell runs later.
      const [code, signal] = operands(command.args);
      // After `--`, only `-` alone resets.
      if (signal && code.text !== "-" && (code !== command.args[0] || code.text[0] !== "-"))
        this.#payload([code], "eval", command, depth);
    } else if (name === "source" || name === ".") {
      const file = operands(command.args)[0]?.text ?? "";
      if (STDIN_FILES.has(file)) this.#stdin(command, depth);
      else if (given(this.#gives, command, file)) this.#incomplete();
    } else if (name === "hash") {
      // `hash -p /bin/rm ls`: from here on, `ls` runs rm.
      if (command.hasFlag("-p")) this.#incomplete();
    } else if (name === "watch") {
      const start = afterOptions(words, found.program + 1, WATCH);
      if (start < words.length) this.#payload(words.slice(start), "eval", command, depth);
    } else if (name === "xargs") {
      const start = afterOptions(words, found.program + 1, XARGS);
      // -I, -i and --replace name a string that input takes the place of (`xargs -I{} sh -c {}`); `{}` unless named.
      const at = words.findIndex(({ text }, index) => index < start && /^-[Ii]|^--r/.test(text));
      const option = at < 0 ? "" : words[at].text;
      const replace = option[1] === "I" ? optionValue(words, at, "I")?.text : option.replace(/^-i|^--\w*=?/, "");
      if (start < words.length) this.#add(derived(words.slice(start), "xargs", command.dir, replace || "{}"), depth);
    } else if (name === "find") {
      const args = command.args;
      for (let at = 0; at < args.length; at++) {
        if (!FIND_ACTIONS.has(args[at].text)) continue;
        const first = at + 1;
        let end = first;
        while (end < args.length && args[end].text !== ";" && !(args[end].text === "+" && args[end - 1].text === "{}")) end++;
        if (end >= args.length) this.#incomplete();
        if (end > first)
          this.#add(derived(args.slice(first, end), "find", args[at].text.endsWith("dir") ? undefined : command.dir), depth);
        at = end;
      }
    }
  }

  /**
   * What su (and runuser without -u) makes its shell run: the shell gets `-c` and the code when given
   * one, then the operands after the user. Options may come among or after the operands, not past `--`.
   */
  #su(command: ShellCommand, depth: number): ReturnType<typeof shellInput> {
    const args = command.args;
    // Bash may split an expansion into several words, any of them an option.
    if (args.some(({ dynamic }) => dynamic)) this.#incomplete();
    let code: ShellWord | undefined;
    // With POSIXLY_CORRECT in its environment, su's options end at the user and the shell gets the
    // words after it: the last -c before the user runs, or else the first after it (`su root -c A -c B`).
    let posix: ShellWord | undefined;
    const operands: ShellWord[] = [];
    for (let at = 0; at < args.length; at++) {
      const text = args[at].text;
      if (text === "--") {
        operands.push(...args.slice(at + 1));
        break;
      }
      if (!/^-./.test(text)) {
        operands.push(args[at]);
        continue;
      }
      // A long option may be shortened; one not su's makes it exit, so its first letters tell which.
      const letter = /[cgGsuw]/.exec(
        text[1] !== "-" ? text : text[2] === "s" ? "csG".charAt("ehu".indexOf(text[3])) : text[2],
      )?.[0];
      if (!letter) continue;
      const value = optionValue(args, at, letter);
      if (value === args[at + 1]) at++;
      if (letter === "c") {
        code = value;
        if (!operands.length || !posix) posix = value;
      }
      // The shell it starts is what runs; one that is no shell is a program not seen. With -u, runuser
      // runs a program (`runuser R -u nobody`); su has no -u.
      else if (letter === "u" || (letter === "s" && !SHELLS.has(basename(value?.text ?? "")))) this.#incomplete();
    }
    if (posix !== code) this.#payload([posix as ShellWord], "-c", command, depth);
    return code ?? shellInput(operands.slice(operands[0]?.text === "-" ? 2 : 1), command, this.#source, this.#gives);
  }

  /** A shell reading its commands from stdin: its here-strings and heredocs. */
  #stdin(command: ShellCommand, depth: number): void {
    const source = this.#source;
    // The last redirect to fd 0 is stdin: `0>&3` too.
    const redirect = command.redirects.findLast(({ op }) => /^(0*<|0+>)/.test(op));
    const target = redirect?.target;
    // With no input of its own, or one from another fd, it reads what it inherits: a heredoc or
    // here-string given to a command around it (`{ bash; } <<EOF`, `eval bash <<< …`, `exec <<< …; bash`) is not followed.
    if (!target || redirect.op.endsWith("&")) {
      if (this.#gives) this.#incomplete();
    } else if (redirect.op.endsWith("<<<")) this.#payload([target], "stdin", command, depth);
    else if (given(this.#gives, command, target.text)) this.#incomplete();
    else if (redirect.body) {
      // In a payload, offsets point into the words that spelled it, which may not spell the body.
      if (command.via !== "source") this.#incomplete();
      const body = redirect.body;
      const quoted = target.text !== source.slice(target.start, target.end);
      if (!this.#charge(body.end - body.start)) return;
      const text = source.slice(body.start, body.end);
      const parsed = scan(text, "stdin", command.dir, depth);
      // Unquoted, the body is expanded first: its `$`, backticks and backslashes are not yet what the shell reads.
      if (!parsed.complete || (!quoted && /[$`\\]/.test(text))) this.#incomplete();
      for (const inner of parsed.commands) {
        relocate(inner, (offset) => offset + body.start);
        this.#add(inner, depth);
      }
    }
  }

  /** Takes `cost` from the budget; false, with the parse incomplete, when it runs out. */
  #charge(cost: number): boolean {
    this.#budget -= cost;
    if (this.#budget >= 0) return true;
    this.#incomplete();
    return false;
  }

  /** Some of the input could not be followed. */
  #incomplete(): void {
    this.#parsed.complete = false;
  }

  #add(command: ShellCommand, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.#incomplete();
      return;
    }
    const commands = this.#parsed.commands;
    if (commands[commands.length - 1].span.start > command.span.start) this.#unsorted = true;
    commands.push(command);
    if (!this.#depths) this.#depths = [depth];
    else this.#depths.push(depth);
  }

  /**
   * Adds the commands of the code in `words` (joined by spaces, as `eval` does) that `runner` runs,
   * with offsets mapped back to the source.
   */
  #payload(words: ShellWord[], via: ShellVia, runner: ShellCommand, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.#incomplete();
      return;
    }
    // The larger of the source read and the text scanned: a word of a payload may decode to more than its span.
    const span = words[words.length - 1].end - words[0].start;
    if (!this.#charge(span)) return;
    const dynamic = words.some((word) => word.dynamic);
    let text = "";
    let at: (offset: number) => number;
    if (dynamic) {
      // Known only at run time: parse what is written, with offsets inside the words.
      text = words.map((word) => word.text).join(" ");
      const first = words[0].start;
      const last = words[words.length - 1].end;
      at = (offset) => Math.min(first + offset, Math.max(last - 1, first));
    } else {
      const map: number[] = [];
      for (const word of words) {
        // The previous word's end offset stands for the space between.
        if (map.length) text += " ";
        const decoded = decodeMapped(this.#source, word.start, word.end);
        if (decoded.text === word.text) {
          text += decoded.text;
          for (const offset of decoded.map) map.push(offset);
        } else {
          // A word of a payload, whose span in the source does not spell it: its characters point into its span.
          text += word.text;
          for (let offset = 0; offset < word.text.length; offset++)
            map.push(Math.min(word.start + offset, Math.max(word.end - 1, word.start)));
          map.push(word.end);
        }
      }
      at = (offset) => map[offset];
    }
    if (!this.#charge(Math.max(text.length - span, 0))) return;
    if (GIVES.test(text)) this.#gives = true;
    const parsed = scan(text, via, ".", depth);
    if (!parsed.complete || dynamic) this.#incomplete();
    for (const command of parsed.commands) {
      relocate(command, at);
      command.dir = runner.dir === undefined || command.dir === undefined ? undefined : changeDir(runner.dir, command.dir);
      this.#add(command, depth);
    }
  }
}

/** One for every parse, as parses do not nest (payloads are only scanned): a parse allocates what it returns. */
const EXPANSION = new Expansion();

/**
 * What a shell's arguments make it run: a `-c` payload word, "stdin", DYNAMIC when options may be
 * known only at run time (`bash $x`, `bash "$@"`, `bash <(…)`) or a file it reads may be `given`, or
 * undefined (a script file, or `-c` without one).
 */
function shellInput(
  args: ShellWord[],
  shell: ShellCommand,
  source: string,
  gives: boolean,
): ShellWord | "stdin" | typeof DYNAMIC | undefined {
  let command = false;
  let stdin = false;
  let at = 0;
  while (at < args.length) {
    const word = args[at];
    const text = word.text;
    if (word.dynamic) {
      if (command) break;
      // Starting with an unquoted expansion (`$x`, `<(…)`, code from another command, a glob or a
      // brace: `*` may match a file named `-c`) or a list (`"$@"`), its words may be options, or none
      // (the shell then reads stdin); else it is the script.
      if (/^([$`<*?[{@!]|"\$(\{\w*\[)?[@*])/.test(source.slice(word.start, word.end))) return DYNAMIC;
      break;
    }
    if (text === "--" || text === "-") {
      at++;
      break;
    }
    if (/^[-+][A-Za-z]+$/.test(text)) {
      // `+c` and `+s` turn them on too.
      if (text.includes("c")) command = true;
      if (text.includes("s")) stdin = true;
      // Each `o` in a bundle takes a word: `-oc posix '…'`.
      at += 1 + (text.match(/[oO]/g)?.length ?? 0);
      continue;
    }
    if (text.startsWith("--")) {
      if (/^--(rc|init-)file$/.test(text) && given(gives, shell, args[++at]?.text)) return DYNAMIC;
      at++;
      continue;
    }
    break;
  }
  // Without its code, a shell given input (xargs) takes it from there.
  if (command) return args[at] ?? DYNAMIC;
  if (stdin || at >= args.length || STDIN_FILES.has(args[at].text)) return "stdin";
  return given(gives, shell, args[at].text) ? DYNAMIC : undefined;
}

/**
 * Whether a file `command` reads as code may be text the line `gives` (a heredoc, a here-string, `<(…)`):
 * by a descriptor's path, in any spelling and from any directory (`cd /dev/fd; bash 3`), or whatever
 * its name when the command opens input on another fd.
 */
const given = (gives: boolean, command: ShellCommand, file = ""): boolean =>
  gives &&
  (file[0] === "<" ||
    /(^|\/)(dev|proc)\//.test(command.dir === undefined ? "/dev/" : `${command.dir}/${file}`) ||
    command.redirects.some(({ op }) => /^(?!0?<).*</.test(op)));

const GIVES = /<[<(]/;

/** A word's program name: as written when known only at run time, else its basename. */
const nameOf = (word: ShellWord): string => (word.dynamic ? word.text : basename(word.text));

/**
 * The value of the option in `args[at]` whose letter is `letter`, or a long option's: attached
 * (`-lc'…'`, `--command=…`), or the next word.
 */
function optionValue(args: ShellWord[], at: number, letter: string): ShellWord | undefined {
  const word = args[at];
  const text = word.text;
  const long = text[1] === "-";
  const start = (long ? text.indexOf("=") : text.indexOf(letter)) + 1;
  // `--command=` gives an empty value.
  return start && (long || start < text.length) ? part(word, start) : args[at + 1];
}

/**
 * Programs that start a shell when given no command (sudo: no program, nor a flag with which it runs
 * none, as -v; script: no -c), and so run what the shell reads from stdin.
 */
const SHELL_STARTERS = nameSet("script sudo doas newgrp chroot fakeroot");

const SHELL_USERS = nameSet("su runuser sudo doas flock script chroot fakeroot");

/** Builtins whose operands may be assignments. */
const DECLARATIONS = nameSet("export declare typeset local readonly");

/** Builtins given variables' names: any operand of read, unset and let; the value of printf's and test's `-v`, wait's `-p`. */
const NAME_FLAGS = pairs("read: unset: let: printf:-v test:-v [:-v wait:-p");

/** The programs #follow looks into: every name its tables and comparisons know. */
const RUNNERS = new Set([
  ...SHELLS,
  ...CODE_OPTIONS.keys(),
  ...SHELL_STARTERS,
  ...DECLARATIONS,
  ...NAME_FLAGS.keys(),
  ...nameSet("su runuser eval sg alias trap source . hash watch xargs find"),
]);

/** A builtin's operands: its arguments after a leading `--`. */
const operands = (args: ShellWord[]): ShellWord[] => (args[0]?.text === "--" ? args.slice(1) : args);

const DYNAMIC = 0;
/** A script file that is the shell's own input. */
const STDIN_FILES = nameSet("/dev/stdin /dev/fd/0 /proc/self/fd/0");

/** `replace`: the string the runner replaces with its input, in any word: find's `{}`, xargs -I's. */
function derived(words: ShellWord[], via: ShellVia, dir: string | undefined, replace = "{}"): ShellCommand {
  const command = new ShellCommand(words[0].start, dir, via);
  command.words = words.map((word) => (word.text.includes(replace) ? { ...word, dynamic: true } : word));
  command.span.end = words[words.length - 1].end;
  return command;
}

/** `target`: a wrapper's directory as the wrapper gets it, known before run time: a leading `~` is part of its name. */
function joinDir(base: string | undefined, target: string): string | undefined {
  if (target.startsWith("/")) return changeDir(".", target);
  return base === undefined ? undefined : changeDir(base, literalDir(target));
}
