// Start-up cost: a scripted one-turn `pi -p` run (faux model, one bash call a hook gates, no UI,
// so the call is blocked) with the extension and 20 permission modules installed, against the same
// run without the extension (the modules stay in place, inert). Runs alternate between variants.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { agentNoUi } from "../lib/presenter.ts";
import { PI_VERSIONS, type PiRunOptions, type PiSandbox, runPiPrint, textOf } from "../tests/e2e/harness.ts";
import { MODULES } from "./fixtures/permission-modules.ts";
import { bytes, MiB, median, ns, type Row, report, signed } from "./stats.ts";

const BUNDLE = resolve(import.meta.dir, "../dist/hooks.js");
const PROMPT = "clean the build";
// Without the extension the command runs; the cheapest gated one keeps that from flattering us.
const GATED_COMMAND = "rm -rf build";
const GATING_HOOK = "recursive delete";
const SCRIPT = [{ toolCalls: [{ name: "bash", arguments: { command: GATED_COMMAND } }] }, { text: "ok" }];
const PERMISSION_FILES = Object.fromEntries(
  Object.entries(MODULES).map(([name, source]) => [`agent/permissions/${name}`, source]),
);
const GNU_TIME = "/usr/bin/time";

interface Variant {
  name: string;
  options: Partial<PiRunOptions>;
  /** What the model must read as the tool result when the call is blocked; none: the command runs. */
  blockedWith?: string;
}

const HOOK_BLOCK = agentNoUi(GATING_HOOK);
const WITHOUT: Variant = { name: "without", options: {} };
const COPIED: Variant = { name: "copied", options: { agentExtensions: [BUNDLE] }, blockedWith: HOOK_BLOCK };
// The dev loop's `-e <checkout>/dist/hooks.js`, with the checkout's own node_modules beside the
// bundle (which the bundle must not use: docs/pi-resolution.md).
const CHECKOUT: Variant = { name: "checkout", options: { extensions: [BUNDLE] }, blockedWith: HOOK_BLOCK };

// A baseline that blocks the call too: without the extension pi runs the command, which costs
// pi 0.80 more than a block does.
const MINIMAL: Variant = {
  name: "minimal",
  options: { agentExtensions: [resolve(import.meta.dir, "fixtures/minimal-gate.js")] },
  blockedWith: "blocked",
};

// The extension's own share of the cost: copied, with no permission module to load (nothing gates).
const NO_MODULES: Variant = { name: "no modules", options: { agentExtensions: [BUNDLE], files: {} } };

// The benchmark's modules read `tool.command`; one more that reads `tool.commands` makes the run
// compile the shell parser, which a start otherwise defers to first use (scripts/defer-modules.ts).
const READS_COMMANDS = `export default function (api) {
  api.onToolUse({ name: "sudo anywhere", tools: ["bash"], handler: ({ tool }) => (tool.commands.some((command) => command.programName === "sudo") ? api.request() : undefined) });
}
`;
const COMMANDS: Variant = {
  name: "reads commands",
  options: { agentExtensions: [BUNDLE], files: { ...PERMISSION_FILES, "agent/permissions/21-commands.js": READS_COMMANDS } },
  blockedWith: HOOK_BLOCK,
};

// pi loads extensions through jiti, which caches its transpiled output in the temp directory; a
// first start after a reboot or an update pays for transpiling the bundle and the modules.
const COLD_CACHE = { JITI_FS_CACHE: "false" };
/** Runs of the dev-checkout and cold-cache comparisons; the others get `--runs`. */
const INFO_RUNS = 7;

interface Sample {
  wallNs: number;
  rssBytes: number;
}

/**
 * Rounds of the targeted comparison (and the info rows that explain it, a few milliseconds each). A
 * run of pi varies by about a tenth here; with 31 rounds the median ratio moved by 0.04 from one
 * series to the next, as much as the target's margin.
 */
const RUNS = 61;

export async function startup(runs = Number(argument("--runs") ?? RUNS)): Promise<Row[]> {
  const versions = argument("--versions")?.split(",") ?? PI_VERSIONS;
  const rows: Row[] = [];
  for (const version of versions) rows.push(...(await startupOf(version, runs)));
  return rows;
}

async function startupOf(version: string, runs: number): Promise<Row[]> {
  const sandboxes = await Promise.all(
    [WITHOUT, COPIED, CHECKOUT, MINIMAL, NO_MODULES, COMMANDS].map((variant) => prepare(version, variant)),
  );
  const [without, copied, checkout, minimal, noModules, commands] = sandboxes;
  try {
    const [bare, ours, blocking] = await rounds([without, copied, minimal], runs);
    const dev = await rounds([without, checkout], INFO_RUNS);
    const cold = await rounds([without, copied], INFO_RUNS, COLD_CACHE);
    // As many runs as the targeted row: the difference it explains is a few milliseconds.
    const extensionOnly = await rounds([without, noModules], runs);
    const parsing = await rounds([without, commands], runs);
    return [
      ...compare(`pi ${version}, copied to extensions/`, [bare, ours], true),
      ...compare(`pi ${version}, copied, vs a blocking one-liner (info)`, [blocking, ours], false),
      ...compare(`pi ${version}, dev checkout, -e (info)`, dev, false),
      ...compare(`pi ${version}, copied, jiti cache cold (info)`, cold, false),
      ...compare(`pi ${version}, copied, no permission modules (info)`, extensionOnly, false),
      ...compare(`pi ${version}, copied, a hook reads tool.commands (info)`, parsing, false),
    ];
  } finally {
    for (const sandbox of sandboxes) sandbox.remove();
  }
}

/** `runs` rounds, each running every sandbox once; who goes first rotates, so none always follows another. */
async function rounds(sandboxes: PiSandbox[], runs: number, env: Record<string, string> = {}): Promise<Sample[][]> {
  const samples = sandboxes.map((): Sample[] => []);
  for (let run = 0; run < runs; run++) {
    for (let step = 0; step < sandboxes.length; step++) {
      const index = (run + step) % sandboxes.length;
      samples[index].push(await timedRun(sandboxes[index], env));
    }
  }
  return samples;
}

/**
 * Medians of both sides; the comparison is the median of per-round ratios (differences for RSS):
 * the runs of one round are back to back, so load from elsewhere on the machine hits both alike.
 */
function compare(label: string, [baseline, ours]: Sample[][], targeted: boolean): Row[] {
  const wallRatio = median(ours.map((sample, run) => sample.wallNs / baseline[run].wallNs));
  const rssDelta = median(ours.map((sample, run) => sample.rssBytes - baseline[run].rssBytes));
  const medianOf = (samples: Sample[], key: keyof Sample) => median(samples.map((sample) => sample[key]));
  return [
    {
      benchmark: "start-up",
      case: `${label}: wall`,
      median: ns(medianOf(ours, "wallNs")),
      baseline: ns(medianOf(baseline, "wallNs")),
      comparison: `${wallRatio.toFixed(3)}×`,
      target: targeted ? "≤ 1.05×" : "—",
      met: targeted ? wallRatio <= 1.05 : undefined,
    },
    {
      benchmark: "start-up",
      case: `${label}: peak RSS`,
      median: bytes(medianOf(ours, "rssBytes")),
      baseline: bytes(medianOf(baseline, "rssBytes")),
      comparison: signed(rssDelta),
      target: targeted ? "≤ +5 MiB" : "—",
      met: targeted ? rssDelta <= 5 * MiB : undefined,
    },
  ];
}

/** A sandbox per variant; its first run (through the e2e harness) warms caches and checks the outcome. */
async function prepare(version: string, variant: Variant): Promise<PiSandbox> {
  const run = await runPiPrint({ version, prompt: PROMPT, script: SCRIPT, files: PERMISSION_FILES, ...variant.options });
  const result = run.records[1]?.messages.find((message) => message.role === "toolResult");
  const text = result === undefined ? "" : textOf(result);
  const expected = variant.blockedWith === undefined ? !text.includes(HOOK_BLOCK) : text.includes(variant.blockedWith);
  if (run.exitCode !== 0 || result === undefined || !expected) {
    run.sandbox.remove();
    throw new Error(`start-up warm-up of pi ${version} (${variant.name}) went wrong:\n${run.stdout}\n${run.stderr}`);
  }
  return run.sandbox;
}

async function timedRun(sandbox: PiSandbox, env: Record<string, string>): Promise<Sample> {
  const scratch = mkdtempSync(join(tmpdir(), "pi-hooks-rss-"));
  const rssFile = join(scratch, "rss");
  const wrap = existsSync(GNU_TIME) ? [GNU_TIME, "-f", "%M", "-o", rssFile] : [];
  try {
    const [bin, ...args] = [...wrap, ...sandbox.command, "-p", PROMPT];
    const started = performance.now();
    const child = spawn(bin, args, { cwd: sandbox.cwd, env: { ...sandbox.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    const polledRss = wrap.length === 0 ? pollPeakRss(child.pid) : undefined;
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    const wallNs = (performance.now() - started) * 1e6;
    if (code !== 0) throw new Error(`pi -p exited with ${code}:\n${stderr}`);
    const rssBytes = polledRss ? polledRss.stop() : Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) * 1024;
    return { wallNs, rssBytes };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Without GNU time: the kernel's high-water mark (VmHWM), read until the process is gone. */
function pollPeakRss(pid: number | undefined): { stop(): number } {
  let peak = 0;
  const read = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // exited
    }
  };
  const timer = setInterval(read, 5);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

if (import.meta.main) await report(startup());
