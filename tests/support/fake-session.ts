// A stand-in for the slice of pi's ExtensionContext the gatekeeper uses, recording what it is told.
// Real pi drives the same paths end to end in tests/e2e; this is for the orderings e2e can't pin.
import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionContext, ToolCallEvent, ToolResultEvent } from "@earendil-works/pi-coding-agent";
import type { PromptOutcome, PromptRequest } from "../../lib/prompt-overlay.ts";
import type { OpenPrompt, ShowPrompt } from "../../lib/show-prompt.ts";

export interface FakeSession {
  ctx: ExtensionContext;
  notices: string[];
  /** How often the gatekeeper stopped the turn. */
  aborts: number;
  /** Interrupts the turn, as esc in pi does. */
  interrupt(): void;
}

/** `branch`: the session's entries, as `sessionManager.getBranch()` returns them. */
export function fakeSession(options: { hasUI?: boolean; mode?: string; cwd?: string; branch?: unknown[] } = {}): FakeSession {
  const controller = new AbortController();
  const session: FakeSession = {
    notices: [],
    aborts: 0,
    interrupt: () => controller.abort(),
    ctx: {
      cwd: options.cwd ?? "/project",
      hasUI: options.hasUI ?? true,
      mode: options.mode ?? "tui",
      signal: controller.signal,
      abort: () => {
        session.aborts++;
      },
      isProjectTrusted: () => true,
      sessionManager: { getBranch: () => options.branch ?? [] },
      ui: {
        notify: (message: string) => session.notices.push(message),
        setStatus: () => {},
      },
    } as unknown as ExtensionContext,
  };
  return session;
}

/** One request put to the fake Approver; answer it, or see it cancelled from outside. */
export interface AskedPrompt {
  request: PromptRequest;
  answer(outcome: PromptOutcome): void;
  cancelled: boolean;
}

/**
 * A ShowPrompt that records each request and waits for the test to answer it. Like the real one,
 * it shows nothing once the turn is interrupted.
 */
export function fakeApprover(): { show: ShowPrompt; asked: AskedPrompt[]; next(): Promise<AskedPrompt> } {
  const asked: AskedPrompt[] = [];
  const waiters = new Map<number, (prompt: AskedPrompt) => void>();
  let taken = 0;
  const show: ShowPrompt = (ctx, request, track) =>
    new Promise((resolve) => {
      if (ctx.signal?.aborted) return resolve("interrupted");
      const prompt: AskedPrompt & OpenPrompt = {
        request,
        cancelled: false,
        answer(outcome) {
          track(prompt, false);
          resolve(outcome);
        },
        cancel() {
          prompt.cancelled = true;
          prompt.answer({ kind: "abort" });
        },
      };
      track(prompt, true);
      asked.push(prompt);
      waiters.get(asked.length - 1)?.(prompt);
    });
  /** The next prompt to be shown, in order: at once if it is up already. */
  const next = () => {
    const index = taken++;
    const shown = asked[index];
    return shown ? Promise.resolve(shown) : new Promise<AskedPrompt>((resolve) => waiters.set(index, resolve));
  };
  return { show, asked, next };
}

export function bashCall(toolCallId: string, command: string): ToolCallEvent {
  return { type: "tool_call", toolCallId, toolName: "bash", input: { command } } as ToolCallEvent;
}

/** A bash call another call made: pi 1.x's nested calls carry the id of the call that made them. */
export function nestedBashCall(toolCallId: string, parentToolCallId: string, command: string): ToolCallEvent {
  return { ...bashCall(toolCallId, command), parentToolCallId } as unknown as ToolCallEvent;
}

/** A nested bash call's result as pi 1.x gives it: text for the record, structured content for the script. */
export function nestedBashResult(toolCallId: string, parentToolCallId: string, output: string): ToolResultEvent {
  return {
    ...bashResult(toolCallId, output),
    parentToolCallId,
    structuredContent: { output, truncated: false, exit_code: 0 },
  } as unknown as ToolResultEvent;
}

/** The session entry of the agent's message that made a codemode call running `code`. */
export function codemodeMessage(toolCallId: string, code: string): unknown {
  return {
    type: "message",
    message: { role: "assistant", content: [{ type: "toolCall", id: toolCallId, name: "codemode", arguments: { code } }] },
  };
}

/** A codemode call's result: the script's output. */
export function codemodeResult(toolCallId: string, text: string, isError = false): ToolResultEvent {
  return { ...bashResult(toolCallId, text), toolName: "codemode", isError } as ToolResultEvent;
}

export function bashResult(toolCallId: string, output: string): ToolResultEvent {
  return {
    type: "tool_result",
    toolCallId,
    toolName: "bash",
    input: {},
    content: [{ type: "text", text: output }],
    isError: false,
    details: undefined,
  } as ToolResultEvent;
}

/** An agent dir whose permissions folder holds these modules; point PI_CODING_AGENT_DIR at it. */
export function agentDirWith(modules: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "gatekeeper-"));
  mkdirSync(join(dir, "permissions"));
  for (const [name, source] of Object.entries(modules)) writeFileSync(join(dir, "permissions", name), source);
  return dir;
}

/**
 * The agent dir of this file's tests (or of the describe it is called in): its permissions folder
 * holds these modules, PI_CODING_AGENT_DIR points at it, and both are undone after the tests.
 */
export function useAgentDir(modules: Record<string, string>): string {
  const dir = agentDirWith(modules);
  const saved = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = dir;
  afterAll(() => {
    process.env.PI_CODING_AGENT_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
