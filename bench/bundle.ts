// Bundle: the size of dist/hooks.js, and how long importing it takes in a fresh process whose pi
// packages are already loaded (as inside pi), against importing an empty extension the same way.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { bytes, KiB, median, ns, type Row, ratio, report } from "./stats.ts";

const BUNDLE = resolve(import.meta.dir, "../dist/hooks.js");
const EMPTY = resolve(import.meta.dir, "fixtures/empty-extension.js");
const PROBE = resolve(import.meta.dir, "fixtures/import-probe.ts");
const LIMIT = 100 * 1000;
const RUNS = 15;

export async function bundle(): Promise<Row[]> {
  const source = readFileSync(BUNDLE);
  const gzipped = gzipSync(source).length;
  const samples = Array.from({ length: RUNS }, probe);
  const [ours, empty] = [median(samples.map((sample) => sample.bundle)), median(samples.map((sample) => sample.empty))];
  return [
    {
      benchmark: "bundle",
      case: `dist/hooks.js size (gzip ${(gzipped / KiB).toFixed(1)} KiB)`,
      median: bytes(source.length),
      target: "≤ 100 KB",
      met: source.length <= LIMIT,
    },
    {
      benchmark: "bundle",
      case: "dist/hooks.js import, pi loaded",
      median: ns(ours),
      baseline: ns(empty),
      comparison: ratio(ours, empty),
      target: "—",
    },
  ];
}

function probe(): { empty: number; bundle: number } {
  const run = spawnSync(process.execPath, [PROBE, EMPTY, BUNDLE], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`import probe failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop() ?? "");
}

if (import.meta.main) await report(bundle());
