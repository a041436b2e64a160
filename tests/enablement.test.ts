// Enablement against pi's real SessionManager: the state of a branch is what its entries say.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExtensionContext, SessionManager } from "@earendil-works/pi-coding-agent";
import { ENABLEMENT_ENTRY, Enablement } from "../lib/enablement.ts";

const HOOKS = ["git add", "git commit", "rm -rf"];

/** One extension instance on a session: pi's appendEntry writes into that session. */
function instance(session: SessionManager) {
  const statuses: (string | undefined)[] = [];
  const ctx = {
    sessionManager: session,
    ui: { setStatus: (_key: string, text: string | undefined) => statuses.push(text) },
  } as unknown as ExtensionContext;
  const enablement = new Enablement({ appendEntry: (type, data) => void session.appendCustomEntry(type, data) });
  return {
    enablement,
    ctx,
    statuses,
    /** What session_start does: restore the branch, then (once modules loaded) track the hooks. */
    start(hooks = HOOKS) {
      enablement.restore(ctx);
      enablement.track(hooks, ctx);
      return this;
    },
    off(...names: string[]) {
      return enablement.apply(new Map(names.map((name) => [name, false])), ctx);
    },
    on(...names: string[]) {
      return enablement.apply(new Map(names.map((name) => [name, true])), ctx);
    },
    state(hooks = HOOKS) {
      return Object.fromEntries(hooks.map((name) => [name, enablement.isEnabled(name)]));
    },
  };
}

function say(session: SessionManager, text: string): string {
  session.appendMessage({ role: "user", content: text, timestamp: Date.now() } as never);
  return session.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: `re: ${text}` }],
    api: "faux",
    provider: "faux",
    model: "faux",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  } as never);
}

const ALL_ON = { "git add": true, "git commit": true, "rm -rf": true };

describe("state and records", () => {
  test("a new session: every hook on; the footer counts them", () => {
    const pi = instance(SessionManager.inMemory()).start();
    expect(pi.state()).toEqual(ALL_ON);
    expect(pi.statuses.at(-1)).toBe("permissions 3/3");
  });

  test("a change appends one record of the hooks now off, sorted, and updates the footer", () => {
    const session = SessionManager.inMemory();
    const pi = instance(session).start();
    expect(pi.off("rm -rf", "git add")).toBe(true);
    expect(pi.statuses.at(-1)).toBe("permissions 1/3");
    const records = session.getEntries().filter((entry) => entry.type === "custom");
    expect(records).toEqual([
      expect.objectContaining({ customType: ENABLEMENT_ENTRY, data: { disabled: ["git add", "rm -rf"] } }),
    ]);
  });

  test("no change, no record", () => {
    const session = SessionManager.inMemory();
    const pi = instance(session).start();
    expect(pi.on(...HOOKS)).toBe(false);
    pi.off("git add");
    expect(pi.off("git add")).toBe(false);
    expect(session.getEntries().filter((entry) => entry.type === "custom")).toHaveLength(1);
  });

  test("no hooks loaded: the footer status is cleared", () => {
    const pi = instance(SessionManager.inMemory()).start([]);
    expect(pi.statuses.at(-1)).toBeUndefined();
  });

  test("toggle all: all off while any is on, else all on; hooks not loaded keep their state", () => {
    const session = SessionManager.inMemory();
    instance(session)
      .start(["gone", ...HOOKS])
      .off("gone");
    const pi = instance(session).start();
    pi.off("git add");
    expect(pi.enablement.toggleAll(pi.ctx)).toBe(false);
    expect(pi.state()).toEqual({ "git add": false, "git commit": false, "rm -rf": false });
    expect(pi.enablement.toggleAll(pi.ctx)).toBe(true);
    expect(pi.state()).toEqual(ALL_ON);
    expect(pi.enablement.isEnabled("gone")).toBe(false);
  });

  test("a malformed record (hand-edited session) counts as all on, keeping the names that are names", () => {
    const session = SessionManager.inMemory();
    session.appendCustomEntry(ENABLEMENT_ENTRY, { disabled: ["git add", 7, null] });
    expect(instance(session).start().state()).toEqual({ ...ALL_ON, "git add": false });
    session.appendCustomEntry(ENABLEMENT_ENTRY, "garbage");
    expect(instance(session).start().state()).toEqual(ALL_ON);
    session.appendCustomEntry(ENABLEMENT_ENTRY);
    expect(instance(session).start().state()).toEqual(ALL_ON);
  });

  test("other extensions' custom entries are ignored", () => {
    const session = SessionManager.inMemory();
    instance(session).start().off("git add");
    session.appendCustomEntry("someone-else", { disabled: ["rm -rf"] });
    expect(instance(session).start().state()).toEqual({ ...ALL_ON, "git add": false });
  });
});

describe("restore across branch operations", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  test("/reload: a fresh instance on the same session finds the same state", () => {
    const session = SessionManager.inMemory();
    say(session, "one");
    instance(session).start().off("git commit");
    say(session, "two");
    expect(instance(session).start().state()).toEqual({ ...ALL_ON, "git commit": false });
  });

  test("/tree back to before the change: on again; forward to the branch with it: off again", () => {
    const session = SessionManager.inMemory();
    const before = say(session, "one");
    const pi = instance(session).start();
    pi.off("git commit");
    const after = say(session, "two");

    session.branch(before);
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual(ALL_ON);
    expect(pi.statuses.at(-1)).toBe("permissions 3/3");

    session.branch(after);
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual({ ...ALL_ON, "git commit": false });
    expect(pi.statuses.at(-1)).toBe("permissions 2/3");
  });

  test("/tree with a branch summary, and the root (an empty branch)", () => {
    const session = SessionManager.inMemory();
    const before = say(session, "one");
    const pi = instance(session).start();
    pi.off("rm -rf");
    say(session, "two");
    session.branchWithSummary(before, "what happened on the other branch");
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual(ALL_ON);
    session.resetLeaf();
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual(ALL_ON);
  });

  test("each branch keeps its own changes; the latest record on the branch wins", () => {
    const session = SessionManager.inMemory();
    const fork = say(session, "one");
    const pi = instance(session).start();
    pi.off("git add");
    pi.off("git commit");
    pi.on("git add");
    say(session, "left");
    const left = session.getLeafId() as string;

    session.branch(fork);
    pi.enablement.restore(pi.ctx);
    pi.off("rm -rf");
    const right = say(session, "right");
    expect(pi.state()).toEqual({ ...ALL_ON, "rm -rf": false });

    session.branch(left);
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual({ ...ALL_ON, "git commit": false });
    session.branch(right);
    pi.enablement.restore(pi.ctx);
    expect(pi.state()).toEqual({ ...ALL_ON, "rm -rf": false });
  });

  test("resume: the session file reopened has the state of its branch", () => {
    dir = mkdtempSync(join(tmpdir(), "enablement-"));
    const session = SessionManager.create(dir, dir);
    say(session, "one");
    instance(session).start().off("git add", "rm -rf");
    say(session, "two");
    const file = session.getSessionFile() as string;
    expect(instance(SessionManager.open(file, dir)).start().state()).toEqual({ ...ALL_ON, "git add": false, "rm -rf": false });
  });

  test("/fork: the new session carries the records on the path it was forked from, and no others", () => {
    dir = mkdtempSync(join(tmpdir(), "enablement-"));
    const session = SessionManager.create(dir, dir);
    say(session, "one");
    const pi = instance(session).start();
    pi.off("git add");
    const forkPoint = say(session, "two");
    pi.off("git commit");
    say(session, "three");

    const forked = SessionManager.open(session.getSessionFile() as string, dir);
    forked.createBranchedSession(forkPoint);
    expect(instance(forked).start().state()).toEqual({ ...ALL_ON, "git add": false });
    const reopened = SessionManager.open(forked.getSessionFile() as string, dir);
    expect(instance(reopened).start().state()).toEqual({ ...ALL_ON, "git add": false });
  });

  test("a hook seen for the first time is on, whatever the branch says about others", () => {
    const session = SessionManager.inMemory();
    instance(session).start(["git add"]).off("git add");
    const pi = instance(session).start(["git add", "brand new"]);
    expect(pi.state(["git add", "brand new"])).toEqual({ "git add": false, "brand new": true });
    expect(pi.statuses.at(-1)).toBe("permissions 1/2");
  });
});
