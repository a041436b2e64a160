/**
 * `bun run screenshots`: the README's pictures of the prompt, taken from real pi (0.80.3) in tmux
 * with examples/git-interference.ts and a scripted heredoc `git commit`, written as SVGs to
 * docs/images/.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { killAll, type PiSession, startPi } from "../tests/e2e/harness.ts";
import { crop, findBox, parseAnsi, renderSvg, type Screen } from "./ansi-svg.ts";

const REPO_ROOT = resolve(import.meta.dir, "..");
const OUT_DIR = join(REPO_ROOT, "docs/images");
const PI_VERSION = "0.80.3";
const COMMIT = `git commit -m "$(cat <<'EOF'
fix wordign in readme
EOF
)"`;

try {
  await takeScreenshots();
} finally {
  killAll();
}

async function takeScreenshots(): Promise<void> {
  const pi = await startPi({
    version: PI_VERSION,
    width: 100,
    height: 32,
    extensions: [join(REPO_ROOT, "dist/hooks.js")],
    files: { "agent/permissions/git-interference.ts": readFileSync(join(REPO_ROOT, "examples/git-interference.ts")) },
    script: [{ toolCalls: [{ name: "bash", arguments: { command: COMMIT } }] }],
    // pi paints its theme in truecolor only when the terminal says it can.
    env: { COLORTERM: "truecolor" },
  });
  mkdirSync(OUT_DIR, { recursive: true });

  pi.prompt("Commit the README fix.");
  await pi.waitFor("esc abort");
  save("prompt-select-mode", await settledPrompt(pi));

  pi.send("2");
  await pi.waitFor("Note to agent");
  pi.send("Tab");
  pi.type("reworded the message");
  pi.send("Tab", "Up", "Up", "C-a", "C-k");
  pi.type("fix wording in readme");
  pi.send("Down", "Down", "C-e");
  await pi.waitFor("│ fix wording in readme");
  save("prompt-edit-mode", await settledPrompt(pi));
}

/** The prompt overlay, once two captures 150 ms apart agree (text and styles; pi's spinner is outside it). */
async function settledPrompt(pi: PiSession): Promise<Screen> {
  let previous = "";
  for (;;) {
    const screen = parseAnsi(pi.screen({ escapes: true }));
    const box = findBox(screen);
    if (!box) throw new Error(`No prompt on screen:\n${pi.screen()}`);
    const prompt = crop(screen, box);
    const signature = JSON.stringify(prompt);
    if (signature === previous) return prompt;
    previous = signature;
    await Bun.sleep(150);
  }
}

function save(name: string, screen: Screen): void {
  const path = join(OUT_DIR, `${name}.svg`);
  writeFileSync(path, renderSvg(screen, { padding: 16 }));
  console.log(`wrote ${path}`);
}
