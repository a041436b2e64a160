// Medians, units and the one table every benchmark reports into.

export type Unit = "ns" | "bytes";

export interface Measure {
  value: number;
  unit: Unit;
}

export interface Row {
  benchmark: string;
  case: string;
  median: Measure;
  baseline?: Measure;
  /** How the median compares with the baseline, as shown in the table (a ratio or a difference). */
  comparison?: string;
  target: string;
  met?: boolean;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ns(value: number): Measure {
  return { value, unit: "ns" };
}

export function bytes(value: number): Measure {
  return { value, unit: "bytes" };
}

export const KiB = 1024;
export const MiB = 1024 * 1024;

export function format(measure: Measure | undefined): string {
  if (!measure || Number.isNaN(measure.value)) return "—";
  return measure.unit === "ns" ? formatTime(measure.value) : formatBytes(measure.value);
}

function formatTime(nanoseconds: number): string {
  if (nanoseconds < 1_000) return `${nanoseconds.toFixed(0)} ns`;
  if (nanoseconds < 1_000_000) return `${(nanoseconds / 1_000).toFixed(nanoseconds < 10_000 ? 2 : 1)} µs`;
  if (nanoseconds < 1_000_000_000) return `${(nanoseconds / 1_000_000).toFixed(nanoseconds < 10_000_000 ? 2 : 1)} ms`;
  return `${(nanoseconds / 1_000_000_000).toFixed(2)} s`;
}

function formatBytes(count: number): string {
  if (Math.abs(count) < 10 * KiB) return `${count.toFixed(0)} B`;
  if (Math.abs(count) < MiB) return `${(count / KiB).toFixed(1)} KiB`;
  return `${(count / MiB).toFixed(Math.abs(count) < 10 * MiB ? 2 : 1)} MiB`;
}

export function ratio(value: number, baseline: number): string {
  return `${(value / baseline).toFixed(2)}×`;
}

/** A byte count with its sign, for differences. */
export function signed(delta: number): string {
  return `${delta >= 0 ? "+" : "−"}${formatBytes(Math.abs(delta))}`;
}

/** A markdown table: benchmark, case, median, baseline, ratio, target, met?. */
export function table(rows: readonly Row[]): string {
  const header = ["benchmark", "case", "median", "baseline", "ratio", "target", "met?"];
  const cells = rows.map((row) => [
    row.benchmark,
    row.case,
    format(row.median),
    format(row.baseline),
    row.comparison ?? "—",
    row.target,
    row.met === undefined ? "—" : row.met ? "yes" : "**no**",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column].length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column])).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  return [line(header), rule, ...cells.map(line)].join("\n");
}

/** Nanoseconds from a monotonic clock. */
export const now: () => number = () => Bun.nanoseconds();

/** How a benchmark module reports: a table on its own, JSON rows when run by bench/index.ts. */
export async function report(rows: Promise<Row[]>): Promise<void> {
  const result = await rows;
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(result)}\n`);
  else console.log(table(result));
}
