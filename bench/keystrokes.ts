// Keystroke latency in edit mode: handleInput + render at 120 columns, key by key, for a 10-,
// 200- and 5,000-line command, against pi-tui's bare Editor given the same text and keys.
import { readFileSync } from "node:fs";
import { CORPUS_FILE } from "./corpus/generate.ts";
import { bareEditor, COLUMNS, KEYS, promptInEditMode } from "./fixtures/tui.ts";
import { median, now, ns, type Row, ratio, report } from "./stats.ts";

const SIZES: [lines: number, rounds: number][] = [
  [10, 400],
  [200, 20],
  [5_000, 6],
];
const TARGET = 1.25;
const WARM_UP_PASSES = 20;

/** Move into the text, type a word, take it back, move out: the text ends as it began. */
const SCRIPT = [
  ...repeat(KEYS.up, 6),
  ...repeat(KEYS.left, 4),
  ..."sudo ",
  ...repeat(KEYS.backspace, 5),
  ...repeat(KEYS.right, 3),
  ...repeat(KEYS.down, 6),
  ..."-n",
  ...repeat(KEYS.backspace, 2),
];

interface Target {
  handleInput(data: string): void;
  render(width: number): string[];
}

export async function keystrokes(): Promise<Row[]> {
  const lines = corpusLines();
  const rows: Row[] = [];
  for (const [count, rounds] of SIZES) {
    const command = Array.from({ length: count }, (_, index) => lines[index % lines.length]).join("\n");
    const ours = await promptInEditMode(command);
    const [perKey, bare] = measure(ours.prompt, bareEditor(command), rounds);
    await ours.close();
    rows.push({
      benchmark: "keystroke",
      case: `edit mode, ${count.toLocaleString("en")}-line command`,
      median: ns(perKey),
      baseline: ns(bare),
      comparison: ratio(perKey, bare),
      target: `≤ ${TARGET}×`,
      met: perKey / bare <= TARGET,
    });
  }
  return rows;
}

/** Every line of the corpus, multi-line commands split, in corpus order. */
export function corpusLines(): string[] {
  const commands: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  return commands.flatMap((command) => command.split("\n"));
}

/** Median nanoseconds per keystroke; the two targets take turns key by key. */
function measure(ours: Target, bare: Target, rounds: number): [number, number] {
  ours.render(COLUMNS);
  bare.render(COLUMNS);
  // Warm up until both are compiled as they will stay: a short text's keystroke is a few tens of
  // µs, and one pass leaves the medians at the mercy of when the JIT steps in.
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    for (const key of SCRIPT) {
      press(ours, key);
      press(bare, key);
    }
  }
  const oursSamples: number[] = [];
  const bareSamples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const key of SCRIPT) {
      const first = round % 2 === 0;
      const a = press(first ? ours : bare, key);
      const b = press(first ? bare : ours, key);
      oursSamples.push(first ? a : b);
      bareSamples.push(first ? b : a);
    }
  }
  return [median(oursSamples), median(bareSamples)];
}

function press(target: Target, key: string): number {
  const start = now();
  target.handleInput(key);
  target.render(COLUMNS);
  return now() - start;
}

function repeat(key: string, count: number): string[] {
  return Array<string>(count).fill(key);
}

if (import.meta.main) await report(keystrokes());
