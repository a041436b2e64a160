// The decision log: every prompt outcome and every block, appended to the session as a custom
// entry (so each branch has its own history, through /reload, resume, /tree and /fork), and,
// when the Approver configured one, to an append-only JSON-lines audit file across sessions.
import type { ExtensionAPI, ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { describeError } from "./failure.ts";
import { report } from "./guard.ts";
import { appendFileSync } from "./node.ts";
import type { DecidedBy, DecisionLine, DecisionOutcome } from "./presenter.ts";
import * as present from "./presenter.ts";
import type { PromptOutcome } from "./prompt-overlay.ts";
import { customData, isRecord, isString, isStringList } from "./values.ts";

export const DECISION_ENTRY = "permission-hooks-decision";

/** One decision as recorded: `detail` is what the hook was asked about, `edited` what ran instead. */
export type DecisionRecord = DecisionLine;
export type Decision = Omit<DecisionRecord, "time">;

/** The call a decision is about. */
export interface DecidedCall {
  nameOfHook: string;
  toolName: string;
  detail: string;
}

/** The Approver's outcome as a decision. An outcome that isn't one blocked the call. */
export function approverDecision(call: DecidedCall, outcome: PromptOutcome): Decision {
  const approver = (fields: Omit<Decision, "hook" | "tool" | "detail" | "note" | "by">) =>
    decided(call, { note: outcome.note !== undefined, by: "approver", ...fields });
  switch (outcome.kind) {
    case "authorize":
      return approver({
        outcome: "authorize",
        ...(outcome.dontAskAgain && { dontAskAgain: true }),
        ...(outcome.grant && { grant: outcome.grant.rule }),
      });
    case "edit":
      return approver({ outcome: "edit", edited: outcome.command });
    case "abort":
      return approver({ outcome: "abort" });
    default:
      outcome satisfies never;
      return decided(call, { note: false, by: "approver", outcome: "block" });
  }
}

/** A call that ran without a prompt because a grant covered what asked; `call.nameOfHook` is the hook that asked. */
export function grantedDecision(call: DecidedCall, grant: string): Decision {
  return decided(call, { outcome: "authorize", note: false, grant, by: "grant" });
}

/**
 * A call that ran or was stopped without the Approver: a hook's block, no UI, the timeout, an
 * answer that came after the codemode script making the call had ended, or a stopped turn.
 */
export function unansweredDecision(call: DecidedCall, by: Exclude<DecidedBy, "approver" | "grant">): Decision {
  return decided(call, { outcome: by === "timeout" ? "abort" : "block", note: false, by });
}

/** The call's fields, then the rest in the order given: the audit file's lines keep their key order. */
function decided(call: DecidedCall, fields: Omit<Decision, "hook" | "tool" | "detail">): Decision {
  return { hook: call.nameOfHook, tool: call.toolName, detail: call.detail, ...fields };
}

export class DecisionLog {
  #auditFile: string | undefined;
  #auditFailed = false;
  readonly #pi: Pick<ExtensionAPI, "appendEntry">;
  readonly #now: () => number;

  constructor(pi: Pick<ExtensionAPI, "appendEntry">, now: () => number = Date.now) {
    this.#pi = pi;
    this.#now = now;
  }

  /** Where this session's decisions are also appended, if anywhere. */
  setAuditFile(path: string | undefined): void {
    this.#auditFile = path;
    this.#auditFailed = false;
  }

  /** The audit file is private to its owner (created 0600), only ever appended to; a failure is said once per session. */
  record(decision: Decision, ctx: ExtensionContext): void {
    const record: DecisionRecord = { time: new Date(this.#now()).toISOString(), ...decision };
    this.#pi.appendEntry<DecisionRecord>(DECISION_ENTRY, record);
    const path = this.#auditFile;
    if (!path) return;
    try {
      const line = JSON.stringify({ ...record, session: ctx.sessionManager.getSessionId(), cwd: ctx.cwd });
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
    } catch (error) {
      if (this.#auditFailed) return;
      this.#auditFailed = true;
      report(ctx, present.notifyAuditFileFailed(path, describeError(error)), "warning");
    }
  }
}

/** The decisions on this branch, oldest first; entries that aren't well-formed records are skipped. */
export function branchDecisions(branch: readonly SessionEntry[]): DecisionRecord[] {
  return customData(branch, DECISION_ENTRY).flatMap((data) => asRecord(data) ?? []);
}

function asRecord(data: unknown): DecisionRecord | undefined {
  if (!isRecord(data)) return undefined;
  const { time, hook, tool, detail, edited, outcome, note, dontAskAgain, grant, by } = data;
  const strings = isStringList([time, hook, tool, detail]);
  if (!strings || !present.DECISION_OUTCOMES.includes(outcome as DecisionOutcome) || !present.DECIDERS.includes(by as DecidedBy))
    return undefined;
  return {
    time: time as string,
    hook: hook as string,
    tool: tool as string,
    detail: detail as string,
    ...(isString(edited) && { edited }),
    outcome: outcome as DecisionOutcome,
    note: note === true,
    ...(dontAskAgain === true && { dontAskAgain }),
    ...(isString(grant) && { grant }),
    by: by as DecidedBy,
  };
}
