import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import {
  approverDecision,
  branchDecisions,
  DECISION_ENTRY,
  DecisionLog,
  type DecisionRecord,
  grantedDecision,
  unansweredDecision,
} from "../lib/decision-log.ts";
import { Enablement } from "../lib/enablement.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import * as present from "../lib/presenter.ts";
import type { PromptOutcome } from "../lib/prompt-overlay.ts";
import {
  bashCall,
  codemodeMessage,
  codemodeResult,
  fakeApprover,
  fakeSession,
  nestedBashCall,
  useAgentDir,
} from "./support/fake-session.ts";

const CALL = { nameOfHook: "Ask", toolName: "bash", detail: "rm -r build" };
const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

describe("what a decision records", () => {
  test("the Approver's outcomes", () => {
    const base = { hook: "Ask", tool: "bash", detail: "rm -r build", by: "approver" } as const;
    expect(approverDecision(CALL, { kind: "authorize" })).toEqual({ ...base, outcome: "authorize", note: false });
    expect(approverDecision(CALL, { kind: "authorize", note: "ok", dontAskAgain: true })).toEqual({
      ...base,
      outcome: "authorize",
      note: true,
      dontAskAgain: true,
    });
    expect(approverDecision(CALL, { kind: "edit", command: "rm -r build/tmp" })).toEqual({
      ...base,
      outcome: "edit",
      edited: "rm -r build/tmp",
      note: false,
    });
    expect(approverDecision(CALL, { kind: "abort", note: "no" })).toEqual({ ...base, outcome: "abort", note: true });
    expect(approverDecision(CALL, { kind: "later" } as unknown as PromptOutcome)).toEqual({
      ...base,
      outcome: "block",
      note: false,
    });
  });

  test("decisions nobody answered", () => {
    const base = { hook: "Ask", tool: "bash", detail: "rm -r build", note: false };
    expect(unansweredDecision(CALL, "hook")).toEqual({ ...base, outcome: "block", by: "hook" });
    expect(unansweredDecision(CALL, "no UI")).toEqual({ ...base, outcome: "block", by: "no UI" });
    expect(unansweredDecision(CALL, "timeout")).toEqual({ ...base, outcome: "abort", by: "timeout" });
    expect(unansweredDecision(CALL, "script ended")).toEqual({ ...base, outcome: "block", by: "script ended" });
    expect(unansweredDecision(CALL, "turn stopped")).toEqual({ ...base, outcome: "block", by: "turn stopped" });
  });
});

describe("the session's entries", () => {
  test("a record is appended as a custom entry, with the time", () => {
    const appended: [string, unknown][] = [];
    const log = new DecisionLog({ appendEntry: (type, data) => void appended.push([type, data]) }, () => AT);
    log.record(unansweredDecision(CALL, "hook"), fakeSession().ctx);
    expect(appended).toEqual([[DECISION_ENTRY, { time: "2026-01-02T03:04:05.000Z", ...unansweredDecision(CALL, "hook") }]]);
  });

  test("this branch's decisions, oldest first; other entries and malformed records are skipped", () => {
    const record: DecisionRecord = { time: "2026-01-02T03:04:05.000Z", ...approverDecision(CALL, { kind: "abort" }) };
    const entry = (customType: string, data: unknown) => ({ type: "custom", customType, data }) as unknown as SessionEntry;
    const branch = [
      entry(DECISION_ENTRY, record),
      entry("permission-hooks-enablement", { disabled: [] }),
      { type: "message" } as unknown as SessionEntry,
      entry(DECISION_ENTRY, { ...record, outcome: "maybe" }),
      entry(DECISION_ENTRY, null),
      entry(DECISION_ENTRY, { ...record, hook: "Other", edited: "x", dontAskAgain: true, extra: 1 }),
    ];
    expect(branchDecisions(branch)).toEqual([record, { ...record, hook: "Other", edited: "x", dontAskAgain: true }]);
  });
});

describe("the audit file", () => {
  const dir = mkdtempSync(join(tmpdir(), "audit-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = {
    ...fakeSession().ctx,
    cwd: "/project",
    sessionManager: { getSessionId: () => "s-1", getBranch: () => [] },
  } as unknown as ExtensionContext;

  test("JSON lines, appended, private to its owner, with the session and the working directory", () => {
    const path = join(dir, "decisions.jsonl");
    const log = new DecisionLog({ appendEntry: () => {} }, () => AT);
    log.setAuditFile(path);
    log.record(unansweredDecision(CALL, "hook"), ctx);
    log.record(approverDecision(CALL, { kind: "authorize" }), ctx);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
      { time: "2026-01-02T03:04:05.000Z", ...unansweredDecision(CALL, "hook"), session: "s-1", cwd: "/project" },
      { time: "2026-01-02T03:04:05.000Z", ...approverDecision(CALL, { kind: "authorize" }), session: "s-1", cwd: "/project" },
    ]);
    expect(lines.at(-1)).toBe("");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("an existing file is appended to, never rewritten", () => {
    const path = join(dir, "existing.jsonl");
    writeFileSync(path, "earlier\n", { mode: 0o600 });
    const log = new DecisionLog({ appendEntry: () => {} }, () => AT);
    log.setAuditFile(path);
    log.record(unansweredDecision(CALL, "hook"), ctx);
    expect(readFileSync(path, "utf8")).toStartWith("earlier\n{");
  });

  test("each kind of decision's line, key for key in its order", () => {
    const path = join(dir, "order.jsonl");
    const log = new DecisionLog({ appendEntry: () => {} }, () => AT);
    log.setAuditFile(path);
    const grant = { rule: "Bash(rm:*)", scope: "branch" } as const;
    for (const decision of [
      approverDecision(CALL, { kind: "authorize", note: "ok", dontAskAgain: true, grant }),
      approverDecision(CALL, { kind: "edit", command: "rm -r out" }),
      approverDecision(CALL, { kind: "abort", note: "no" }),
      grantedDecision(CALL, "Bash(rm:*)"),
      unansweredDecision(CALL, "timeout"),
    ])
      log.record(decision, ctx);
    const call = '"time":"2026-01-02T03:04:05.000Z","hook":"Ask","tool":"bash","detail":"rm -r build"';
    const where = '"session":"s-1","cwd":"/project"';
    expect(readFileSync(path, "utf8")).toBe(
      [
        `{${call},"note":true,"by":"approver","outcome":"authorize","dontAskAgain":true,"grant":"Bash(rm:*)",${where}}`,
        `{${call},"note":false,"by":"approver","outcome":"edit","edited":"rm -r out",${where}}`,
        `{${call},"note":true,"by":"approver","outcome":"abort",${where}}`,
        `{${call},"outcome":"authorize","note":false,"grant":"Bash(rm:*)","by":"grant",${where}}`,
        `{${call},"outcome":"abort","note":false,"by":"timeout",${where}}`,
        "",
      ].join("\n"),
    );
  });

  test("a file that can't be written: said once, and the session still gets every record", () => {
    const notices: string[] = [];
    const quietCtx = {
      ...ctx,
      hasUI: true,
      ui: { notify: (message: string) => notices.push(message) },
    } as unknown as ExtensionContext;
    const appended: unknown[] = [];
    const log = new DecisionLog({ appendEntry: (_type, data) => void appended.push(data) }, () => AT);
    const path = join(dir, "missing", "decisions.jsonl");
    log.setAuditFile(path);
    log.record(unansweredDecision(CALL, "hook"), quietCtx);
    log.record(unansweredDecision(CALL, "hook"), quietCtx);
    expect(appended).toHaveLength(2);
    expect(notices).toEqual([present.notifyAuditFileFailed(path, `ENOENT: no such file or directory, open '${path}'`)]);
  });
});

describe("the gatekeeper records every outcome and block", () => {
  useAgentDir({
    "a-block.js": `export default (api) => api.onToolUse({ name: "Block", handler: ({ tool }) => tool.command === "blocked" && api.block("no") });`,
    "b-ask.js": `export default (api) => api.onToolUse({ name: "Ask", handler: () => api.request() });`,
  });

  let records: DecisionRecord[];
  let approver: ReturnType<typeof fakeApprover>;
  let gatekeeper: Gatekeeper;
  let session: ReturnType<typeof fakeSession>;
  beforeEach(async () => {
    records = [];
    session = fakeSession();
    approver = fakeApprover();
    const log = new DecisionLog({ appendEntry: (_type, data) => void records.push(data as DecisionRecord) }, () => AT);
    gatekeeper = new Gatekeeper(new Enablement({ appendEntry: () => {} }), approver.show, log);
    gatekeeper.load(session.ctx);
    await gatekeeper.loaded();
  });

  async function answered(command: string, outcome: PromptOutcome | "timed out") {
    const result = gatekeeper.onToolCall(bashCall("c1", command), session.ctx);
    (await approver.next()).answer(outcome as PromptOutcome);
    return result;
  }

  test("the Approver's outcomes, a hook's block, no UI", async () => {
    await answered("ls", { kind: "authorize", note: "fine" });
    await answered("rm -r build", { kind: "edit", command: "rm -r build/tmp" });
    await gatekeeper.onToolCall(bashCall("c2", "blocked"), session.ctx);
    await gatekeeper.onToolCall(bashCall("c3", "ls"), fakeSession({ hasUI: false }).ctx);
    const ask = { nameOfHook: "Ask", toolName: "bash" };
    expect(records.map(({ time, ...decision }) => decision)).toEqual([
      approverDecision({ ...ask, detail: "ls" }, { kind: "authorize", note: "fine" }),
      approverDecision({ ...ask, detail: "rm -r build" }, { kind: "edit", command: "rm -r build/tmp" }),
      unansweredDecision({ nameOfHook: "Block", toolName: "bash", detail: "blocked" }, "hook"),
      unansweredDecision({ ...ask, detail: "ls" }, "no UI"),
    ]);
  });

  test("an answer after the codemode script ended: the call was blocked, and that is what the log says", async () => {
    const script = fakeSession({ branch: [codemodeMessage("cm", 'await tools.bash({ command: "ls" });')] });
    const result = gatekeeper.onToolCall(nestedBashCall("cm/1", "cm", "ls"), script.ctx);
    const prompt = await approver.next();
    gatekeeper.onToolResult(codemodeResult("cm", "Script completed"));
    prompt.answer({ kind: "authorize" });
    expect(await result).toEqual({ block: true, reason: present.agentParentEnded("codemode") });
    expect(records.map(({ time, ...decision }) => decision)).toEqual([
      unansweredDecision({ nameOfHook: "Ask", toolName: "bash", detail: "ls" }, "script ended"),
    ]);
  });

  test("the timeout: an Abort nobody gave; the agent is told, the turn stops, later calls are blocked unasked", async () => {
    expect(await answered("ls", "timed out")).toEqual({ block: true, reason: present.agentTimedOut("Ask") });
    expect(await gatekeeper.onToolCall(bashCall("c2", "ls -a"), session.ctx)).toEqual({
      block: true,
      reason: present.agentAbort("Ask"),
    });
    expect(records.map(({ time, ...decision }) => decision)).toEqual([
      unansweredDecision({ nameOfHook: "Ask", toolName: "bash", detail: "ls" }, "timeout"),
      unansweredDecision({ nameOfHook: "Ask", toolName: "bash", detail: "ls -a" }, "turn stopped"),
    ]);
    expect(approver.asked).toHaveLength(1);
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(1);
  });

  test("after an Abort, the turn's later calls are recorded as blocked, queued prompts too; the next turn asks again", async () => {
    const first = gatekeeper.onToolCall(bashCall("c1", "rm -r build"), session.ctx);
    const queued = gatekeeper.onToolCall(bashCall("c2", "ls"), session.ctx);
    (await approver.next()).answer({ kind: "abort" });
    await first;
    expect(await queued).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await gatekeeper.onToolCall(bashCall("c3", "blocked"), session.ctx)).toEqual({
      block: true,
      reason: present.agentAbort("Ask"),
    });
    const stopped = (detail: string) => unansweredDecision({ nameOfHook: "Ask", toolName: "bash", detail }, "turn stopped");
    expect(records.map(({ time, ...decision }) => decision)).toEqual([
      approverDecision({ nameOfHook: "Ask", toolName: "bash", detail: "rm -r build" }, { kind: "abort" }),
      stopped("ls"),
      stopped("blocked"),
    ]);
    gatekeeper.onTurnEnd(session.ctx);
    const next = gatekeeper.onToolCall(bashCall("c4", "ls"), session.ctx);
    (await approver.next()).answer({ kind: "authorize" });
    expect(await next).toBeUndefined();
    expect(approver.asked).toHaveLength(2);
  });
});
