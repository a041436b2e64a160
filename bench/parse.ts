// Parse: every command of the corpus through our bash parser and through tree-sitter-bash
// (web-tree-sitter, dev-only), alternating command by command; plus the worst cases.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Language, type Node, Parser } from "web-tree-sitter";
import { parseShell } from "../lib/shell-parse.ts";
import { CORPUS_FILE } from "./corpus/generate.ts";
import { median, now, ns, type Row, ratio, report } from "./stats.ts";

const ROUNDS = 5;
/** Alternating passes before timing, so both are compiled as they stay (see the README). */
const WARM_UP_PASSES = 10;
const PASSES = 15;
const WORST_RUNS = 7;

export async function parse(): Promise<Row[]> {
  const commands: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(join(import.meta.dir, "../node_modules/tree-sitter-bash/tree-sitter-bash.wasm")));
  const treeSitter = (command: string) => parser.parse(command)?.delete();
  // What an Author gets from us, tree-sitter's way: the tree walked to every simple command and its words.
  const treeSitterCommands = (command: string) => {
    const tree = parser.parse(command);
    const found: string[][] = [];
    const walk = (node: Node) => {
      if (node.type === "command") {
        const words = [node.childForFieldName("name"), ...node.childrenForFieldName("argument")];
        found.push(words.flatMap((word) => (word ? [word.text] : [])));
      }
      for (const child of node.children) if (child) walk(child);
    };
    if (tree) walk(tree.rootNode);
    tree?.delete();
    return found;
  };
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    for (const command of commands) {
      parseShell(command);
      treeSitter(command);
    }
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const command of commands) {
      if (round % 2 === 0) ours.push(time(() => parseShell(command)));
      theirs.push(time(() => treeSitter(command)));
      if (round % 2 === 1) ours.push(time(() => parseShell(command)));
    }
  }
  // Totals time whole passes over the corpus, alternating, so no per-command clock reading is counted.
  const oursPasses: number[] = [];
  const theirsPasses: number[] = [];
  const theirCommandPasses: number[] = [];
  for (let round = 0; round < PASSES; round++) {
    oursPasses.push(time(() => passOver(commands, parseShell)));
    theirsPasses.push(time(() => passOver(commands, treeSitter)));
    theirCommandPasses.push(time(() => passOver(commands, treeSitterCommands)));
  }
  const [oursTotal, theirsTotal, theirCommandsTotal] = [median(oursPasses), median(theirsPasses), median(theirCommandPasses)];
  const megabyte = `${'git add . && echo "$(date)" | tee -a log; '.repeat(24_000)}true`;
  const nested = `echo ${"$(echo ".repeat(10_000)}x${")".repeat(10_000)}`;
  const brackets = `printf -v 'x${"[".repeat(1_000_000)}'`;
  return [
    {
      benchmark: "parse",
      case: `per corpus command (${commands.length}), median`,
      median: ns(median(ours)),
      baseline: ns(median(theirs)),
      comparison: ratio(median(ours), median(theirs)),
      target: "≤ 2 µs",
      met: median(ours) <= 2_000,
    },
    {
      benchmark: "parse",
      case: `whole corpus to simple commands, one pass (median of ${PASSES})`,
      median: ns(oursTotal),
      baseline: ns(theirCommandsTotal),
      comparison: ratio(oursTotal, theirCommandsTotal),
      target: "≤ 0.05× tree-sitter",
      met: oursTotal * 20 <= theirCommandsTotal,
    },
    {
      benchmark: "parse",
      case: "whole corpus against tree-sitter's bare parse (info)",
      median: ns(oursTotal),
      baseline: ns(theirsTotal),
      comparison: ratio(oursTotal, theirsTotal),
      target: "—",
    },
    worst(`1 MB one-liner (${(megabyte.length / 1e6).toFixed(1)} MB)`, megabyte),
    worst("10,000 nested $( )", nested),
    worst("1 MB of [ in a name given to printf -v", brackets),
  ];
}

function worst(label: string, source: string): Row {
  const samples = Array.from({ length: WORST_RUNS }, () => time(() => parseShell(source)));
  return { benchmark: "parse", case: label, median: ns(median(samples)), target: "< 100 ms", met: median(samples) < 100_000_000 };
}

function passOver(commands: readonly string[], parse: (command: string) => unknown): void {
  for (const command of commands) parse(command);
}

function time(run: () => unknown): number {
  const start = now();
  run();
  return now() - start;
}

if (import.meta.main) await report(parse());
