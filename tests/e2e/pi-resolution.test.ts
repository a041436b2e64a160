// The extension runs on the packages of the pi that loaded it, whatever sits beside it, on Bun and
// Node alike, and never makes Bun fetch a package (docs/pi-resolution.md).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as present from "../../lib/presenter.ts";
import {
  installNode,
  installPi,
  killAll,
  PI_VERSIONS,
  type PiSession,
  runPiPrint,
  type StartOptions,
  startPi,
} from "./harness.ts";
import { promptReady } from "./prompt.ts";

const BUNDLE = resolve(import.meta.dir, "../../dist/hooks.js");
const CACHE = resolve(import.meta.dir, "../../.cache");
const HOOK = "Gate";
const COMMAND = "echo hello-from-the-agent";
const GATE = `export default function (api) {
  api.onToolUse({ name: "${HOOK}", handler: ({ tool }) => tool.name === "bash" && api.request() });
}
`;
const SCRIPT = [{ toolCalls: [{ name: "bash", arguments: { command: COMMAND } }] }, { text: "ok" }];
/** Another pi's packages, for the ones beside the extension: whichever supported version this isn't. */
const OTHER = { "0.80.3": "1.6.0", "1.6.0": "0.80.3" } as Record<string, string>;

const scratchDirs: string[] = [];
afterAll(killAll);
afterEach(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The bundle in a directory whose node_modules holds another pi's packages, as after an npm or git
 * `pi install` (npm adds the peer dependencies, at their latest) or in a checkout (the dev copies).
 * A runtime that resolved the bundle's imports from where it sits would load those.
 */
async function besideAnotherPi(version: string): Promise<string> {
  const other = OTHER[version];
  if (!other) throw new Error(`no other pi to put beside pi ${version}`);
  await installPi(other);
  const dir = mkdtempSync(join(tmpdir(), "pi-beside-"));
  scratchDirs.push(dir);
  copyFileSync(BUNDLE, join(dir, "hooks.js"));
  symlinkSync(join(CACHE, `pi-${other}/node_modules`), join(dir, "node_modules"));
  return join(dir, "hooks.js");
}

/** Edit mode open on the gated call. */
async function editing(options: StartOptions): Promise<PiSession> {
  const pi = await startPi({ ...options, width: 100, height: 30 });
  pi.prompt("run it");
  await promptReady(pi, HOOK);
  pi.type("2");
  await pi.waitFor(present.EDIT_LABELS.note);
  return pi;
}

for (const runtime of ["bun", "node"] as const) {
  describe.each(PI_VERSIONS)(`pi %s on ${runtime}`, (version) => {
    let pi: PiSession | undefined;
    beforeAll(async () => {
      await installPi(version);
      if (runtime === "node") await installNode();
    }, 300_000);
    afterEach(() => {
      pi?.kill();
      pi = undefined;
    });

    test("edit mode: after Home the command row still shows the whole command inside the frame", async () => {
      pi = await editing({
        version,
        runtime,
        extensions: [await besideAnotherPi(version)],
        files: { "agent/permissions/gate.js": GATE },
        script: SCRIPT,
      });
      pi.send("Home");
      pi.type(">");
      await pi.waitFor(/│ >echo hello-from-the-agent +│\n/);
    }, 60_000);

    test("the prompt's editor is pi's own: it follows the user's pi keybindings", async () => {
      pi = await editing({
        version,
        runtime,
        extensions: [await besideAnotherPi(version)],
        files: {
          "agent/permissions/gate.js": GATE,
          "agent/keybindings.json": JSON.stringify({ "tui.editor.cursorLineStart": ["home", "alt+a"] }),
        },
        script: SCRIPT,
      });
      // Only pi's own pi-tui knows the user's bindings: pi hands them to it at start-up.
      pi.send("M-a");
      pi.type(">");
      await pi.waitFor(/│ >echo hello-from-the-agent +│\n/);
    }, 60_000);
  });
}

describe.each(PI_VERSIONS)("pi %s on bun, as a user runs it", (version) => {
  let registry: ReturnType<typeof Bun.serve> | undefined;
  const requests: string[] = [];
  beforeAll(async () => {
    await installPi(version);
    registry = Bun.serve({
      port: 0,
      fetch(request) {
        requests.push(new URL(request.url).pathname);
        return new Response("{}", { status: 404 });
      },
    });
  }, 300_000);
  afterAll(() => registry?.stop(true));

  test("copied alone into extensions/, with auto-install on: gates, and Bun asks no registry for anything", async () => {
    const run = await runPiPrint({
      version,
      prompt: "run it",
      agentExtensions: [BUNDLE],
      files: { "agent/permissions/gate.js": GATE },
      script: SCRIPT,
      setup(sandbox) {
        sandbox.command = sandbox.command.filter((arg) => arg !== "--no-install");
        sandbox.env.BUN_CONFIG_REGISTRY = registry?.url.href ?? "";
      },
    });
    try {
      expect(run.exitCode).toBe(0);
      const result = run.records[1]?.messages.findLast((message) => message.role === "toolResult");
      expect(result?.content).toEqual([{ type: "text", text: present.agentNoUi(HOOK) }]);
      expect(requests).toEqual([]);
    } finally {
      run.sandbox.remove();
    }
  }, 60_000);

  test("a pi that lacks what the extension needs: one notice, and every call blocked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-lacking-"));
    scratchDirs.push(dir);
    const lacking = join(dir, "hooks.js");
    // Stands in for a pi-tui without the names the extension uses.
    writeFileSync(
      lacking,
      readFileSync(BUNDLE, "utf8").replace('jitiImport("@earendil-works/pi-tui")', 'jitiImport("node:path")'),
    );
    const run = await runPiPrint({
      version,
      prompt: "run it",
      extensions: [lacking],
      script: SCRIPT,
    });
    try {
      const missing =
        "missing Editor, Input, decodeKittyPrintable, fuzzyFilter, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi";
      expect(run.stderr.split("\n").filter((line) => line.includes("pi-permission-hooks"))).toEqual([
        present.notifyPiUnavailable(missing),
      ]);
      const result = run.records[1]?.messages.findLast((message) => message.role === "toolResult");
      expect(result?.content).toEqual([{ type: "text", text: present.agentInternalError(missing) }]);
    } finally {
      run.sandbox.remove();
    }
  }, 60_000);
});
