// pi 1.x: the calls a tool makes while it runs (a codemode script's `tools.bash(…)`) pass through
// tool_call and tool_result like the agent's own, carrying `parentToolCallId`; their results go to
// that tool, not to the agent. pi 0.80 has no such calls.
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ParentCall } from "./api.ts";
import { isString } from "./values.ts";

/** The call that made this one; undefined for the agent's own calls. */
export function parentOf(event: object): string | undefined {
  const { parentToolCallId } = event as { parentToolCallId?: unknown };
  return isString(parentToolCallId) ? parentToolCallId : undefined;
}

/** The agent's own call `toolCallId`, as the agent's latest message in the session shows it. */
export function parentCall(ctx: ExtensionContext, toolCallId: string): ParentCall {
  const branch = ctx.sessionManager.getBranch();
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry?.type !== "message" || entry.message.role !== "assistant") continue;
    for (const block of entry.message.content) {
      if (block.type === "toolCall" && block.id === toolCallId) return { name: block.name, toolCallId, input: block.arguments };
    }
    break;
  }
  return { name: "", toolCallId, input: {} };
}

/** pi 1.x: a result's machine-readable form, which a script receives instead of the text for tools that declare one. */
export function structuredContentOf(event: object): unknown {
  return (event as { structuredContent?: unknown }).structuredContent;
}
