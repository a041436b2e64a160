// Per-call cost: pi's `tool_call` event through the extension's handler (normalize the input, run
// the hooks in order) until the decision, for every command of the corpus. Baseline: the same
// hook handlers called directly in a loop on a prebuilt input, the least any gate must do.
import { readFileSync } from "node:fs";
import { type LoadedHook, loadPermissionModules } from "../lib/loader.ts";
import { CORPUS_FILE } from "./corpus/generate.ts";
import { COMMAND_MODULES } from "./fixtures/command-modules.ts";
import { MODULES, ONE_HOOK, policyModules } from "./fixtures/permission-modules.ts";
import { bareGate, type Session, startSession } from "./fixtures/pi.ts";
import { median, now, ns, type Row, ratio, report } from "./stats.ts";

const ROUNDS = 5;
const TARGET_NS = 20_000;

type Call = (command: string) => Promise<unknown>;

interface Gate {
  label: string;
  ours: Call;
  bare: Call;
  hooks: readonly LoadedHook[];
  session: Session;
}

const SETUPS: [label: string, modules: Record<string, string>][] = [
  ["0 hooks", {}],
  ["1 hook", ONE_HOOK],
  ["50 hooks", MODULES],
  ["500 hooks", { ...MODULES, ...policyModules(450) }],
  ["50 hooks reading tool.commands", COMMAND_MODULES],
];

export async function perCall(): Promise<Row[]> {
  const commands: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  const gates: Gate[] = [];
  try {
    for (const [label, modules] of SETUPS) gates.push(await prepare(label, modules));
    const fifty = gates[2];
    const [quiet, gated] = await partition(commands, gates[3], fifty);
    const rows: Row[] = [];
    for (const gate of gates) {
      const [ours, bare] = await measure(quiet, gate);
      rows.push(row(`${gate.label}, nothing gates (${quiet.length} cmds)`, ours, bare, gate === fifty || gate === gates[4]));
    }
    const [ours, bare] = await measure(gated, fifty);
    rows.push(row(`50 hooks, one gates (${gated.length} cmds, no UI → block)`, ours, bare, false));
    return rows;
  } finally {
    for (const gate of gates) gate.session.remove();
  }
}

function row(label: string, ours: number, bare: number, targeted: boolean): Row {
  return {
    benchmark: "per-call",
    case: label,
    median: ns(ours),
    baseline: ns(bare),
    comparison: ratio(ours, bare),
    target: targeted ? "≤ 20 µs" : "—",
    met: targeted ? ours <= TARGET_NS : undefined,
  };
}

/** The extension as pi loads it, and the bare loop, over the same module files. */
async function prepare(label: string, modules: Record<string, string>): Promise<Gate> {
  const session = await startSession(modules);
  const { hooks, errors } = await loadPermissionModules({ user: session.permissions });
  if (errors.length > 0) throw new Error(`bench modules failed to load: ${JSON.stringify(errors)}`);
  return { label, ours: session.bash, bare: bareGate(hooks, session.ctx.cwd), hooks, session };
}

/** Fails the benchmark if a call ends in anything but silence or a decision naming a loaded hook. */
function checked(call: Call, hooks: readonly LoadedHook[]): Call {
  return async (command) => {
    const result = await call(command);
    if (result === undefined) return result;
    const reason = (result as { reason?: string }).reason ?? "";
    if (!hooks.some((hook) => reason.includes(hook.name)))
      throw new Error(`unexpected tool_call result: ${JSON.stringify(result)}`);
    return result;
  };
}

/** Commands no hook of the largest set gates, and commands one of the 50 gates. */
async function partition(commands: string[], largest: Gate, fifty: Gate): Promise<[string[], string[]]> {
  const quiet: string[] = [];
  const gated: string[] = [];
  const [inLargest, inFifty] = [checked(largest.ours, largest.hooks), checked(fifty.ours, fifty.hooks)];
  for (const command of commands) {
    if ((await inLargest(command)) === undefined) quiet.push(command);
    if ((await inFifty(command)) !== undefined) gated.push(command);
  }
  return [quiet, gated];
}

/** Median nanoseconds per call, ours and bare; they alternate call by call so drift hits both. */
async function measure(commands: string[], gate: Gate): Promise<[number, number]> {
  for (const command of commands) {
    await gate.ours(command);
    await gate.bare(command);
  }
  const ours: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const oursFirst = round % 2 === 0;
    for (const command of commands) {
      if (oursFirst) ours.push(await time(gate.ours, command));
      bare.push(await time(gate.bare, command));
      if (!oursFirst) ours.push(await time(gate.ours, command));
    }
  }
  return [median(ours), median(bare)];
}

async function time(call: Call, command: string): Promise<number> {
  const start = now();
  await call(command);
  return now() - start;
}

if (import.meta.main) await report(perCall());
