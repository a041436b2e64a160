import type { Decision, HookInput, PermissionRequestPrompt } from "./api.ts";
import { describeError, describeValue, withTimeLimit } from "./failure.ts";
import type { LoadedHook } from "./loader.ts";
import { problems } from "./presenter.ts";
import { textOr } from "./values.ts";

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
  const { cwd, tool, parent } = input;
  for (const hook of hooks) {
    if (hook.tools && !hook.tools.includes(tool.name)) continue;
    const { permissionRoot } = hook;
    try {
      // Each hook its own input, written out: a literal of known shape, where a spread copies generically.
      let decision: unknown = hook.handler(parent ? { cwd, tool, parent, permissionRoot } : { cwd, tool, permissionRoot });
      if (isPromise(decision))
        decision = await withTimeLimit(decision, HOOK_TIME_LIMIT_MS, problems.notDecidedWithin(HOOK_TIME_LIMIT_MS / 1000));
      // Nothing, or `false` from the `condition && api.request()` idiom, means no opinion.
      if (decision != null && decision !== false) return toVerdict(hook, decision);
    } catch (error) {
      return { kind: "failed", hook, error: describeError(error) };
    }
  }
  return undefined;
}

function toVerdict(hook: LoadedHook, decision: unknown): Verdict {
  const value = decision as Partial<Decision>;
  if (value.decision === "request") {
    const prompt = (value as { prompt?: unknown }).prompt;
    return { kind: "request", hook, prompt: typeof prompt === "object" && prompt ? prompt : {} };
  }
  if (value.decision === "block") {
    const reason = (value as { reason?: unknown }).reason;
    return { kind: "block", hook, reason: textOr(reason, problems.noReason) };
  }
  return { kind: "failed", hook, error: problems.notADecision(describeValue(decision)) };
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown })?.then === "function";
}
