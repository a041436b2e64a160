/**
 * The demo's model, a pi extension: a script ("demo/scripted") that needs no API key or network.
 * Every user message replays it from the top; the step is how many replies followed that message:
 *   1. append a line to README.md          (no hook minds)
 *   2. `git add README.md`                 (blocked by the Git interference hook)
 *   3. a heredoc `git commit`, "fix wordign in readme"   (the hook asks the Approver)
 *   4. quote the tool result verbatim, then `git log -1 --format=%B`
 *   5. sign off
 */
import {
  type AssistantMessage,
  type Context,
  createFauxCore,
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  type Message,
} from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export const DEMO_PROVIDER = "demo";
export const DEMO_MODEL = "scripted";
export const FIRST_MESSAGE = "Add a line about permission hooks to the README and commit it.";

const COMMIT_COMMAND = `git commit README.md -m "$(cat <<'EOF'
fix wordign in readme
EOF
)"`;

const README_LINE = "Permission hooks let you edit a command before it runs.";

export default function demoModel(pi: ExtensionAPI): void {
  const core = createFauxCore({
    provider: DEMO_PROVIDER,
    api: DEMO_PROVIDER,
    models: [{ id: DEMO_MODEL }],
    tokensPerSecond: 400,
  });

  pi.registerProvider(DEMO_PROVIDER, {
    name: "Demo",
    baseUrl: "http://localhost:0",
    apiKey: "no-key-needed",
    api: DEMO_PROVIDER,
    streamSimple(model, context, options) {
      core.setResponses([reply(context)]);
      return core.streamSimple(model, context, options);
    },
    models: [
      {
        id: DEMO_MODEL,
        name: "Scripted demo model",
        reasoning: false,
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 128_000,
        maxTokens: 16_384,
      },
    ],
  });

  pi.on("session_start", (event, ctx) => {
    if (event.reason === "startup" && ctx.hasUI) ctx.ui.setEditorText(FIRST_MESSAGE);
  });
}

function reply(context: Context): AssistantMessage {
  // pi 1.x also puts system messages into the transcript.
  const messages = context.messages.filter((message) => message.role !== ("system" as Message["role"]));
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const step = messages.slice(lastUser + 1).filter((message) => message.role === "assistant").length;
  switch (step) {
    case 0:
      return bash("First, a line for the README.", `echo "${README_LINE}" >> README.md`);
    case 1:
      return bash("Now I'll stage it.", "git add README.md");
    case 2:
      return bash("Staging is off limits, so I'll commit the file directly.", COMMIT_COMMAND);
    case 3:
      return bash(
        `The tool result told me:\n\n${fenced(lastToolResultText(messages))}\n\nHere is the message git recorded:`,
        "git log -1 --format=%B",
      );
    default:
      return fauxAssistantMessage(fauxText("That's the demo. Send any message to run it again; ctrl+c twice quits."));
  }
}

function bash(text: string, command: string): AssistantMessage {
  return fauxAssistantMessage([fauxText(text), fauxToolCall("bash", { command })], { stopReason: "toolUse" });
}

function lastToolResultText(messages: Message[]): string {
  const result = messages.findLast((message) => message.role === "toolResult");
  if (!result) return "";
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** A code fence longer than any backtick run in the text, so the quote stays verbatim. */
function fenced(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}\n${text}\n${fence}`;
}
