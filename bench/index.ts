// `bun run bench`: every benchmark in its own process (so none inherits another's heap or JIT
// state), then one table. `--only per-call,bundle` picks benchmarks; `--runs N` sets start-up runs.
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { type Row, table } from "./stats.ts";

const BENCHMARKS = ["bundle", "parse", "per-call", "rules", "keystrokes", "prompt-open", "startup"];

function main(): void {
  const only = option("--only")?.split(",");
  const runs = option("--runs");
  const started = performance.now();
  const rows: Row[] = [];
  for (const name of BENCHMARKS.filter((name) => !only || only.includes(name))) {
    process.stderr.write(`${name}…\n`);
    rows.push(...run(name, runs ? ["--runs", runs] : []));
  }
  const minutes = (performance.now() - started) / 60_000;
  console.log(`\n${machine()}; ${minutes.toFixed(1)} min\n`);
  console.log(table(rows));
}

function run(name: string, extra: string[]): Row[] {
  const child = spawnSync(process.execPath, [resolve(import.meta.dir, `${name}.ts`), "--json", ...extra], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`bench/${name}.ts failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split("\n").pop() ?? "[]");
}

function machine(): string {
  const cores = cpus();
  const load = loadavg()[0].toFixed(2);
  return `${cores.length} × ${cores[0]?.model.trim() ?? "CPU"}, Bun ${Bun.version}, load ${load}, ${new Date().toISOString().slice(0, 10)}`;
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

main();
