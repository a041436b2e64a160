// Per-call cost of a rule file: 200 rules (bash patterns over common programs, patterns whose
// program may be anything, Read/Edit paths that make every redirect resolve, MCP tools), pi's
// `tool_call` through the extension for every corpus command no rule decides. Baseline: the rule
// file's own handler called in a bare loop on a prebuilt input, as in per-call.
import { readFileSync } from "node:fs";
import { loadPermissionModules } from "../lib/loader.ts";
import { CORPUS_FILE } from "./corpus/generate.ts";
import { bareGate, startSession } from "./fixtures/pi.ts";
import { median, now, ns, type Row, ratio, report } from "./stats.ts";

const ROUNDS = 5;
const TARGET_NS = 20_000;
const PROGRAMS = [
  "git",
  "npm",
  "docker",
  "kubectl",
  "curl",
  "terraform",
  "aws",
  "pip",
  "cargo",
  "make",
  "rm",
  "ssh",
  "sudo",
  "yarn",
];

/** 200 rules that real files hold, none of which matches a corpus command (checked below). */
export function benchRules(): { permissions: Record<"deny" | "ask" | "allow", string[]> } {
  const deny: string[] = [];
  const ask: string[] = [];
  const allow: string[] = [];
  for (let i = 0; i < 140; i++) {
    const program = PROGRAMS[i % PROGRAMS.length];
    [deny, ask, allow][i % 3]?.push(`Bash(${program} bench-${i}:*)`);
  }
  for (let i = 0; i < 10; i++) ask.push(`Bash(* --bench-flag-${i})`);
  for (let i = 0; i < 20; i++) deny.push(`Edit(./bench-secret-${i}/**)`);
  for (let i = 0; i < 15; i++) ask.push(`Read(~/.bench-${i}/**)`);
  for (let i = 0; i < 15; i++) ask.push(`mcp__bench${i}__create`);
  return { permissions: { deny, ask, allow } };
}

export async function rules(): Promise<Row[]> {
  const commands: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  const file = benchRules();
  const count = Object.values(file.permissions).flat().length;
  const session = await startSession({ "rules.json": JSON.stringify(file) });
  try {
    const { hooks, errors } = await loadPermissionModules({ user: session.permissions });
    if (errors.length > 0 || hooks.length !== 1) throw new Error(`bench rules failed to load: ${JSON.stringify(errors)}`);
    const bare = bareGate(hooks, session.ctx.cwd);
    const quiet: string[] = [];
    for (const command of commands) if ((await session.bash(command)) === undefined) quiet.push(command);
    for (const command of quiet) {
      await session.bash(command);
      await bare(command);
    }
    const ours: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const command of quiet) {
        const oursFirst = round % 2 === 0;
        if (oursFirst) ours.push(await time(session.bash, command));
        baseline.push(await time(bare, command));
        if (!oursFirst) ours.push(await time(session.bash, command));
      }
    }
    const [mine, base] = [median(ours), median(baseline)];
    return [
      {
        benchmark: "rules",
        case: `${count} rules, nothing matches (${quiet.length} cmds)`,
        median: ns(mine),
        baseline: ns(base),
        comparison: ratio(mine, base),
        target: "≤ 20 µs",
        met: mine <= TARGET_NS,
      },
    ];
  } finally {
    session.remove();
  }
}

async function time(call: (command: string) => Promise<unknown>, command: string): Promise<number> {
  const start = now();
  await call(command);
  return now() - start;
}

if (import.meta.main) await report(rules());
