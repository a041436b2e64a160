// Shared by the scenario files: one suite per pi version, waiting for a prompt, reading what the agent was told.
import { afterAll, afterEach, beforeAll, describe } from "bun:test";
import { installPi, killAll, PI_VERSIONS, type PiSession, type StartOptions, startPi, textOf } from "./harness.ts";

/** Waits until the prompt of `hook` is on screen and listening: its arming interval is over. */
export async function promptReady(pi: PiSession, hook: string): Promise<string> {
  await pi.waitFor(`Authorization required: ${hook}`);
  return pi.waitFor("esc abort");
}

/** The first tool result in the model's `call`-th context, once that call happened. */
export async function toolResult(pi: PiSession, call = 2): Promise<{ text: string; isError: boolean }> {
  const records = await pi.waitForRecord(call);
  const result = records[call - 1]?.messages.findLast((message) => message.role === "toolResult");
  if (result?.role !== "toolResult") throw new Error(`no tool result in the model's context on call ${call}`);
  return { text: textOf(result), isError: result.isError };
}

/** One suite's handle on pi: the version under test, and sessions that end with their test. */
export interface PiSuite {
  readonly version: string;
  start(options: Omit<StartOptions, "version">): Promise<PiSession>;
}

/**
 * Declares `body` once per pi version: pi is installed before the first test, and every session
 * a test starts is killed after it.
 */
export function describeEachPi(title: string, body: (suite: PiSuite) => void): void {
  afterAll(killAll);
  describe.each(PI_VERSIONS)(`pi %s: ${title}`, (version) => {
    const sessions: PiSession[] = [];
    beforeAll(() => installPi(version), 300_000);
    afterEach(() => {
      for (const session of sessions.splice(0)) session.kill();
    });
    body({
      version,
      async start(options) {
        const session = await startPi({ version, ...options });
        sessions.push(session);
        return session;
      },
    });
  });
}
