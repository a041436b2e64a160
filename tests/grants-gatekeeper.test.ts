// The gatekeeper with grants: an Authorize that saves one, calls a grant lets through (and the
// decision log saying so), what a grant never overrides, and a grant that can't be saved.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DecisionLog } from "../lib/decision-log.ts";
import { Enablement } from "../lib/enablement.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import { GRANTS_ENTRY, Grants } from "../lib/grants.ts";
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

const OBJECT_KEYS = ["constructor", "toString", "__proto__", "hasOwnProperty"];

// "push" asks about git push (highlighting `git push`); "mirror" blocks --mirror; the rule file
// denies force pushes and asks about npm publish; "slow" only takes its time; "odd names" asks about
// programs named like Object's properties.
useAgentDir({
  // Decides nothing, but takes its time (a chain of microtasks) when it sees a command that says "slowly" again.
  "0-slow.js": `const seen = new Set();
export default (api) => api.onToolUse({ name: "slow", handler: async ({ tool }) => {
  if (tool.name !== "bash" || !tool.command.includes("slowly")) return;
  if (seen.has(tool.command)) for (let i = 0; i < 50; i++) await null;
  seen.add(tool.command);
} });`,
  "a-push.js": `export default (api) => api.matchCommand({ name: "push", program: "git", subcommands: ["push"] });`,
  "b-mirror.js": `export default (api) => api.onToolUse({ name: "mirror", handler: ({ tool }) => tool.name === "bash" && tool.command.includes("--mirror") && api.block("no mirrors") });`,
  "c-rules.json": JSON.stringify({ permissions: { deny: ["Bash(git push -f:*)"], ask: ["Bash(npm publish:*)"] } }),
  "d-odd.js": `export default (api) => api.matchCommand({ name: "odd names", program: ${JSON.stringify(OBJECT_KEYS)} });`,
});
const PROJECT = mkdtempSync(join(tmpdir(), "pph-grant-project-"));
afterAll(() => rmSync(PROJECT, { recursive: true, force: true }));

let session: ReturnType<typeof fakeSession>;
let approver: ReturnType<typeof fakeApprover>;
let entries: { type: string; data: unknown }[];
let gatekeeper: Gatekeeper;

beforeEach(async () => {
  rmSync(join(PROJECT, ".pi"), { recursive: true, force: true });
  session = fakeSession({ cwd: PROJECT });
  approver = fakeApprover();
  entries = [];
  const pi = { appendEntry: (type: string, data: unknown) => entries.push({ type, data }) };
  gatekeeper = new Gatekeeper(new Enablement(pi), approver.show, new DecisionLog(pi, () => 0), new Grants(pi));
  gatekeeper.load(session.ctx);
  await gatekeeper.loaded();
});

function call(id: string, command: string) {
  return gatekeeper.onToolCall(bashCall(id, command), session.ctx);
}

/** Asks, is answered with `outcome`, and resolves to what pi is told. */
async function answered(command: string, outcome: PromptOutcome) {
  const result = call("c1", command);
  (await approver.next()).answer(outcome);
  return result;
}

function decisions() {
  return entries.filter((entry) => entry.type === "permission-hooks-decision").map((entry) => entry.data);
}

describe("prompts queued behind the one that saves a grant", () => {
  test("one the grant covers is not shown and its call runs; one it doesn't cover still asks", async () => {
    const first = call("c1", "git push origin main");
    const covered = call("c2", "git push origin feature");
    const uncovered = call("c3", "npm publish");
    (await approver.next()).answer({ kind: "authorize", grant: { rule: "Bash(git push:*)", scope: "branch" } });
    expect(await first).toBeUndefined();
    expect(await covered).toBeUndefined();
    const asking = await approver.next();
    expect(asking.request.detail).toBe("npm publish");
    asking.answer({ kind: "authorize" });
    expect(await uncovered).toBeUndefined();
    expect(approver.asked.map((prompt) => prompt.request.detail)).toEqual(["git push origin main", "npm publish"]);
    expect(decisions()).toMatchObject([
      { detail: "git push origin main", outcome: "authorize", by: "approver", grant: "Bash(git push:*)" },
      { detail: "git push origin feature", outcome: "authorize", by: "grant", grant: "Bash(git push:*)" },
      { detail: "npm publish", outcome: "authorize", by: "approver" },
    ]);
  });

  test("the ones still asking keep their places: decided again where they wait, not sent to the back", async () => {
    const first = call("c1", "git push origin main");
    const second = call("c2", "npm publish slowly");
    const third = call("c3", "npm publish b");
    (await approver.next()).answer({ kind: "authorize", grant: { rule: "Bash(git push:*)", scope: "branch" } });
    for (const detail of ["npm publish slowly", "npm publish b"]) {
      const prompt = await approver.next();
      expect(prompt.request.detail).toBe(detail);
      prompt.answer({ kind: "authorize" });
    }
    expect(await Promise.all([first, second, third])).toEqual([undefined, undefined, undefined]);
    expect(approver.asked.map((prompt) => prompt.request.detail)).toEqual([
      "git push origin main",
      "npm publish slowly",
      "npm publish b",
    ]);
  });

  test("one made by a script that has ended meanwhile: decided again, asked, and still blocked as the script's", async () => {
    session = fakeSession({ cwd: PROJECT, branch: [codemodeMessage("cm", "await tools.bash(…)")] });
    const nested = (id: string, command: string) => gatekeeper.onToolCall(nestedBashCall(id, "cm", command), session.ctx);
    const first = nested("cm/1", "git push origin main");
    const second = nested("cm/2", "npm publish");
    const prompt = await approver.next();
    gatekeeper.onToolResult(codemodeResult("cm", "Script completed"));
    prompt.answer({ kind: "authorize", grant: { rule: "Bash(git push:*)", scope: "branch" } });
    expect(await first).toEqual({ block: true, reason: present.agentParentEnded("codemode") });
    (await approver.next()).answer({ kind: "authorize", note: "fine" });
    expect(await second).toEqual({ block: true, reason: present.agentParentEnded("codemode") });
    expect(session.notices.filter((notice) => notice.startsWith("Not run"))).toEqual([
      present.notifyParentEnded("push", "codemode"),
      present.notifyParentEnded("c-rules.json", "codemode"),
    ]);
  });
});

describe("Authorize with a grant", () => {
  test("for this branch: the call runs, the grant is recorded in the session, the next such call runs unasked and is logged by grant", async () => {
    const grant = { rule: "Bash(git push:*)", scope: "branch" } as const;
    expect(await answered("git push origin", { kind: "authorize", grant })).toBeUndefined();
    expect(entries.filter((entry) => entry.type === GRANTS_ENTRY).map((entry) => entry.data)).toEqual([
      { grants: ["Bash(git push:*)"] },
    ]);
    expect(session.notices).toEqual([present.notifyGranted("Bash(git push:*)", "branch", undefined)]);
    expect(await call("c2", "git push upstream main")).toBeUndefined();
    expect(approver.asked).toHaveLength(1);
    expect(decisions()).toEqual([
      expect.objectContaining({ hook: "push", outcome: "authorize", by: "approver", grant: "Bash(git push:*)" }),
      {
        time: new Date(0).toISOString(),
        hook: "push",
        tool: "bash",
        detail: "git push upstream main",
        outcome: "authorize",
        note: false,
        grant: "Bash(git push:*)",
        by: "grant",
      },
    ]);
  });

  test("for this project: appended to <project>/.pi/permissions/grants.json and in force at once", async () => {
    const grant = { rule: "Bash(npm publish:*)", scope: "project" } as const;
    expect(await answered("npm publish", { kind: "authorize", grant })).toBeUndefined();
    const file = join(PROJECT, ".pi", "permissions", "grants.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ grants: ["Bash(npm publish:*)"] });
    expect(session.notices).toEqual([present.notifyGranted("Bash(npm publish:*)", "project", file)]);
    expect(await call("c2", "npm publish --tag next")).toBeUndefined();
    expect(approver.asked).toHaveLength(1);
    expect(decisions().at(-1)).toMatchObject({ hook: "c-rules.json", by: "grant", grant: "Bash(npm publish:*)" });
  });

  test("a grant that can't be saved: said, the call runs this once, the next one asks again", async () => {
    mkdirSync(join(PROJECT, ".pi", "permissions"), { recursive: true });
    const file = join(PROJECT, ".pi", "permissions", "grants.json");
    writeFileSync(file, "{ broken");
    const grant = { rule: "Bash(git push:*)", scope: "project" } as const;
    expect(await answered("git push", { kind: "authorize", grant })).toBeUndefined();
    const parseError = (() => {
      try {
        return JSON.parse("{ broken");
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(session.notices).toEqual([
      present.notifyGrantNotSaved("Bash(git push:*)", "project", file, present.grantProblems.notJson(parseError)),
    ]);
    expect(readFileSync(file, "utf8")).toBe("{ broken");
    expect(decisions()).toEqual([expect.objectContaining({ outcome: "authorize", by: "approver" })]);
    expect(decisions()[0]).not.toHaveProperty("grant");
    const next = call("c2", "git push");
    (await approver.next()).answer({ kind: "abort", note: "no" });
    expect(await next).toEqual({ block: true, reason: present.agentAbort("push", "no") });
  });

  test("a rule that isn't one is not saved, and the call still runs", async () => {
    const grant = { rule: "Bash(git push:* now)", scope: "branch" } as const;
    expect(await answered("git push", { kind: "authorize", grant })).toBeUndefined();
    expect(session.notices).toEqual([
      present.notifyGrantNotSaved(
        "Bash(git push:* now)",
        "branch",
        undefined,
        present.grantProblems.notARule("Bash(git push:* now)", '":*" may only end a pattern'),
      ),
    ]);
    expect(entries.filter((entry) => entry.type === GRANTS_ENTRY)).toEqual([]);
  });
});

describe("what a grant never overrides", () => {
  beforeEach(async () => {
    await answered("git push", { kind: "authorize", grant: { rule: "Bash(git push:*)", scope: "branch" } });
  });

  test("a rule file's deny after the granted hook", async () => {
    expect(await call("c2", "git push -f origin")).toEqual({
      block: true,
      reason: present.agentHookBlock("c-rules.json", present.ruleDenyReason("Bash(git push -f:*)", undefined)),
    });
  });

  test("a module's block", async () => {
    expect(await call("c2", "git push --mirror")).toEqual({
      block: true,
      reason: present.agentHookBlock("mirror", "no mirrors"),
    });
  });

  test("another hook's ask about a command the grant doesn't cover", async () => {
    const result = call("c2", "git push && npm publish");
    const prompt = await approver.next();
    expect(prompt.request.nameOfHook).toBe("c-rules.json");
    prompt.answer({ kind: "authorize" });
    expect(await result).toBeUndefined();
  });

  test("no grant file is written for a branch grant", () => {
    expect(existsSync(join(PROJECT, ".pi"))).toBe(false);
  });
});

describe("the grant a prompt offers", () => {
  async function requestFor(command: string) {
    const result = call("c1", command);
    const prompt = await approver.next();
    prompt.answer({ kind: "abort", note: "only looking" });
    await result;
    return prompt.request;
  }

  test("a module's highlighted command: the rule derived from it, for this branch, this project or everywhere", async () => {
    const request = await requestFor("git -C repo push origin main");
    expect(request.nameOfHook).toBe("push");
    expect(request.grantRule).toBe("Bash(git -C repo push:*)");
    expect(request.grantScopes).toEqual(["branch", "project", "user"]);
  });

  test("a rule file's ask: its asking rule as written", async () => {
    const request = await requestFor("echo hi && npm publish --tag next");
    expect(request.nameOfHook).toBe("c-rules.json");
    expect(request.grantRule).toBe("Bash(npm publish:*)");
    expect(request.grantScopes).toEqual(["branch", "project", "user"]);
  });

  test("in a project pi doesn't trust, no project scope", async () => {
    (session.ctx as { isProjectTrusted: () => boolean }).isProjectTrusted = () => false;
    const request = await requestFor("git push");
    expect(request.grantRule).toBe("Bash(git push:*)");
    expect(request.grantScopes).toEqual(["branch", "user"]);
  });

  test("nothing narrower than the hook to name: no grant offered", async () => {
    const request = await requestFor(`git push && eval "$NEXT"`);
    expect(request.nameOfHook).toBe("push");
    expect(request.grantRule).toBeUndefined();
    expect(request.grantScopes).toBeUndefined();
  });

  test.each(OBJECT_KEYS)("a program named %s: asked about as any other, with the rule derived from it", async (name) => {
    const result = call("c1", `${name} -v x`);
    const shown = await Promise.race([approver.next(), result.then((told) => ({ told }))]);
    expect("request" in shown && [shown.request.nameOfHook, shown.request.grantRule]).toEqual([
      "odd names",
      `Bash(${name} -v x:*)`,
    ]);
    if ("request" in shown) shown.answer({ kind: "abort" });
    await result;
  });

  test("the grant chosen at the prompt is what the next call meets", async () => {
    const request = await requestFor("npm publish");
    const grant = { rule: request.grantRule as string, scope: "branch" } as const;
    expect(await answered("npm publish", { kind: "authorize", grant })).toBeUndefined();
    expect(await call("c3", "npm publish --dry-run")).toBeUndefined();
    expect(approver.asked).toHaveLength(2);
  });
});
