import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { installPi, killAll, PI_VERSIONS, type PiSession, runPiPrint, type ScriptStep, startPi, textOf } from "./harness.ts";

const WRITE_FILE: ScriptStep[] = [
  { toolCalls: [{ name: "bash", arguments: { command: "echo hello-e2e > out.txt && cat out.txt" } }] },
  { text: "ok" },
];

afterAll(killAll);

describe.each(PI_VERSIONS)("pi %s", (version) => {
  let pi: PiSession | undefined;

  beforeAll(async () => {
    await installPi(version);
  }, 300_000);

  afterEach(() => {
    pi?.kill();
    pi = undefined;
  });

  test(
    "interactive: the scripted model runs bash and is told the result",
    async () => {
      pi = await startPi({ version, script: WRITE_FILE });
      pi.prompt("write the file");

      const records = await pi.waitForRecord(2);
      await pi.waitFor(/^\s*ok\s*$/m);

      expect(readFileSync(join(pi.cwd, "out.txt"), "utf8")).toBe("hello-e2e\n");
      expect(records[0].messages.at(-1)).toMatchObject({ role: "user" });
      const [result] = pi.lastToolResults();
      expect(result).toMatchObject({ role: "toolResult", toolName: "bash", isError: false });
      expect(textOf(result)).toContain("hello-e2e");
      expect(records[1].tools).toContain("bash");
    },
    { timeout: 60_000 },
  );

  test(
    "print mode: runs the same script and exits 0",
    async () => {
      const run = await runPiPrint({ version, script: WRITE_FILE, prompt: "write the file" });
      try {
        expect(run.exitCode).toBe(0);
        expect(run.stdout.trim()).toBe("ok");
        expect(run.records).toHaveLength(2);
        expect(run.records[1].messages.at(-1)).toMatchObject({ role: "toolResult", isError: false });
        expect(readFileSync(join(run.sandbox.cwd, "out.txt"), "utf8")).toBe("hello-e2e\n");
      } finally {
        run.sandbox.remove();
      }
    },
    { timeout: 60_000 },
  );
});
