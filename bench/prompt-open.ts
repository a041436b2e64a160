// Prompt open: from pi's `tool_call` event to the prompt's first rendered frame (select mode), and
// from pressing Edit to the first edit-mode frame, for a one-line and a 1 MB command. Baselines:
// the hooks' own work plus pi-tui's Text laying the command out once; pi-tui's bare Editor opened
// on the command.
import { readFileSync } from "node:fs";
import { Text } from "@earendil-works/pi-tui";
import { loadPermissionModules } from "../lib/loader.ts";
import { EDIT_LABELS } from "../lib/presenter.ts";
import type { PermissionPrompt } from "../lib/prompt-overlay.ts";
import { CORPUS_FILE } from "./corpus/generate.ts";
import { MODULES } from "./fixtures/permission-modules.ts";
import { bareGate, type Session } from "./fixtures/pi.ts";
import { ASK_EVERY_BASH_CALL, bareEditor, COLUMNS, promptSession, skipArming } from "./fixtures/tui.ts";
import { median, now, ns, type Row, ratio, report } from "./stats.ts";

const MEGABYTE = 1_000_000;

type Gate = (command: string) => Promise<unknown>;

interface Shown {
  prompt?: PermissionPrompt;
  /** When its first frame was rendered. */
  at: number;
}

interface Sample {
  firstFrame: number;
  firstFrameBaseline: number;
  editFrame: number;
  editFrameBaseline: number;
}

export async function promptOpen(): Promise<Row[]> {
  // The 50 realistic hooks, and a last module that asks for every bash call the others let pass.
  const shown: Shown = { at: 0 };
  const session = await promptSession({ ...MODULES, ...ASK_EVERY_BASH_CALL }, (prompt) => {
    prompt.render(COLUMNS);
    shown.at = now();
    shown.prompt = prompt;
  });
  try {
    const hooks = (await loadPermissionModules({ user: session.permissions })).hooks;
    const fifty = bareGate(hooks.slice(0, -1), session.ctx.cwd);
    const lines = await quietLines(fifty);
    const cases: [label: string, command: string, samples: number][] = [
      ["one-line command", `git commit -m "Fix typo in README"`, 200],
      ["1 MB heredoc", `cat > notes.txt <<'EOF'\n${megabyte(lines).join("\n")}\nEOF`, 10],
      ["1 MB one-liner", megabyte(lines).join(" ; "), 6],
    ];
    const all = bareGate(hooks, session.ctx.cwd);
    const rows: Row[] = [];
    for (const [label, command, count] of cases) {
      const samples: Sample[] = [];
      await sample(session, shown, all, command); // warm-up
      for (let index = 0; index < count; index++) samples.push(await sample(session, shown, all, command));
      rows.push(row(`${label}: tool_call → first frame`, samples, "firstFrame", "firstFrameBaseline"));
      rows.push(row(`${label}: Edit → first edit frame`, samples, "editFrame", "editFrameBaseline"));
    }
    return rows;
  } finally {
    session.remove();
  }
}

function row(label: string, samples: Sample[], ours: keyof Sample, baseline: keyof Sample): Row {
  const [value, base] = [median(samples.map((sample) => sample[ours])), median(samples.map((sample) => sample[baseline]))];
  return {
    benchmark: "prompt open",
    case: label,
    median: ns(value),
    baseline: ns(base),
    comparison: ratio(value, base),
    target: "—",
  };
}

/** One prompt: opened by a tool call, switched to edit mode, aborted; and the baselines beside it. */
async function sample(session: Session, shown: Shown, hooks: Gate, command: string): Promise<Sample> {
  shown.prompt = undefined;
  const start = now();
  const call = session.bash(command);
  const prompt = await shownPrompt(shown);
  const firstFrame = shown.at - start;
  const firstFrameBaseline = await time(async () => {
    await hooks(command);
    new Text(command, 0, 0).render(COLUMNS);
  });
  skipArming();
  let editLines: string[] = [];
  const editFrame = await time(() => {
    prompt.handleInput("2");
    editLines = prompt.render(COLUMNS);
  });
  if (!editLines.some((line) => line.includes(EDIT_LABELS.command))) throw new Error("the prompt did not enter edit mode");
  const editFrameBaseline = await time(() => bareEditor(command).render(COLUMNS));
  prompt.cancel();
  await call;
  // An Abort without a note stops the turn; the next tool call belongs to a new one.
  await session.endTurn();
  return { firstFrame, firstFrameBaseline, editFrame, editFrameBaseline };
}

async function shownPrompt(shown: Shown): Promise<PermissionPrompt> {
  while (!shown.prompt) await Bun.sleep(0);
  return shown.prompt;
}

async function time(run: () => unknown): Promise<number> {
  const start = now();
  await run();
  return now() - start;
}

/** Corpus lines none of the 50 realistic hooks gates, so only the last module asks. */
async function quietLines(fifty: Gate): Promise<string[]> {
  const commands: string[] = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  const quiet: string[] = [];
  for (const line of commands.flatMap((command) => command.split("\n"))) {
    if ((await fifty(line)) === undefined) quiet.push(line);
  }
  return quiet;
}

/** Quiet lines, repeated until they add up to a megabyte. */
function megabyte(lines: string[]): string[] {
  const chosen: string[] = [];
  for (let length = 0; length < MEGABYTE; length += chosen[chosen.length - 1].length + 1) {
    chosen.push(lines[chosen.length % lines.length]);
  }
  return chosen;
}

if (import.meta.main) await report(promptOpen());
