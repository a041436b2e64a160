// The bash scanner: one pass over the source, with an explicit stack of frames instead of recursion
// (so 10,000 nested `$( )` cost no call depth), collecting every simple command as written, with
// decoded words, redirects and the directory it runs in. Wrappers and payloads come later
// (shell-parse.ts). Never throws; anything it cannot follow clears `complete`.

import { NONE, ShellCommand, type ShellRedirect, type ShellVia, type ShellWord } from "./shell-command.ts";
import { changeDir, decodeAnsiC, isRooted, literalDir, TILDE_PATH } from "./shell-words.ts";

const TAB = 9;
const NL = 10;
const SP = 32;
const BANG = 33;
const DQ = 34;
const HASH = 35;
const DOLLAR = 36;
const AMP = 38;
const SQ = 39;
const LP = 40;
const RP = 41;
const STAR = 42;
const COMMA = 44;
const DOT = 46;
const SEMI = 59;
const LT = 60;
const GT = 62;
const QM = 63;
const AT = 64;
const LB = 91;
const BS = 92;
const RB = 93;
const BT = 96;
const LC = 123;
const PIPE = 124;
const RC = 125;
const TILDE = 126;

/** Nested sub-scans (escaped backticks) and payloads deeper than this are not followed. */
export const MAX_DEPTH = 32;

// Frame kinds.
const LIST = 0;
const WORD = 1;
const PARAM = 2;
const ARITH = 3;
const HERE = 4;

// What the next word of a list means.
const S_CMD = 0;
const S_REDIR = 1;
const S_FOR_NAME = 2;
const S_FOR_REST = 3;
const S_CASE_SUBJECT = 4;
const S_CASE_IN = 5;
const S_CASE_PAT = 6;
const S_DBRACKET = 7;
const S_FUNC_NAME = 8;

// Compound commands.
const C_SUBSHELL = 0;
const C_BRACE = 1;
const C_IF = 2;
const C_LOOP = 3;
const C_CASE = 4;
const C_FUNCTION = 5;

interface Construct {
  kind: number;
  /** The compound command this one is in, in the same list. */
  outer: Construct | null;
  currentDir: string | undefined;
  pipeDir: string | undefined;
  andOrDir: string | undefined;
  piped: boolean;
  conditional: number;
  doubt: boolean;
}

/**
 * List frames are reused like word frames (newList, releaseList), and with them the arrays they
 * gather words in. Fields without an initializer are set by clearList.
 */
class ListFrame {
  readonly kind = LIST;
  /** Closed by `)` (a `$( )` or process substitution), else by the end of the source. */
  closes = false;
  /**
   * The words of `cmd` so far, given to it when it ends: an array of the size it needs, where one
   * grown by pushing would be sized for the longest command seen.
   */
  readonly cmdWords: ShellWord[] = [];
  declare state: number;
  declare cmd: ShellCommand | null;
  declare lastEnd: number;
  /** The redirect whose target the next word is. */
  declare awaitingTarget: ShellRedirect | null;
  /** 0: not a heredoc; 1: `<<`; 2: `<<-`. */
  declare heredocKind: number;
  /** The innermost compound command open. */
  declare construct: Construct | null;
  /** Where the next command runs, as `cd`s before it leave it; undefined when unknown. */
  declare currentDir: string | undefined;
  /** The directory at the start of the pipeline, and of the and-or list (`a && b | c`). */
  declare pipeDir: string | undefined;
  declare andOrDir: string | undefined;
  declare piped: boolean;
  /**
   * Past a `&&` (1) or an `||` (2): a `cd` from here on may not have run, and past an `||`, the
   * commands after it may run without it.
   */
  declare conditional: number;
  /** After `|`, `&&` or `||`, before the command that must follow. */
  declare expectsCommand: boolean;
  declare doubt: boolean;
  declare dirStack: (string | undefined)[] | null;

  constructor() {
    clearList(this);
  }
}

/** What every list starts with; a frame given back so lets go of what it held of the last parse. */
function clearList(f: ListFrame): void {
  f.state = S_CMD;
  f.lastEnd = f.heredocKind = f.conditional = 0;
  f.cmd = f.awaitingTarget = f.construct = f.dirStack = null;
  f.cmdWords.length = 0;
  f.currentDir = f.pipeDir = f.andOrDir = undefined;
  f.piped = f.expectsCommand = f.doubt = false;
}

/**
 * Word frames are reused, across parses too (newWord, releaseWord): a parse allocates the words it
 * finds, not one frame per word. Fields without an initializer are set by clearWord.
 */
class WordFrame {
  readonly kind = WORD;
  /** The list the word is in. */
  owner!: ListFrame;
  /** The word's first offset. */
  startsAt = 0;
  /** Where the run of characters not yet added to `decoded` starts. */
  runStart = 0;
  /** The word's text, quotes and escapes removed, up to `runStart`. */
  declare decoded: string;
  declare doubleQuoted: boolean;
  /** Offset of the first quote or backslash: an assignment's name and `=` come before it. */
  declare firstQuote: number;
  /** The word will be `dynamic`: known only at run time. */
  declare atRunTime: boolean;
  /** A `$` or backtick in it may be text: quoted, escaped or alone. */
  declare quoted: boolean;
  /** Depth inside an array assignment `a=( … )` or an extglob `@( … )`. */
  declare paren: number;
  /** Depth inside brackets, quoted ones not counted. */
  declare bracket: number;
  /**
   * Whether an unquoted `=` or `+=` follows where the first bracket closed, found as bash finds a
   * subscript's end; undefined until one closes.
   */
  declare closes: boolean | undefined;
  /** Where the first bracket closed, as an offset into the decoded text: the end of an assignment's name. */
  declare nameEnd: number;
  /** 1: an unquoted `{` seen; 2: and then a `,` or `..`. */
  declare brace: number;

  constructor() {
    clearWord(this);
  }
}

/** What every word starts with; a frame given back so lets go of its text, which may be a large part of the last input. */
function clearWord(w: WordFrame): void {
  w.decoded = "";
  w.doubleQuoted = w.atRunTime = w.quoted = false;
  w.firstQuote = UNQUOTED;
  w.paren = w.brace = w.bracket = 0;
  w.closes = undefined;
}

interface ParamFrame {
  kind: typeof PARAM;
  owner: ListFrame;
  doubleQuoted: boolean;
}

interface ArithFrame {
  kind: typeof ARITH;
  owner: ListFrame;
  parenDepth: number;
  /** `$((` inside a word, `((` as a command, or `for ((`. */
  arithForm: number;
  /** Where it opened (`$` or the first `(`), and how many commands there were: bash reads `((a) )` as subshells after all. */
  openedAt: number;
  commandsBefore: number;
}

const ARITH_WORD = 0;
const ARITH_COMMAND = 1;
const ARITH_FOR = 2;
/** Arithmetic that turned out to be subshells is tried again only this often, so time stays linear. */
const ARITH_RETRIES = 64;

interface HereFrame {
  kind: typeof HERE;
  owner: ListFrame;
  end: number;
  resume: number;
}

type Frame = ListFrame | WordFrame | ParamFrame | ArithFrame | HereFrame;

interface PendingHeredoc {
  /** The delimiter: the line, leading tabs stripped when `strip`, that ends the body. */
  endLine: string;
  quoted: boolean;
  strip: boolean;
  /** The redirect it is the body of. */
  bodyOf: ShellRedirect;
}

/**
 * What a reserved word in command position does, as one number: the compound command it opens, plus
 * CLOSES times the one it closes, plus NEXT times what the next word means; never C_SUBSHELL nor
 * S_CMD, so a part is 0 only when the word does no such thing. BEFORE_GROUP: `time` is a keyword
 * before a group; elsewhere it wraps a command like /usr/bin/time.
 */
const CLOSES = 1 << 3;
const NEXT = 1 << 6;
const BEFORE_GROUP = -1;

const KEYWORDS = new Map<string, number>([
  ["if", C_IF],
  ["then", 0],
  ["elif", 0],
  ["else", 0],
  ["fi", C_IF * CLOSES],
  ["while", C_LOOP],
  ["until", C_LOOP],
  ["for", C_LOOP + S_FOR_NAME * NEXT],
  ["select", C_LOOP + S_FOR_NAME * NEXT],
  ["do", 0],
  ["done", C_LOOP * CLOSES],
  ["case", C_CASE + S_CASE_SUBJECT * NEXT],
  ["esac", C_CASE * CLOSES],
  ["{", C_BRACE],
  ["}", C_BRACE * CLOSES],
  ["!", 0],
  ["[[", S_DBRACKET * NEXT],
  ["function", S_FUNC_NAME * NEXT],
  ["time", BEFORE_GROUP],
]);
/** `$1`, `$@`, `$?`…: the character after the `$` is the whole name. */
const SPECIAL_PARAMETERS = "0123456789@*#?-$!";
const NAMED_FD = /\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])/y;
/** The whole word so far is an assignment's name and `=`: `a=(`, `a[i]+=(`. */
const ARRAY_OPENING = /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=$/;
/** Words that may hold a `$` or backtick as text after a subscript's opening: `'a[$(…)]'$x`. */
const QUOTED_CODE = new WeakSet<ShellWord>();
const SUBSCRIPT = /\w\[/;

export interface ScanResult {
  commands: ShellCommand[];
  complete: boolean;
}

/** Scans `source` into its simple commands, in source order; offsets are into `source`. */
export function scan(source: string, via: ShellVia, dir: string | undefined, depth: number): ScanResult {
  const scanner = FREE_SCANNERS.pop() ?? new Scanner();
  const scanned = scanner.run(source, via, dir, depth);
  FREE_SCANNERS.push(scanner);
  return scanned;
}

/** Scanners are reused, with their arrays: a parse allocates what it returns, and little else. */
const FREE_SCANNERS: Scanner[] = [];

/** Fields without an initializer are set by `run` (`#pos` by its first `#push`). */
class Scanner {
  #source!: string;
  #via!: ShellVia;
  #depth!: number;
  #pos!: number;
  #complete!: boolean;
  /** The commands found so far; copied out at the end. */
  readonly #commands: ShellCommand[] = [];
  readonly #stack: Frame[] = [];
  /** Commands that turned out to run nothing (assignments alone, a function's name). */
  #dropped!: ShellCommand[] | null;
  #unsorted!: boolean;
  #arithRetries!: number;
  readonly #heredocs: PendingHeredoc[] = [];
  /** The list whose heredoc bodies are being read (resumed after an unquoted body's expansions). */
  #heredocOwner!: ListFrame | null;

  run(source: string, via: ShellVia, dir: string | undefined, depth: number): ScanResult {
    this.#source = source;
    this.#via = via;
    this.#depth = depth;
    this.#complete = true;
    this.#dropped = null;
    this.#unsorted = false;
    this.#arithRetries = 0;
    if (this.#heredocs.length) this.#heredocs.length = 0;
    this.#heredocOwner = null;
    this.#push(newList(false, dir), 0);
    const stack = this.#stack;
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.kind === LIST) this.#stepList(top);
      else if (top.kind === WORD) this.#stepWord(top);
      else if (top.kind === PARAM) this.#stepParam(top);
      else if (top.kind === ARITH) this.#stepArith(top);
      else this.#stepHere(top);
    }
    let commands: ShellCommand[];
    if (this.#dropped) {
      const dropped = new Set(this.#dropped);
      commands = this.#commands.filter((command) => !dropped.has(command));
    } else commands = this.#commands.slice();
    this.#commands.length = 0;
    this.#source = "";
    if (this.#unsorted) commands.sort((a, b) => a.span.start - b.span.start);
    return { commands, complete: this.#complete };
  }

  // ── lists: separators, operators, redirects, compound commands ──

  #stepList(f: ListFrame): void {
    if (this.#heredocOwner === f) {
      this.#heredocOwner = null;
      if (this.#readHeredocs(f)) return;
    }
    const s = this.#source;
    const n = s.length;
    let p = this.#pos;
    for (;;) {
      if (p >= n) {
        this.#closeList(f, false, n);
        return;
      }
      const c = s.charCodeAt(p);
      // In `[[ ]]` these are operators, but `<(` and `>(` are process substitutions there too.
      if (
        f.state === S_DBRACKET &&
        (c === AMP || c === PIPE || c === LP || c === RP || c === BANG || ((c === LT || c === GT) && codeAt(s, p + 1) !== LP))
      ) {
        p++;
        continue;
      }
      if (c === SP || c === TAB) {
        p++;
        continue;
      }
      // #listOperator sees only the characters in MAY_OPERATE: a case added to it needs its character there.
      if (c < 128 && MAY_OPERATE[c] === 1) {
        const next = this.#listOperator(f, p, c);
        if (next === RETURNED) return;
        if (next !== AT_WORD) {
          p = next;
          continue;
        }
      }
      // Most words are ordinary characters alone, or one quoted string: taken whole here, with no word frame.
      const quoted = c === SQ || c === DQ;
      const end = quoted ? quotedWordEnd(s, p) : ordinaryWordEnd(s, p);
      if (end !== -1) {
        const argument = f.state === S_CMD && f.cmdWords.length > 0;
        // A command's name (or a keyword, an assignment) is looked at again and again: interned.
        const named = f.state === S_CMD && !argument && !quoted;
        const text = quoted ? s.slice(p + 1, end - 1) : named ? interned(s, p, end) : s.slice(p, end);
        const word: ShellWord = { text, start: p, end, dynamic: false };
        if (argument) {
          // Nothing more to decide about it.
          f.cmdWords.push(word);
          f.lastEnd = p = end;
        } else {
          this.#pos = end;
          this.#acceptWord(f, word, quoted ? p : UNQUOTED);
          p = this.#pos;
        }
        continue;
      }
      // Most other words hold no substitution: read them here rather than by a round through `run`.
      const w = newWord(f, p);
      this.#push(w, p);
      this.#stepWord(w);
      if (this.#stack[this.#stack.length - 1] !== f) return;
      p = this.#pos;
    }
  }

  /**
   * A character at list level that may be an operator, a separator, a comment or a redirect: returns
   * where to go on, RETURNED after leaving the list or pushing a frame, or AT_WORD when a word starts at `p`.
   */
  #listOperator(f: ListFrame, p: number, c: number): number {
    const s = this.#source;
    switch (c) {
      case NL:
        if (f.state === S_CMD || f.state === S_REDIR || f.state === S_FOR_REST) {
          this.#endCommand(f);
          endAndOr(f);
        }
        if (this.#heredocs.length && !this.#heredocOwner) {
          this.#pos = p + 1;
          return this.#readHeredocs(f) ? RETURNED : this.#pos;
        }
        return p + 1;
      case HASH: {
        const newline = s.indexOf("\n", p);
        return newline === -1 ? s.length : newline;
      }
      case SEMI: {
        const next = codeAt(s, p + 1);
        if (next === SEMI || next === AMP) {
          this.#endCommand(f);
          endAndOr(f);
          if (f.construct?.kind === C_CASE) f.state = S_CASE_PAT;
          else this.#complete = false;
          return p + (next === SEMI && codeAt(s, p + 2) === AMP ? 3 : 2);
        }
        if (f.state === S_FOR_REST) f.state = S_CMD;
        else {
          this.#endCommand(f);
          endAndOr(f);
        }
        return p + 1;
      }
      case AMP: {
        const next = codeAt(s, p + 1);
        if (next === GT) return this.#redirect(f, p, p + (codeAt(s, p + 2) === GT ? 3 : 2));
        this.#endCommand(f);
        endPipeline(f);
        if (next === AMP) {
          f.conditional ||= 1;
          f.expectsCommand = true;
          return p + 2;
        }
        f.currentDir = f.andOrDir;
        f.doubt = false;
        endAndOr(f);
        return p + 1;
      }
      case PIPE: {
        if (f.state === S_CASE_PAT) return p + 1;
        const next = codeAt(s, p + 1);
        this.#endCommand(f);
        f.expectsCommand = true;
        if (next === PIPE) {
          endPipeline(f);
          // What runs after an `||` runs when what came before failed: before or after its `cd`.
          if (f.currentDir !== f.andOrDir) f.currentDir = undefined;
          f.conditional = 2;
          return p + 2;
        }
        f.piped = true;
        f.currentDir = f.pipeDir;
        return p + (next === AMP ? 2 : 1);
      }
      case LT:
      case GT:
        if (codeAt(s, p + 1) === LP && f.state !== S_CASE_PAT) {
          this.#push(newWord(f, p), p);
          return RETURNED;
        }
        return this.#redirect(f, p, operatorEnd(s, p));
      case LP:
        return this.#openParen(f, p);
      case RP:
        if (f.state === S_CASE_PAT) {
          f.state = S_CMD;
          return p + 1;
        }
        this.#endCommand(f);
        if (f.construct?.kind === C_SUBSHELL) this.#popConstruct(f, C_SUBSHELL);
        else if (f.closes) {
          this.#closeList(f, true, p + 1);
          return RETURNED;
        } else this.#complete = false;
        return p + 1;
      case BS:
        return codeAt(s, p + 1) === NL ? p + 2 : AT_WORD;
      case LC:
        NAMED_FD.lastIndex = p;
        return NAMED_FD.test(s) ? this.#redirect(f, p, operatorEnd(s, NAMED_FD.lastIndex)) : AT_WORD;
      default: {
        // A digit: a redirect's descriptor, or part of a word.
        let q = p + 1;
        while (isDigit(codeAt(s, q))) q++;
        const after = codeAt(s, q);
        return (after === LT || after === GT) && codeAt(s, q + 1) !== LP ? this.#redirect(f, p, operatorEnd(s, q)) : AT_WORD;
      }
    }
  }

  /** `(` at list level: a subshell, `(( ))`, a function's `()`, or part of a case pattern. Returns RETURNED after pushing a frame. */
  #openParen(f: ListFrame, p: number): number {
    const s = this.#source;
    if (f.state === S_CASE_PAT) return p + 1;
    if (f.state === S_FOR_NAME && codeAt(s, p + 1) === LP) {
      f.state = S_FOR_REST;
      this.#pushArith(f, ARITH_FOR, p);
      return RETURNED;
    }
    if (f.state === S_CMD && !f.cmd) {
      f.expectsCommand = false;
      if (codeAt(s, p + 1) === LP && this.#arithRetries <= ARITH_RETRIES) {
        this.#pushArith(f, ARITH_COMMAND, p);
        return RETURNED;
      }
      this.#pushConstruct(f, C_SUBSHELL);
      return p + 1;
    }
    const cmd = f.cmd;
    if (f.state === S_CMD && cmd && f.cmdWords.length === 1 && !cmd.assignments.length && !cmd.redirects.length) {
      const close = skipBlanks(s, p + 1);
      if (codeAt(s, close) === RP) {
        this.#drop(cmd);
        f.cmd = null;
        f.cmdWords.length = 0;
        this.#pushConstruct(f, C_FUNCTION);
        return close + 1;
      }
    }
    this.#complete = false;
    return p + 1;
  }

  /** A redirect operator from `start` (its fd digits) to `end`; the next word is its target. */
  #redirect(f: ListFrame, start: number, end: number): number {
    if (f.state === S_REDIR) this.#complete = false;
    const op = interned(this.#source, start, end);
    const cmd = this.#command(f, start);
    const redirect: ShellRedirect = { op, target: undefined };
    if (cmd.redirects === NONE) cmd.redirects = [redirect];
    else cmd.redirects.push(redirect);
    f.lastEnd = end;
    f.awaitingTarget = redirect;
    f.heredocKind = op.endsWith("<<-") ? 2 : /(?<!<)<<$/.test(op) ? 1 : 0;
    f.state = S_REDIR;
    return end;
  }

  #command(f: ListFrame, start: number): ShellCommand {
    if (f.cmd) return f.cmd;
    f.expectsCommand = false;
    const cmd = new ShellCommand(start, f.currentDir, this.#via);
    this.#add(cmd);
    f.cmd = cmd;
    return cmd;
  }

  #add(command: ShellCommand): void {
    const commands = this.#commands;
    if (commands.length && commands[commands.length - 1].span.start > command.span.start) this.#unsorted = true;
    commands.push(command);
  }

  #endCommand(f: ListFrame): void {
    if (f.state === S_REDIR) {
      this.#complete = false;
      f.state = S_CMD;
    } else if (f.state === S_FOR_REST) f.state = S_CMD;
    const cmd = f.cmd;
    if (!cmd) return;
    f.cmd = null;
    cmd.span.end = f.lastEnd;
    if (!f.cmdWords.length) {
      // Assignments alone run nothing now, but `PS4='$(…)'; set -x` runs code at every command after.
      if (cmd.assignments !== NONE && cmd.assignments.some(runsCode)) this.#complete = false;
      if (cmd.redirects === NONE) this.#drop(cmd);
      return;
    }
    const words = f.cmdWords.slice();
    cmd.words = words;
    f.cmdWords.length = 0;
    let first = 0;
    while (
      first < words.length - 1 &&
      (words[first].text === "builtin" || words[first].text === "command") &&
      !words[first].dynamic
    )
      first++;
    const name = words[first].dynamic ? "" : words[first].text;
    if (name === "cd" || name === "pushd" || name === "popd") {
      changeDirectory(f, name, words, first + 1);
      if (f.conditional) f.doubt = true;
      if (f.conditional > 1) f.currentDir = undefined;
    }
  }

  #drop(cmd: ShellCommand): void {
    this.#dropped ??= [];
    this.#dropped.push(cmd);
  }

  /** Ends the list, by a `)` when `closed`, going on from `at`. */
  #closeList(f: ListFrame, closed: boolean, at: number): void {
    this.#endCommand(f);
    endAndOr(f);
    if (f.construct || closed !== f.closes || f.state !== S_CMD || f.expectsCommand) this.#complete = false;
    if (!f.closes && this.#heredocs.length) {
      this.#complete = false;
      this.#heredocs.length = 0;
    }
    this.#pop(at);
    releaseList(f);
  }

  #pushConstruct(f: ListFrame, kind: number): void {
    f.construct = {
      kind,
      outer: f.construct,
      currentDir: f.currentDir,
      pipeDir: f.pipeDir,
      andOrDir: f.andOrDir,
      piped: f.piped,
      conditional: f.conditional,
      doubt: f.doubt,
    };
    f.piped = f.expectsCommand = f.doubt = false;
    f.conditional = 0;
    f.pipeDir = f.andOrDir = f.currentDir;
  }

  #popConstruct(f: ListFrame, kind: number): void {
    const construct = f.construct;
    if (construct?.kind !== kind) {
      this.#complete = false;
      return;
    }
    endAndOr(f);
    f.construct = construct.outer;
    if (kind === C_SUBSHELL) f.currentDir = construct.currentDir;
    else if (kind !== C_BRACE && f.currentDir !== construct.currentDir) f.currentDir = undefined;
    restore(f, construct);
    const outer = construct.outer;
    if (outer?.kind === C_FUNCTION) {
      // Defining a function runs nothing: its body's `cd` happens only when it is called.
      f.construct = outer.outer;
      f.currentDir = outer.currentDir;
      restore(f, outer);
    }
  }

  // ── words ──

  /**
   * `firstQuote`: the offset of the word's first quote or backslash, UNQUOTED when it has none;
   * `closes`: as WordFrame's.
   */
  #acceptWord(f: ListFrame, word: ShellWord, firstQuote: number, closes?: boolean): void {
    const plain = !word.dynamic && firstQuote === UNQUOTED;
    if (f.state === S_CMD) {
      const keyword = !f.cmd && plain && word.text.length <= 8 ? KEYWORDS.get(word.text) : undefined;
      if (keyword !== undefined && this.#keyword(f, word, keyword)) return;
      const cmd = this.#command(f, word.start);
      f.lastEnd = word.end;
      if (!f.cmdWords.length && isAssignment(word, firstQuote, closes)) {
        if (cmd.assignments === NONE) cmd.assignments = [word];
        else cmd.assignments.push(word);
      } else f.cmdWords.push(word);
    } else this.#acceptOther(f, word, firstQuote, plain);
  }

  /** A word where no command's word is expected: a redirect's target, a loop's or a case's part… */
  #acceptOther(f: ListFrame, word: ShellWord, firstQuote: number, plain: boolean): void {
    switch (f.state) {
      case S_REDIR: {
        const redirect = f.awaitingTarget as ShellRedirect;
        redirect.target = word;
        f.lastEnd = word.end;
        f.state = S_CMD;
        if (f.heredocKind !== 0) {
          this.#heredocs.push({
            endLine: word.text,
            quoted: firstQuote !== UNQUOTED,
            strip: f.heredocKind === 2,
            bodyOf: redirect,
          });
        }
        return;
      }
      // The loop's variable is assigned each word, which arithmetic may read: `for x in 'a[$(…)]'`.
      case S_FOR_NAME:
        f.state = S_FOR_REST;
        if (namesCode(word)) this.#complete = false;
        return;
      case S_FOR_REST:
        if (plain && word.text === "do") f.state = S_CMD;
        else if (subscriptRuns(word)) this.#complete = false;
        return;
      case S_CASE_SUBJECT:
        f.state = S_CASE_IN;
        return;
      case S_CASE_IN:
        if (plain && word.text === "in") f.state = S_CASE_PAT;
        else this.#complete = false;
        return;
      case S_CASE_PAT:
        if (plain && word.text === "esac") {
          f.state = S_CMD;
          this.#popConstruct(f, C_CASE);
        }
        return;
      case S_DBRACKET:
        if (plain && word.text === "]]") f.state = S_CMD;
        // `-eq` and the like read their operands as arithmetic, which evaluates a subscript.
        else if (subscriptRuns(word)) this.#complete = false;
        return;
      case S_FUNC_NAME: {
        f.state = S_CMD;
        this.#pushConstruct(f, C_FUNCTION);
        const s = this.#source;
        const open = skipBlanks(s, word.end);
        if (codeAt(s, open) === LP) {
          const close = skipBlanks(s, open + 1);
          if (codeAt(s, close) === RP) this.#pos = close + 1;
        }
        return;
      }
    }
  }

  /** A reserved word in command position; false when it is an ordinary word after all (`time` without a group). */
  #keyword(f: ListFrame, word: ShellWord, keyword: number): boolean {
    f.expectsCommand = false;
    if (keyword === BEFORE_GROUP) {
      const next = codeAt(this.#source, skipBlanks(this.#source, word.end));
      return next === LC || next === LP || next === BANG;
    }
    // Three bits each: CLOSES is 1 << 3, NEXT 1 << 6.
    const opens = keyword & 7;
    const closes = (keyword >> 3) & 7;
    const nextState = keyword >> 6;
    if (opens) this.#pushConstruct(f, opens);
    if (closes) this.#popConstruct(f, closes);
    if (nextState) f.state = nextState;
    return true;
  }

  #stepWord(w: WordFrame): void {
    const s = this.#source;
    const n = s.length;
    let p = this.#pos;
    if (p === w.startsAt && (codeAt(s, p) === LT || codeAt(s, p) === GT) && codeAt(s, p + 1) === LP) {
      w.atRunTime = true;
      this.#pushList(w.owner, p + 2);
      return;
    }
    for (;;) {
      if (p >= n) {
        if (w.doubleQuoted || w.paren > 0) this.#complete = false;
        this.#finishWord(w, n);
        return;
      }
      const c = s.charCodeAt(p);
      if (w.doubleQuoted) {
        if (c === DQ) {
          w.decoded += s.slice(w.runStart, p);
          w.doubleQuoted = false;
          w.runStart = ++p;
        } else if (c === BS) {
          const next = codeAt(s, p + 1);
          if (next === DOLLAR || next === BT || next === DQ || next === BS || next === NL) {
            w.quoted = true;
            w.decoded += s.slice(w.runStart, p);
            w.runStart = next === NL ? p + 2 : p + 1;
            p += 2;
          } else p++;
        } else if (c === DOLLAR || c === BT) {
          p = this.#substitution(w, p);
          if (p === PUSHED) return;
        } else p++;
        continue;
      }
      // Most characters of a word change nothing but where it ends. The switch below sees only those in
      // WORD_SPECIAL: a case added to it needs its character there, or the case never runs.
      if (c < 128 && WORD_SPECIAL[c] === 0) {
        p++;
        continue;
      }
      switch (c) {
        case SP:
        case TAB:
        case NL:
        case SEMI:
        case AMP:
        case PIPE:
        case LT:
        case GT:
          if (w.paren > 0) break;
          this.#finishWord(w, p);
          return;
        case LP:
          if (w.paren > 0) w.paren++;
          else if (isExtglobOpener(codeAt(s, p - 1)) && p > w.startsAt) {
            // Without extglob, bash reads `!(…)` first in a command as `!` and a subshell.
            if (p - 1 === w.startsAt && w.owner.state === S_CMD && !w.owner.cmdWords.length) this.#complete = false;
            w.paren = 1;
            w.atRunTime = true;
          } else if (
            // An operand's too (`declare -A m=([k]=v)`): elsewhere bash rejects the line and runs none of it.
            w.owner.state === S_CMD &&
            w.firstQuote > p &&
            ARRAY_OPENING.test(s.slice(w.startsAt, p))
          )
            w.paren = 1;
          else {
            this.#finishWord(w, p);
            return;
          }
          break;
        case RP:
          if (w.paren > 0) {
            w.paren--;
            break;
          }
          this.#finishWord(w, p);
          return;
        case SQ: {
          quoteAt(w, s, p);
          w.quoted = true;
          let close = s.indexOf("'", p + 1);
          if (close === -1) {
            this.#complete = false;
            close = n;
          }
          w.decoded += s.slice(p + 1, close);
          // Past the end when unclosed: the word ends there as at the end.
          w.runStart = p = close + 1;
          continue;
        }
        case DQ:
          quoteAt(w, s, p);
          w.doubleQuoted = true;
          w.runStart = ++p;
          continue;
        case BS:
          w.decoded += s.slice(w.runStart, p);
          if (codeAt(s, p + 1) === NL) {
            w.runStart = p += 2;
            continue;
          }
          if (w.firstQuote > p) w.firstQuote = p;
          w.quoted = true;
          // A backslash that ends the source is kept; the word ends there as at the end.
          w.runStart = Math.min(p + 1, n - 1);
          p += 2;
          continue;
        case DOLLAR: {
          const next = codeAt(s, p + 1);
          if (next === SQ) {
            quoteAt(w, s, p);
            w.quoted = true;
            const [decoded, after] = decodeAnsiC(s, p + 1);
            if (after > n) this.#complete = false;
            w.decoded += decoded;
            w.runStart = p = Math.min(after, n);
            continue;
          }
          if (next === DQ) {
            quoteAt(w, s, p);
            w.doubleQuoted = true;
            w.runStart = p += 2;
            continue;
          }
          p = this.#substitution(w, p);
          if (p === PUSHED) return;
          continue;
        }
        case BT:
          p = this.#substitution(w, p);
          continue;
        case STAR:
        case QM:
          w.atRunTime = true;
          break;
        case LB:
          w.bracket++;
          break;
        case RB:
          if (w.bracket > 0) {
            w.atRunTime = true;
            if (--w.bracket === 0 && w.closes === undefined) {
              w.closes = /^\+?=/.test(s.slice(p + 1));
              w.nameEnd = w.decoded.length + p + 1 - w.runStart;
            }
          }
          break;
        case LC:
          if (w.brace === 0) w.brace = 1;
          break;
        case COMMA:
          if (w.brace === 1) w.brace = 2;
          break;
        case DOT:
          if (w.brace === 1 && codeAt(s, p + 1) === DOT) w.brace = 2;
          break;
        case RC:
          if (w.brace === 2) w.atRunTime = true;
          break;
        case TILDE:
          if (p === w.startsAt) w.atRunTime = true;
          break;
      }
      // Every case that gets here read one character.
      p++;
    }
  }

  #finishWord(w: WordFrame, end: number): void {
    const text =
      w.runStart === w.startsAt ? this.#source.slice(w.startsAt, end) : w.decoded + this.#source.slice(w.runStart, end);
    const word: ShellWord = { text, start: w.startsAt, end, dynamic: w.atRunTime };
    // An assignment's value is text arithmetic may read later: a subscript in it counts (`a[0]='x[$(…)]'`), the name's own one only if it holds code.
    if (
      w.quoted &&
      (w.closes ? /\$\(|`/.test(text.slice(0, w.nameEnd)) || SUBSCRIPT.test(text.slice(w.nameEnd)) : SUBSCRIPT.test(text))
    )
      QUOTED_CODE.add(word);
    // Bash reads an assignment's subscript to its `]` across blanks and `#` (`a[ x ]=1 rm y`); this word ended inside one.
    if (w.bracket && w.owner.state === S_CMD && !w.owner.cmdWords.length && /^[A-Za-z_]\w*\[/.test(text)) this.#complete = false;
    this.#pop(end);
    this.#acceptWord(w.owner, word, w.firstQuote, w.closes);
    releaseWord(w);
  }

  /**
   * A `$` or backtick at `p`: pushes a frame for `$( )`, `$(( ))` or `${ }` (returns PUSHED, `pos`
   * set), or returns the offset after the expansion: `p + 1` for a `$` that expands nothing.
   * `inDoubleQuotes` as #backtick's.
   */
  #expansion(list: ListFrame, p: number, inDoubleQuotes?: boolean): number {
    const s = this.#source;
    if (s.charCodeAt(p) === BT) return this.#backtick(list, p, inDoubleQuotes);
    const next = codeAt(s, p + 1);
    if (next === LP) {
      if (codeAt(s, p + 2) === LP && this.#arithRetries <= ARITH_RETRIES) this.#pushArith(list, ARITH_WORD, p);
      else this.#pushList(list, p + 2);
      return PUSHED;
    }
    if (next === LC) {
      // `${PS4=…}` and `${PS4:=…}` assign as they expand.
      PARAM_ASSIGNS_CODE.lastIndex = p + 2;
      if (PARAM_ASSIGNS_CODE.test(s)) this.#complete = false;
      this.#push({ kind: PARAM, owner: list, doubleQuoted: false }, p + 2);
      return PUSHED;
    }
    if (next === LB) {
      // `$[ ]`, bash's old arithmetic: what it holds is not read, and may run commands.
      this.#complete = false;
      const close = s.indexOf("]", p + 2);
      return close === -1 ? s.length : close + 1;
    }
    // `$` and a line continuation: bash joins the lines first, so the `$` expands what the next one
    // starts with (`$(…)`, `$'…'`), which is not read as such here.
    if (next === BS && codeAt(s, p + 2) === NL) this.#complete = false;
    if (isNameStart(next)) {
      let q = p + 2;
      while (isNameChar(codeAt(s, q))) q++;
      return q;
    }
    // Past the end of the source, `s[p + 1]` is undefined: not one of them.
    return SPECIAL_PARAMETERS.includes(s[p + 1]) ? p + 2 : p + 1;
  }

  /** A substitution in the word at `p`, as #expansion; the word is dynamic unless it was a `$` alone. */
  #substitution(w: WordFrame, p: number): number {
    const after = this.#expansion(w.owner, p, w.doubleQuoted);
    if (after !== p + 1) w.atRunTime = true;
    else w.quoted = true;
    return after;
  }

  #pushArith(list: ListFrame, form: number, open: number): void {
    this.#push(
      { kind: ARITH, owner: list, parenDepth: 0, arithForm: form, openedAt: open, commandsBefore: this.#commands.length },
      open + (form === ARITH_WORD ? 3 : 2),
    );
  }

  #pushList(outer: ListFrame, at: number): void {
    this.#push(newList(true, outer.currentDir), at);
  }

  /** Goes on inside `frame`, from `at`. */
  #push(frame: Frame, at: number): void {
    this.#pos = at;
    this.#stack.push(frame);
  }

  /** Leaves the innermost frame, going on from `at`. */
  #pop(at: number): void {
    this.#pos = at;
    this.#stack.pop();
  }

  /**
   * A backtick substitution at `p`: its inside, unescaped, is scanned on its own. Returns the offset
   * after it. `inDoubleQuotes`: in a double-quoted word, where bash unescapes `\"` too.
   */
  #backtick(list: ListFrame, p: number, inDoubleQuotes?: boolean): number {
    const s = this.#source;
    let close = p + 1;
    let escaped = false;
    while (close < s.length && s.charCodeAt(close) !== BT) {
      if (s.charCodeAt(close) === BS) {
        escaped = true;
        close++;
      }
      close++;
    }
    if (close >= s.length) {
      this.#complete = false;
      close = s.length;
    }
    if (this.#depth >= MAX_DEPTH) {
      this.#complete = false;
      return close + 1;
    }
    let inner = s.slice(p + 1, close);
    let map: number[] | undefined;
    if (escaped) {
      let text = "";
      map = [];
      for (let at = p + 1; at < close; at++) {
        const next = codeAt(s, at + 1);
        if (s.charCodeAt(at) === BS && (next === BS || next === BT || next === DOLLAR || (next === DQ && inDoubleQuotes))) at++;
        text += s[at];
        map.push(at);
      }
      map.push(close);
      inner = text;
    }
    const sub = scan(inner, this.#via, list.currentDir, this.#depth + 1);
    if (!sub.complete) this.#complete = false;
    const shift = p + 1;
    for (const command of sub.commands) {
      relocate(command, map ? (offset) => map[offset] : (offset) => offset + shift);
      this.#add(command);
    }
    return close + 1;
  }

  // ── inside `${ }`, `$(( ))` and heredoc bodies: only substitutions matter ──

  #stepParam(f: ParamFrame): void {
    const s = this.#source;
    const n = s.length;
    let p = this.#pos;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === BS) p += 2;
      else if (c === SQ && !f.doubleQuoted) {
        // Inside double quotes too. Bash expands what the quotes hold in an array's subscript
        // (`${a['$(…)']}`) and in `"${x-'$(…)'}"`: not read here.
        // Unclosed, it runs to the end: past it, the loop ends as at it.
        const close = s.indexOf("'", p + 1);
        const end = close === -1 ? n : close;
        if (hasExpansion(s, p, end)) this.#complete = false;
        p = end + 1;
      } else if (c === DOLLAR && codeAt(s, p + 1) === SQ && !f.doubleQuoted) {
        // And what `$'…'` decodes to, in `"${x-$'\x24(…)'}"`.
        const [decoded, after] = decodeAnsiC(s, p + 1);
        if (hasExpansion(decoded, 0, decoded.length)) this.#complete = false;
        p = after;
      } else if (c === DQ) {
        f.doubleQuoted = !f.doubleQuoted;
        p++;
      } else if (c === DOLLAR || c === BT) {
        // A backtick's `\"` in `${x-"`…`"}` is `"` unless the `${ }` is in double quotes too: not known here.
        if (c === BT && f.doubleQuoted) this.#complete = false;
        p = this.#expansion(f.owner, p);
        if (p === PUSHED) return;
      } else if (c === AT && codeAt(s, p + 1) === 80 /* P */ && codeAt(s, p + 2) === RC) {
        // `${x@P}` expands the value as a prompt: a `$( )` in it runs.
        this.#complete = false;
        p++;
      } else if (c === RC && !f.doubleQuoted) {
        // The first `}` ends it, as in bash: a `{` in it is a plain character.
        this.#pop(p + 1);
        return;
      } else p++;
    }
    this.#complete = false;
    this.#pop(n);
  }

  #stepArith(f: ArithFrame): void {
    const s = this.#source;
    const n = s.length;
    let p = this.#pos;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === LP) {
        f.parenDepth++;
        p++;
      } else if (c === RP) {
        if (f.parenDepth === 0) {
          this.#stack.pop();
          if (codeAt(s, p + 1) === RP) this.#pos = p + 2;
          else this.#notArithmetic(f);
          return;
        }
        f.parenDepth--;
        p++;
      } else if (c === DOLLAR || c === BT) {
        // Bash decodes `$'…'` (where `\'` does not close it), then expands it: not read here.
        if (codeAt(s, p + 1) === SQ) this.#complete = false;
        p = this.#expansion(f.owner, p);
        if (p === PUSHED) return;
      } else if (c === BS) p += 2;
      else if (c === SQ || c === DQ) {
        // Bash expands what quotes hold in arithmetic too; it is not read here.
        const end = skipQuoted(s, p);
        if (hasExpansion(s, p, end)) this.#complete = false;
        p = end;
      } else p++;
    }
    this.#complete = false;
    this.#pop(n);
  }

  /** `((a) )` and `$((a) )` are subshells: scan again from the opening as such. */
  #notArithmetic(f: ArithFrame): void {
    // Past the retries, `((` is read as subshells even where it is arithmetic.
    if (++this.#arithRetries > ARITH_RETRIES) this.#complete = false;
    this.#commands.length = f.commandsBefore;
    if (f.arithForm === ARITH_FOR) {
      this.#complete = false;
      this.#pos = f.openedAt + 2;
    } else if (f.arithForm === ARITH_COMMAND) {
      this.#pushConstruct(f.owner, C_SUBSHELL);
      this.#pos = f.openedAt + 1;
    } else this.#pushList(f.owner, f.openedAt + 2);
  }

  #stepHere(f: HereFrame): void {
    const s = this.#source;
    let p = this.#pos;
    while (p < f.end) {
      const c = s.charCodeAt(p);
      if (c === BS) p += 2;
      else if (c === DOLLAR || c === BT) {
        p = this.#expansion(f.owner, p);
        if (p === PUSHED) return;
      } else p++;
    }
    // A substitution left open in the body read on past its end (bash stops there, an error): what it read is not read again.
    if (p > f.resume) this.#complete = false;
    this.#pop(Math.max(p, f.resume));
    this.#heredocOwner = f.owner;
  }

  /**
   * Reads the bodies of the heredocs opened on the line just ended, from `pos`. Returns true after
   * pushing a frame for an unquoted body's substitutions (reading goes on when it is done).
   */
  #readHeredocs(f: ListFrame): boolean {
    const s = this.#source;
    const n = s.length;
    while (this.#heredocs.length) {
      const heredoc = this.#heredocs.shift() as PendingHeredoc;
      const start = this.#pos;
      let end = n;
      let resume = n;
      for (let line = start; line < n; ) {
        let text = line;
        if (heredoc.strip) while (codeAt(s, text) === TAB) text++;
        let lineEnd = s.indexOf("\n", line);
        if (lineEnd === -1) lineEnd = n;
        const after = text + heredoc.endLine.length;
        // In `$( )`, a line that starts with the delimiter ends the body too when a `)` follows: bash reads on after the delimiter.
        if (s.startsWith(heredoc.endLine, text) && (after === lineEnd || (f.closes && s.lastIndexOf(")", lineEnd) >= after))) {
          end = line;
          resume = after < lineEnd ? after : Math.min(lineEnd + 1, n);
          break;
        }
        // Bash joins an unquoted body's line ending in a backslash to the next, then compares: `EO\` and `F` end it.
        if (!heredoc.quoted && codeAt(s, lineEnd - 1) === BS && heredoc.endLine.startsWith(s.slice(text, lineEnd - 1)))
          this.#complete = false;
        line = lineEnd + 1;
      }
      if (end === n) this.#complete = false;
      heredoc.bodyOf.body = { start, end };
      this.#pos = resume;
      if (!heredoc.quoted && hasExpansion(s, start, end)) {
        this.#push({ kind: HERE, owner: f, end, resume }, start);
        return true;
      }
    }
    return false;
  }
}

const FREE_WORDS: WordFrame[] = [];
const FREE_LISTS: ListFrame[] = [];
/** Frames kept for reuse: enough for any ordinary nesting; a freak one doesn't hold its memory for good. */
const POOL_MAX = 256;

function releaseWord(w: WordFrame): void {
  clearWord(w);
  if (FREE_WORDS.length < POOL_MAX) FREE_WORDS.push(w);
}

function releaseList(f: ListFrame): void {
  clearList(f);
  if (FREE_LISTS.length < POOL_MAX) FREE_LISTS.push(f);
}

const UNQUOTED = Number.MAX_SAFE_INTEGER;
const RETURNED = -1;
const AT_WORD = -2;
/** The characters #stepWord looks at outside double quotes; the others are only part of the word. */
const WORD_SPECIAL = asciiSet(" \t\n;&|<>()'\"\\$`*?[]{},.~");
/** Characters that may start an operator, a separator, a comment or a redirect at list level. */
const MAY_OPERATE = asciiSet("\n#;&|<>()\\{0123456789");
const PUSHED = -1;

function newList(closes: boolean, dir: string | undefined): ListFrame {
  const f = FREE_LISTS.pop() ?? new ListFrame();
  f.closes = closes;
  f.currentDir = f.pipeDir = f.andOrDir = dir;
  return f;
}

function newWord(list: ListFrame, start: number): WordFrame {
  const w = FREE_WORDS.pop() ?? new WordFrame();
  w.owner = list;
  w.startsAt = w.runStart = start;
  return w;
}

/** A quote at `p` in the word: the text before it is taken as it is. */
function quoteAt(w: WordFrame, s: string, p: number): void {
  w.decoded += s.slice(w.runStart, p);
  if (w.firstQuote > p) w.firstQuote = p;
}

/** Puts back the pipeline and and-or list state saved when a compound command began. */
function restore(f: ListFrame, saved: Construct): void {
  f.pipeDir = saved.pipeDir;
  f.andOrDir = saved.andOrDir;
  f.piped = saved.piped;
  f.conditional = saved.conditional;
  f.doubt = saved.doubt;
}

/** A pipeline ends: its commands ran in subshells, so their `cd`s are gone. */
function endPipeline(f: ListFrame): void {
  if (f.piped) {
    f.currentDir = f.pipeDir;
    f.piped = false;
  }
  f.pipeDir = f.currentDir;
}

/** An and-or list ends: a `cd` that may not have run leaves the directory unknown. */
function endAndOr(f: ListFrame): void {
  endPipeline(f);
  if (f.doubt) f.currentDir = undefined;
  f.doubt = false;
  f.conditional = 0;
  f.pipeDir = f.andOrDir = f.currentDir;
}

/** `cd`, `pushd` or `popd` with its arguments from `words[index]` on. */
function changeDirectory(f: ListFrame, name: string, args: ShellWord[], index: number): void {
  while (index < args.length && args[index].text.charCodeAt(0) === 45 && /^-[LPe@]+$/.test(args[index].text)) index++;
  if (args[index]?.text === "--") index++;
  const target = args[index];
  if (name === "popd") {
    f.currentDir = !target && f.dirStack?.length ? f.dirStack.pop() : undefined;
    return;
  }
  const before = f.currentDir;
  if (!target) f.currentDir = name === "cd" ? "~" : undefined;
  else if (!target.dynamic || TILDE_PATH.test(target.text)) {
    // Only a bare leading `~` is home (and makes the word dynamic); a quoted or escaped one is a name.
    const path = target.dynamic ? target.text : literalDir(target.text);
    const sign = path.charCodeAt(0);
    f.currentDir =
      !path || ((sign === 45 || sign === 43) && (path === "-" || /^[+-]\d+$/.test(path)))
        ? undefined
        : before === undefined && !isRooted(path)
          ? undefined
          : changeDir(before ?? ".", path);
  } else f.currentDir = undefined;
  if (name === "pushd") {
    f.dirStack ??= [];
    f.dirStack.push(before);
  }
}

/** Offsets of `command` rewritten from a scanned substring's to the enclosing source's. */
export function relocate(command: ShellCommand, at: (offset: number) => number): void {
  const move = (span: { start: number; end: number }) => {
    const empty = span.end <= span.start;
    const start = at(span.start);
    span.end = empty ? start : at(span.end - 1) + 1;
    span.start = start;
  };
  move(command.span);
  command.words.forEach(move);
  if (command.assignments !== NONE) command.assignments.forEach(move);
  for (const redirect of command.redirects) {
    if (redirect.target) move(redirect.target);
    if (redirect.body) move(redirect.body);
  }
}

/**
 * Variables that make a shell run code of its own: at its start, tracing each command, for a
 * program's name (`BASH_CMDS[ls]=/bin/rm`), or as a function bash imports.
 */
const CODE_SCALARS = "BASH_ENV|ENV|PS4|PROMPT_COMMAND|SHELLOPTS";
const CODE_VARIABLE = `((${CODE_SCALARS}|BASH_CMDS|BASH_ALIASES)(\\[[^]*\\])?|BASH_FUNC_[^=]*)`;
const ASSIGNS_CODE = new RegExp(`^${CODE_VARIABLE}\\+?=`);
const NAMES_CODE = new RegExp(`^${CODE_VARIABLE}$`);
/** After `${`, an expansion that may set such a variable; each test is bounded by what it reads here. */
const PARAM_ASSIGNS_CODE = new RegExp(`(${CODE_SCALARS}):?=|BASH_(CMDS|ALIASES)\\[|BASH_FUNC_`, "y");

/**
 * An assignment that runs code: to a variable that makes a shell run some, or with a subscript that
 * holds code, in its name or in a value arithmetic may read (`x='a[$(…)]'; (( x ))`).
 */
export const runsCode = (word: ShellWord): boolean =>
  ASSIGNS_CODE.test(word.text) ||
  NAME_SUBSCRIPT_RUNS.test(word.text) ||
  subscriptRuns(word) ||
  // An array's elements: `a=(['$(…)']=1)`.
  (word.text.includes("=(") && /\[[^[\]]*(\$\(|`)/.test(word.text));

/** A name whose subscript holds a command substitution, quoted or not: `a['$(…)']=1`, `read a["$(…)"]`. */
export const NAME_SUBSCRIPT_RUNS = /^[A-Za-z_]\w*\[[^\]]*(\$\(|`)/;

/** Such a variable's name, as a builtin that sets it is given: `read PS4`, `printf -v PS4`. */
export const namesCode = (word: ShellWord): boolean => NAMES_CODE.test(word.text);

/**
 * A subscript holding a command substitution as text, in a name: bash evaluates it (`a[$(…)]`), even
 * in a word that expands something else (`'a[$(…)]'$x`).
 */
export function subscriptRuns(word: ShellWord): boolean {
  const text = word.text;
  // A subscript follows a name: `x='[$(…)]'` is only text.
  const open = text.search(SUBSCRIPT);
  return open >= 0 && (text.includes("$(", open) || text.includes("`", open)) && (!word.dynamic || QUOTED_CODE.has(word));
}

/**
 * A name and `=`, unquoted; or with a subscript, which may hold quotes and brackets, that `closes`
 * just before an unquoted `=` or `+=`: `a['k]']=1` assigns, `a['k]=1']` runs a file.
 */
function isAssignment(word: ShellWord, firstQuote: number, closes: boolean | undefined): boolean {
  const name = word.text.includes("=") && /^[A-Za-z_]\w*(\+?=|\[)/.exec(word.text);
  return !!name && word.start + name[0].length <= firstQuote && (name[1] !== "[" || closes === true);
}

/**
 * Where the word at `p` ends when it is made of ordinary characters alone (no quotes, escapes,
 * expansions, globs, braces, parentheses nor a leading `~`), else -1.
 */
function ordinaryWordEnd(s: string, p: number): number {
  if (codeAt(s, p) === TILDE) return -1;
  const n = s.length;
  for (let q = p; q < n; q++) {
    const c = s.charCodeAt(q);
    if (c < 128 && CHAR_KINDS[c] !== ORDINARY) return CHAR_KINDS[c] === ENDS_WORD ? q : -1;
  }
  return n;
}

/**
 * Where the word at `p` ends when it is one quoted string, closed, with nothing in it to expand
 * nor escape, else -1.
 */
function quotedWordEnd(s: string, p: number): number {
  const quote = s.charCodeAt(p);
  let close = p + 1;
  if (quote === SQ) close = s.indexOf("'", close);
  else {
    while (close < s.length) {
      const c = s.charCodeAt(close);
      if (c === DQ) break;
      if (c === DOLLAR || c === BT || c === BS) return -1;
      close++;
    }
  }
  if (close === -1 || close >= s.length) return -1;
  const after = codeAt(s, close + 1);
  return close + 1 === s.length || (after < 128 && CHAR_KINDS[after] === ENDS_WORD) ? close + 1 : -1;
}

/**
 * Short strings seen before (commands' names, redirect operators), so the same text read again is
 * neither allocated nor hashed anew.
 */
const INTERNED: string[] = new Array(1024).fill("");

/** `s.slice(start, end)`, as the string seen before when there is one. */
function interned(s: string, start: number, end: number): string {
  let hash = 0;
  for (let at = start; at < end; at++) hash = (hash * 31 + s.charCodeAt(at)) | 0;
  const slot = hash & 1023;
  const known = INTERNED[slot];
  if (known.length === end - start) {
    let at = 0;
    while (at < known.length && known.charCodeAt(at) === s.charCodeAt(start + at)) at++;
    if (at === known.length) return known;
  }
  const text = s.slice(start, end);
  if (text.length <= 8) INTERNED[slot] = text;
  return text;
}

/** `kind` for each ASCII character of `chars` in `table`, a new one of zeros by default. */
function asciiSet(chars: string, kind = 1, table: Uint8Array = new Uint8Array(128)): Uint8Array {
  for (let at = 0; at < chars.length; at++) table[chars.charCodeAt(at)] = kind;
  return table;
}

const ORDINARY = 0;
const ENDS_WORD = 1;
const SPECIAL = 2;
/** What each ASCII character is to an unquoted word. */
const CHAR_KINDS = asciiSet("('\"\\$`*?[{~", SPECIAL, asciiSet(" \t\n;&|<>)", ENDS_WORD));

/**
 * The code of the character at `at`, 0 out of the source: the NaN of `charCodeAt` there, met at
 * the end of most commands, would send compiled code back to slower code again and again.
 */
function codeAt(s: string, at: number): number {
  return at >= 0 && at < s.length ? s.charCodeAt(at) : 0;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isExtglobOpener(c: number): boolean {
  return c === QM || c === STAR || c === 43 /* + */ || c === AT || c === BANG;
}

function skipBlanks(s: string, p: number): number {
  while (codeAt(s, p) === SP || codeAt(s, p) === TAB) p++;
  return p;
}

/** The end of the redirect operator starting at `p` (`<`, `>`, `>>`, `<<-`, `<<<`, `>&`, `<&`, `<>`, `>|`). */
function operatorEnd(s: string, p: number): number {
  const c = s.charCodeAt(p);
  const next = codeAt(s, p + 1);
  if (c === LT) {
    if (next === LT) {
      const third = codeAt(s, p + 2);
      return third === LT || third === 45 ? p + 3 : p + 2;
    }
    return next === AMP || next === GT ? p + 2 : p + 1;
  }
  return next === GT || next === AMP || next === PIPE ? p + 2 : p + 1;
}

/** Past the quoted string opening at `p` (backslashes escape inside double quotes). */
function skipQuoted(s: string, p: number): number {
  const quote = s.charCodeAt(p);
  let at = p + 1;
  while (at < s.length && s.charCodeAt(at) !== quote) at += quote === DQ && s.charCodeAt(at) === BS ? 2 : 1;
  return at + 1;
}

function hasExpansion(s: string, start: number, end: number): boolean {
  for (let p = start; p < end; p++) {
    const c = s.charCodeAt(p);
    if (c === DOLLAR || c === BT) return true;
  }
  return false;
}
