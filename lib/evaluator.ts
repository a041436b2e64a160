import type { Decision, HookInput, PermissionRequestPrompt } from "./api.ts";
import { describeError, type LoadedHook } from "./loader.ts";

/** What the hooks decided about one tool call; `undefined` when no hook had an opinion. */
export type Verdict =
  | { kind: "block"; hook: LoadedHook; reason: string }
  | { kind: "request"; hook: LoadedHook; prompt: PermissionRequestPrompt }
  | { kind: "failed"; hook: LoadedHook; error: string };

export const HOOK_TIME_LIMIT_MS = 10_000;

/** Runs hooks in order; the first request or block wins. A failing hook gates the call, never passes it. */
export async function evaluate(
  hooks: readonly LoadedHook[],
  input: Omit<HookInput, "permissionRoot">,
): Promise<Verdict | undefined> {
  for (const hook of hooks) {
    let decision: unknown;
    try {
      decision = hook.handler({ ...input, permissionRoot: hook.permissionRoot });
      if (isPromise(decision)) decision = await withTimeLimit(decision);
    } catch (error) {
      return { kind: "failed", hook, error: describeError(error) };
    }
    if (decision === undefined || decision === null) continue;
    const verdict = toVerdict(hook, decision);
    if (verdict) return verdict;
  }
  return undefined;
}

function toVerdict(hook: LoadedHook, decision: unknown): Verdict | undefined {
  const value = decision as Partial<Decision>;
  if (value?.decision === "request") {
    const prompt = (value as { prompt?: unknown }).prompt;
    return { kind: "request", hook, prompt: typeof prompt === "object" && prompt !== null ? prompt : {} };
  }
  if (value?.decision === "block") {
    const reason = (value as { reason?: unknown }).reason;
    return { kind: "block", hook, reason: typeof reason === "string" && reason !== "" ? reason : "no reason given" };
  }
  return { kind: "failed", hook, error: `returned ${describeValue(decision)}, not a decision` };
}

function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return String(value);
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown })?.then === "function";
}

function withTimeLimit<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`did not decide within ${HOOK_TIME_LIMIT_MS / 1000} s`)), HOOK_TIME_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
