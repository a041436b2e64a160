// Differential test against tree-sitter-bash (dev-only, WASM loaded from node_modules): over the
// whole bench corpus and generated command lines, both must find the same simple commands with the
// same program and argument texts (as written). Every remaining difference belongs to a class listed
// with its reason in tests/fixtures/shell-treesitter-disagreements.json.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Language, type Node, Parser } from "web-tree-sitter";
import { CORPUS_FILE } from "../bench/corpus/generate.ts";
import { parseShell } from "../lib/shell-parse.ts";
import { generatedCommands } from "./support/shell-generate.ts";

interface Found {
  start: number;
  end: number;
  words: string[];
}

interface DisagreementClass {
  class: string;
  wrong: "tree-sitter" | "ours";
  reason: string;
  corpus: number;
  generated: number;
}

const CLASSES: DisagreementClass[] = JSON.parse(
  readFileSync(join(import.meta.dir, "fixtures/shell-treesitter-disagreements.json"), "utf8"),
);
const DECLARATIONS = new Set(["export", "declare", "local", "readonly", "typeset", "unset"]);

let parser: Parser;

beforeAll(async () => {
  await Parser.init();
  parser = new Parser();
  parser.setLanguage(await Language.load(join(import.meta.dir, "../node_modules/tree-sitter-bash/tree-sitter-bash.wasm")));
});

function theirs(source: string): Found[] {
  const tree = parser.parse(source);
  const found: Found[] = [];
  const walk = (node: Node) => {
    if (node.type === "command") {
      const words = [node.childForFieldName("name"), ...node.childrenForFieldName("argument")].filter((word) => word !== null);
      if (words.length > 0) found.push({ start: node.startIndex, end: node.endIndex, words: words.map((word) => word.text) });
    }
    for (const child of node.children) if (child) walk(child);
  };
  if (tree) walk(tree.rootNode);
  tree?.delete();
  return found;
}

function ours(source: string): { found: Found[]; bodies: { start: number; end: number }[] } {
  const { commands } = parseShell(source);
  const found = commands
    .filter((command) => command.via === "source" && command.words.length > 0)
    .map((command) => ({
      start: command.span.start,
      end: command.span.end,
      words: command.words.map((word) => source.slice(word.start, word.end)),
    }));
  const bodies = commands.flatMap((command) => command.redirects.flatMap((redirect) => (redirect.body ? [redirect.body] : [])));
  return { found, bodies };
}

const key = (found: Found) => `${found.start}:${JSON.stringify(found.words)}`;
const GLUE = new Set(["{", "}", "if", "then", "else", "elif", "fi", "while", "until", "do", "done"]);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** The classes that explain every difference between the two parses of `source`, or "unexplained". */
function classify(source: string): string[] {
  const mine = ours(source);
  const their = theirs(source);
  const theirKeys = new Set(their.map(key));
  const myKeys = new Set(mine.found.map(key));
  let onlyMine = mine.found.filter((found) => !theirKeys.has(key(found)));
  let onlyTheirs = their.filter((found) => !myKeys.has(key(found)));
  const classes = new Set<string>();
  const explain = (name: string, mineGone: (found: Found) => boolean, theirsGone: (found: Found) => boolean) => {
    const before = onlyMine.length + onlyTheirs.length;
    const [keepMine, keepTheirs] = [
      onlyMine.filter((found) => !mineGone(found)),
      onlyTheirs.filter((found) => !theirsGone(found)),
    ];
    [onlyMine, onlyTheirs] = [keepMine, keepTheirs];
    if (onlyMine.length + onlyTheirs.length < before) classes.add(name);
  };
  const never = () => false;
  explain("declaration", (found) => DECLARATIONS.has(found.words[0]), never);
  explain("test-bracket", (found) => found.words[0] === "[", never);
  explain(
    "dash-before-heredoc",
    (found) =>
      found.words.at(-1) === "-" &&
      onlyTheirs.some(
        (other) => other.start === found.start && key(other) === key({ ...found, words: found.words.slice(0, -1) }),
      ),
    (found) =>
      onlyMine.some(
        (other) => other.start === found.start && other.words.at(-1) === "-" && other.words.length === found.words.length + 1,
      ),
  );
  explain("heredoc-backticks", (found) => mine.bodies.some((body) => found.start >= body.start && found.start < body.end), never);
  // tree-sitter sometimes reads the commands on the next lines as more arguments (assignments and braces included).
  const explainedMine = new Set<Found>();
  const joined = (found: Found) => {
    const words = found.words.filter((word) => !ASSIGNMENT.test(word) && !GLUE.has(word));
    if (words.length === 0) return true;
    // …and, having lost track, reads the keyword before the next command as its name.
    const keyworded =
      GLUE.has(found.words[0]) &&
      mine.found.find(
        (other) => other.start > found.start && other.start < found.end && JSON.stringify(other.words) === JSON.stringify(words),
      );
    if (keyworded) {
      explainedMine.add(keyworded);
      return true;
    }
    const parts = mine.found.filter((other) => other.start >= found.start).sort((a, b) => a.start - b.start);
    const taken: Found[] = [];
    let glued: string[] = [];
    for (const part of parts) {
      if (glued.length >= words.length) break;
      if (taken.length > 0 && part.start < (taken.at(-1) as Found).end) continue;
      glued = [...glued, ...part.words.filter((word) => !ASSIGNMENT.test(word))];
      taken.push(part);
    }
    if (taken.length < 2 || JSON.stringify(glued) !== JSON.stringify(words)) return false;
    for (const part of taken) explainedMine.add(part);
    return true;
  };
  const joinedTheirs = new Set(onlyTheirs.filter(joined));
  explain(
    "newline-join",
    (found) => explainedMine.has(found),
    (found) => joinedTheirs.has(found),
  );
  if (onlyMine.length + onlyTheirs.length > 0)
    classes.add(`unexplained: ours ${JSON.stringify(onlyMine)} tree-sitter ${JSON.stringify(onlyTheirs)}`);
  return [...classes];
}

function census(sources: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const source of sources) for (const name of classify(source)) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

function expected(field: "corpus" | "generated"): Record<string, number> {
  return Object.fromEntries(CLASSES.filter((entry) => entry[field] > 0).map((entry) => [entry.class, entry[field]]));
}

describe("against tree-sitter-bash", () => {
  test("the bench corpus: same commands, or a listed disagreement", () => {
    const corpus: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
    expect(corpus.length).toBe(2400);
    expect(census(corpus)).toEqual(expected("corpus"));
  });

  test("3,000 generated command lines: same commands, or a listed disagreement", () => {
    expect(census(generatedCommands(3000))).toEqual(expected("generated"));
  });

  test("every listed class has a reason and says who is wrong", () => {
    for (const entry of CLASSES) {
      expect(entry.reason.length).toBeGreaterThan(40);
      expect(["tree-sitter", "ours"]).toContain(entry.wrong);
    }
  });
});
