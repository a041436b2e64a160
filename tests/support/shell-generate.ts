// Seeded bash command lines for the parser's oracle tests: words in every quoting style, and
// commands nested in chains, pipes, compound commands, substitutions and redirects.
import { random } from "../../bench/corpus/generate.ts";

type Random = ReturnType<typeof random>;

const PROGRAMS = ["git", "rm", "ls", "grep", "echo", "cat", "npm", "docker", "sed", "curl", "make", "node"];
const PLAIN = ["add", "-rf", "--force", ".", "src/a.ts", "-n", "3", "x=y", "a,b", "--opt=v", "@scope/pkg", "100%", "-", "--"];
/** Characters tree-sitter-bash reads as bash does inside quotes (it splits on an escaped tab and misreads `\\'` in `$'…'`). */
const TAME_CHARS = ["a", "b", " ", "*", "?", "[", "]", "{", "}", ";", "&", "|", "<", ">", "(", ")", "#", "~", "=", "é", "🚀"];
const CHARS = [
  "a",
  "b",
  " ",
  "\t",
  "$",
  "`",
  "\\",
  "'",
  '"',
  "*",
  "?",
  "[",
  "]",
  "{",
  "}",
  ";",
  "&",
  "|",
  "<",
  ">",
  "(",
  ")",
  "#",
  "~",
  "=",
  "é",
  "🚀",
  "n",
];

/** A word without run-time expansions, in one of bash's quoting styles; decodes to `text`. */
function literalWord(rng: Random, chars: readonly string[]): { source: string; text: string } {
  const text = rng.chance(0.5) ? rng.pick(PLAIN) : Array.from({ length: rng.int(1, 6) }, () => rng.pick(chars)).join("");
  const style = rng.int(0, chars === TAME_CHARS ? 2 : 4);
  if (style === 0 && /^[\w./@%+,:=-]+$/.test(text) && !text.startsWith("=")) return { source: text, text };
  if (style <= 1 && !text.includes("'")) return { source: `'${text}'`, text };
  if (style === 2) return { source: `"${text.replace(/[\\"$`]/g, (char) => `\\${char}`)}"`, text };
  if (style === 3) {
    return { source: [...text].map((char) => (/[\w./@%+,:=-]/.test(char) ? char : `\\${char}`)).join(""), text };
  }
  const ansi = [...text].map((char) => (char === "'" || char === "\\" ? `\\${char}` : char === "\t" ? "\\t" : char)).join("");
  return { source: `$'${ansi}'`, text };
}

function word(rng: Random, depth: number): string {
  const roll = rng.int(0, 9);
  if (depth < 3 && roll === 0) return `"$(${spaced(list(rng, depth + 1))})"`;
  if (depth < 3 && roll === 1) return `$(${spaced(list(rng, depth + 1))})`;
  if (depth < 3 && roll === 2 && rng.chance(0.3)) return `<(${simple(rng, depth + 1)})`;
  if (roll === 3) return rng.pick(["$HOME", '"$x"', "${y:-d}", "$1", "*.ts", "~/p"]);
  return literalWord(rng, TAME_CHARS).source;
}

/** `$( (a) )`, not `$((a))`, which bash reads as arithmetic. */
function spaced(code: string): string {
  return code.startsWith("(") ? ` ${code} ` : code;
}

function simple(rng: Random, depth: number): string {
  const words = [rng.pick(PROGRAMS)];
  for (let count = rng.int(0, 4); count > 0; count--) words.push(word(rng, depth));
  if (rng.chance(0.15)) words.unshift("FOO=1");
  if (rng.chance(0.2)) words.push(rng.pick(["> out", ">> log", "2>&1", "< in", "2>/dev/null", "&> all"]));
  return words.join(" ");
}

function list(rng: Random, depth: number): string {
  const parts = [pipeline(rng, depth)];
  for (let count = rng.int(0, 2); count > 0; count--)
    parts.push(rng.pick([" && ", " || ", "; ", "\n", " & "]), pipeline(rng, depth));
  return parts.join("");
}

function pipeline(rng: Random, depth: number): string {
  const parts = [command(rng, depth)];
  for (let count = rng.chance(0.3) ? rng.int(1, 2) : 0; count > 0; count--) parts.push(" | ", command(rng, depth));
  return parts.join("");
}

function command(rng: Random, depth: number): string {
  if (depth >= 3) return simple(rng, depth);
  switch (rng.int(0, 12)) {
    case 0:
      return `(${spaced(list(rng, depth + 1))})`;
    case 1:
      return `{ ${list(rng, depth + 1)}; }`;
    case 2:
      return `if ${simple(rng, depth)}; then ${list(rng, depth + 1)}; else ${simple(rng, depth)}; fi`;
    case 3:
      return `for f in a b; do ${list(rng, depth + 1)}; done`;
    case 4:
      return `while ${simple(rng, depth)}; do ${simple(rng, depth)}; done`;
    case 5:
      return `case $x in a|b) ${simple(rng, depth)};; *) ${simple(rng, depth)};; esac`;
    case 6:
      return `f() { ${simple(rng, depth)}; }`;
    default:
      return simple(rng, depth);
  }
}

/** `count` command lines from a fixed seed, with words tree-sitter-bash decodes as bash does. */
export function generatedCommands(count: number, seed = 0x5eed): string[] {
  const rng = random(seed);
  return Array.from({ length: count }, () => list(rng, 0));
}

/** `count` lists of literal words (source and decoded text) from a fixed seed, for the real-bash oracle. */
export function generatedWords(count: number, seed = 0xbea5): { source: string; text: string }[][] {
  const rng = random(seed);
  return Array.from({ length: count }, () => Array.from({ length: rng.int(1, 5) }, () => literalWord(rng, CHARS)));
}
