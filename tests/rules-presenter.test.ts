// Every rule-related string a person or the agent reads, to the byte (docs/design.md: presenter).
import { describe, expect, test } from "bun:test";
import * as present from "../lib/presenter.ts";

describe("what decided", () => {
  test("a deny names the rule, with the Author's reason when there is one", () => {
    expect(present.agentHookBlock("rules.json", present.ruleDenyReason("Bash(rm -rf:*)", "Never delete recursively."))).toBe(
      "Blocked by permission hook rules.json: rule Bash(rm -rf:*): Never delete recursively.",
    );
    expect(present.agentHookBlock("rules.json", present.ruleDenyReason("Edit(./.env)", undefined))).toBe(
      "Blocked by permission hook rules.json: rule Edit(./.env) denies this call.",
    );
  });

  test("an ask names the rule in the guidance, then the Author's guidance", () => {
    expect(present.ruleAskGuidance("Bash(git push:*)", undefined)).toBe("Asked by rule Bash(git push:*).");
    expect(present.ruleAskGuidance("Bash(git push:*)", "Check the branch.")).toBe(
      "Asked by rule Bash(git push:*).\nCheck the branch.",
    );
  });

  test("a rule file's description counts its rules", () => {
    expect(present.ruleFileDescription({ deny: 2, ask: 1, allow: 0, grants: 0 })).toBe("Rules: 2 deny, 1 ask, 0 allow");
    expect(present.ruleFileDescription({ deny: 0, ask: 0, allow: 0, grants: 1 })).toBe("Rules: 0 deny, 0 ask, 0 allow, 1 grant");
    expect(present.ruleFileDescription({ deny: 0, ask: 0, allow: 0, grants: 3 })).toBe("Rules: 0 deny, 0 ask, 0 allow, 3 grants");
  });

  test("load notices say rule file for .json, permission module otherwise", () => {
    expect(present.notifyLoadError("/a/rules.json", "not JSON (x)")).toBe("Rule file /a/rules.json failed to load: not JSON (x)");
    expect(present.notifyLoadWarning("/a/rules.json", "permissions.deny: WebSearch: pi has no WebSearch tool; ignored")).toBe(
      "Rule file /a/rules.json: permissions.deny: WebSearch: pi has no WebSearch tool; ignored",
    );
    expect(present.notifyLoadError("/a/m.ts", "boom")).toBe("Permission module /a/m.ts failed to load: boom");
  });

  test("a failing example names the example, where it is listed, and what decided it", () => {
    expect(present.ruleProblems.exampleDecided("git push -f", "pass", "ask", "Bash(git push:*)")).toBe(
      'example git push -f is listed under "pass", but rule Bash(git push:*) makes it "ask"',
    );
    expect(present.ruleProblems.exampleDecided("rm -r x", "deny", "pass", undefined)).toBe(
      'example rm -r x is listed under "deny", but no rule decides it',
    );
  });
});

describe("/permissions test", () => {
  const HOME = "/home/u";
  const rules: present.DryRunVerdict = {
    nameOfHook: "rules.json",
    scope: "user",
    source: "/home/u/.pi/agent/permissions/rules.json",
    enabled: true,
    outcome: {
      kind: "request",
      prompt: {
        nameOfHook: "rules.json",
        description: "Rules: 0 deny, 1 ask, 0 allow",
        guidance: "Asked by rule Bash(git push:*).\nCheck the branch.",
        toolName: "bash",
        detail: "ls && git push",
        highlighted: ["git push"],
        withoutUi: present.agentNoUi("rules.json"),
      },
    },
  };
  const module: present.DryRunVerdict = {
    nameOfHook: "no rm",
    scope: "project",
    source: "/work/p/.pi/permissions/rm.ts",
    enabled: true,
    outcome: { kind: "block", agentReads: present.agentHookBlock("no rm", "No.") },
  };

  test("the deciding rule file with the prompt it opens, then what else matched", () => {
    expect(present.dryRunReport("bash", "ls && git push", [rules, { ...module, enabled: false }], HOME)).toBe(
      [
        "Dry run of bash: ls && git push",
        "Nothing runs.",
        "Decided by rules.json (user rule file ~/.pi/agent/permissions/rules.json): asks you",
        "    The prompt:",
        "        ! Authorization required: rules.json",
        "        Rules: 0 deny, 1 ask, 0 allow",
        "        Asked by rule Bash(git push:*).",
        "        Check the branch.",
        "        bash: ls && git push",
        "        Highlighted: git push",
        "    Without a UI (pi -p), the agent reads: Blocked by permission hook rules.json: it asks the user to approve this call, and no UI is available to ask.",
        "Also matched, after it:",
        "    no rm (project module /work/p/.pi/permissions/rm.ts): blocks the call (off)",
      ].join("\n"),
    );
  });

  test("a block: what the agent reads", () => {
    expect(present.dryRunReport("bash", "rm x", [module], HOME)).toBe(
      [
        "Dry run of bash: rm x",
        "Nothing runs.",
        "Decided by no rm (project module /work/p/.pi/permissions/rm.ts): blocks the call",
        "    The agent reads: Blocked by permission hook no rm: No.",
      ].join("\n"),
    );
  });

  test("nothing decides; or only hooks that are off would", () => {
    expect(present.dryRunReport("read", ".env", [], HOME)).toBe(
      "Dry run of read: .env\nNothing runs.\nNo hook or rule decides: the call would run.",
    );
    expect(present.dryRunReport("bash", "rm x", [{ ...module, enabled: false }], HOME)).toBe(
      [
        "Dry run of bash: rm x",
        "Nothing runs.",
        "No hook or rule decides: the call would run.",
        "Would decide, but switched off on this branch:",
        "    no rm (project module /work/p/.pi/permissions/rm.ts): blocks the call (off)",
      ].join("\n"),
    );
  });

  test("a hook that fails is asked for, and says why", () => {
    const failed: present.DryRunVerdict = {
      ...module,
      error: "kaput",
      outcome: {
        kind: "failed",
        prompt: {
          nameOfHook: "no rm",
          guidance: present.hookFailureGuidance("kaput"),
          toolName: "bash",
          detail: "rm x",
          highlighted: [],
          withoutUi: present.agentHookFailure("no rm", "kaput"),
        },
      },
    };
    expect(present.dryRunReport("bash", "rm x", [failed], HOME).split("\n").slice(2)).toEqual([
      "Decided by no rm (project module /work/p/.pi/permissions/rm.ts): failed (kaput), so you are asked",
      "    The prompt:",
      "        ! Authorization required: no rm",
      "        This hook failed while deciding (kaput), so you are asked instead.",
      "        bash: rm x",
      "        Nothing highlighted.",
      "    Without a UI (pi -p), the agent reads: Blocked because permission hook no rm failed (kaput) and no UI is available to ask the user.",
    ]);
  });
});
