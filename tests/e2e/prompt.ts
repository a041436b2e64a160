// Steps shared by the scenario files: waiting for a prompt, and reading what the agent was told.
import { type PiSession, textOf } from "./harness.ts";

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
