// The code of the modules a start doesn't run (the prompt, /permissions' list, the shell parser) is
// compiled the first time it is used (scripts/defer-modules.ts). Here a copy of the bundle notes each
// time it reads a part of that code: a start and a call that no one can be asked about read none of
// it; the first prompt reads what it needs, once for the session.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { PI_VERSIONS, runPiPrint, textOf } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const READER = 'i=>Function(""+process.getBuiltinModule("node:zlib").brotliDecompressSync(';
const TEMP = mkdtempSync(join(tmpdir(), "pph-deferred-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

/** dist/hooks.js, noting in `log` each read of its deferred code. */
function noting(log: string): string {
  const bundle = readFileSync(DIST, "utf8");
  expect(bundle.split(READER).length).toBe(2);
  const note = `process.getBuiltinModule("node:fs").appendFileSync(${JSON.stringify(log)},\`read \${i}\\n\`)`;
  const copy = join(TEMP, `hooks-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(
    copy,
    bundle.replace(READER, `i=>Function((${note},"")+process.getBuiltinModule("node:zlib").brotliDecompressSync(`),
  );
  return copy;
}

/** The deferred parts read so far, by index, in the order read. */
const reads = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);

const GATE_MODULE = `export default function (api) {
  api.onToolUse({ name: "Gate", handler: ({ tool }) => (tool.name === "bash" && tool.command.includes("gate") ? api.request() : undefined) });
}
`;
const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

for (const version of PI_VERSIONS) {
  test(`pi ${version}: a print run, its call blocked for want of a prompt, reads none of the deferred code`, async () => {
    const log = join(TEMP, `print-${version}.log`);
    const run = await runPiPrint({
      version,
      prompt: "go",
      script: [bash("echo gate"), { text: "ok" }],
      agentExtensions: [noting(log)],
      files: { "agent/permissions/gate.js": GATE_MODULE },
    });
    try {
      expect(run.exitCode).toBe(0);
      const result = run.records[1]?.messages.find((message) => message.role === "toolResult");
      expect(result && textOf(result)).toBe(present.agentNoUi("Gate"));
      expect(reads(log)).toEqual([]);
    } finally {
      run.sandbox.remove();
    }
  });
}

describeEachPi("deferred code", (suite) => {
  test("the first prompt reads the deferred code it needs, each part once for the session", async () => {
    const log = join(TEMP, `prompt-${suite.version}.log`);
    const pi = await suite.start({
      script: [bash("echo gate one"), bash("echo gate two"), { text: "done" }],
      extensions: [noting(log)],
      files: { "agent/permissions/gate.js": GATE_MODULE },
    });
    expect(reads(log)).toEqual([]);
    pi.prompt("go");
    await promptReady(pi, "Gate");
    const first = reads(log);
    expect(first.length).toBeGreaterThan(0);
    expect(new Set(first).size).toBe(first.length);
    pi.send("Enter");
    expect((await toolResult(pi)).text).toBe("gate one\n");
    await promptReady(pi, "Gate");
    pi.send("Enter");
    await pi.waitFor("done");
    expect(reads(log)).toEqual(first);
  });
});
