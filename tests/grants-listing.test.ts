// Grants in /permissions: the grant and revoke subcommands, the overlay's grant rows, the text
// summary, the log and the dry run; every string exact.
import { describe, expect, test } from "bun:test";
import type { HeldGrant } from "../lib/grants.ts";
import { completePermissionsArgs, parsePermissionsCommand } from "../lib/permissions-command.ts";
import { PermissionsList, type Switches } from "../lib/permissions-overlay.ts";
import * as present from "../lib/presenter.ts";
import { fakeTui, KEYS, keybindings } from "./support/prompt-harness.ts";

describe("/permissions grant and revoke", () => {
  test("grant <rule>: this branch; --project or --user, after the rule or before it: that rule file", () => {
    const grants: [typed: string, rule: string, scope: present.GrantScopeName][] = [
      ["grant Bash(git push:*)", "Bash(git push:*)", "branch"],
      ["grant Bash(git push origin main) --project", "Bash(git push origin main)", "project"],
      ["grant  Read(~/.ssh/**)   --user", "Read(~/.ssh/**)", "user"],
      ["grant --project Bash(git push:*)", "Bash(git push:*)", "project"],
      ["grant  --user   Bash(npm test)", "Bash(npm test)", "user"],
      // Inside the rule, a flag is the rule's own text.
      ["grant Bash(pip install --user:*)", "Bash(pip install --user:*)", "branch"],
      ["grant Bash(git push --user x) --project", "Bash(git push --user x)", "project"],
    ];
    for (const [typed, rule, scope] of grants) expect(parsePermissionsCommand(typed)).toEqual({ kind: "grant", rule, scope });
    for (const typed of ["grant", "grant --project", "grant --user Bash(x) --project", "grant --project --user"])
      expect(parsePermissionsCommand(typed)).toEqual({ kind: "usage" });
  });

  test("revoke <rule>: everything after the subcommand", () => {
    expect(parsePermissionsCommand("revoke Bash(git push:*)")).toEqual({ kind: "revoke", rule: "Bash(git push:*)" });
    expect(parsePermissionsCommand("revoke")).toEqual({ kind: "usage" });
  });

  test("revoke completes the granted rules, each once; grant completes nothing", () => {
    const grants = ["Bash(git push:*)", "Bash(npm test:*)", "Bash(git push:*)"];
    expect(completePermissionsArgs("revoke ", [], grants)).toEqual([
      { value: "revoke Bash(git push:*)", label: "Bash(git push:*)" },
      { value: "revoke Bash(npm test:*)", label: "Bash(npm test:*)" },
    ]);
    expect(completePermissionsArgs("revoke npm", [], grants)?.map((item) => item.value)).toEqual(["revoke Bash(npm test:*)"]);
    expect(completePermissionsArgs("revoke Bash(npm test:*)", [], grants)).toBeNull();
    expect(completePermissionsArgs("grant ", [], grants)).toBeNull();
    expect(completePermissionsArgs("rev", [], grants)?.map((item) => item.value)).toEqual(["revoke"]);
  });
});

describe("the strings", () => {
  test("notices", () => {
    expect(present.notifyGranted("Bash(git push:*)", "branch", undefined)).toBe(
      "Granted Bash(git push:*) for this branch: what it covers no longer asks. /permissions revoke Bash(git push:*) takes it back.",
    );
    expect(present.notifyGranted("Bash(x)", "project", ".pi/permissions/grants.json")).toBe(
      "Granted Bash(x) for this project (saved in .pi/permissions/grants.json): what it covers no longer asks. /permissions revoke Bash(x) takes it back.",
    );
    expect(present.notifyGranted("Bash(x)", "user", "~/.pi/agent/permissions/grants.json")).toBe(
      "Granted Bash(x) for everywhere (saved in ~/.pi/agent/permissions/grants.json): what it covers no longer asks. /permissions revoke Bash(x) takes it back.",
    );
    expect(present.notifyGrantNotSaved("Bash(x)", "project", "/p/grants.json", "EACCES")).toBe(
      "Authorized this call only: the grant Bash(x) was not saved for /p/grants.json, because EACCES. The next such call asks again.",
    );
    expect(present.notifyGrantNotSaved("Bash(x)", "branch", undefined, "no")).toBe(
      "Authorized this call only: the grant Bash(x) was not saved for this branch, because no. The next such call asks again.",
    );
    expect(present.notifyGrantFailed("Bash(x)", "EACCES")).toBe("Not granted: Bash(x) could not be saved, because EACCES.");
    expect(present.notifyRevoked("Bash(x)", ["this branch"])).toBe("Revoked Bash(x) (this branch): what it covered asks again.");
    expect(present.notifyRevokeFailed("Bash(x)", "~/g.json", "EACCES")).toBe(
      "Could not revoke Bash(x) from ~/g.json, because EACCES; it is still granted.",
    );
    expect(present.notifyNoSuchGrant("Bash(x)", [])).toBe("No grant is named Bash(x); there are none.");
    expect(present.notifyNoSuchGrant("Bash(x)", ["Bash(y)", "Bash(z)"])).toBe(
      "No grant is named Bash(x). Granted: Bash(y), Bash(z).",
    );
    expect(present.SUBCOMMAND_DESCRIPTIONS.grant).toBe(
      "Don't ask again for a rule: on this branch, --project (this project's rule file) or --user (everywhere)",
    );
    expect(present.SUBCOMMAND_DESCRIPTIONS.revoke).toBe("Take back a grant, wherever it is kept");
  });

  test("why a grant was not saved", () => {
    expect(present.grantProblems.notJson("Unexpected token")).toBe(
      "it is not JSON (Unexpected token); the file was left as it is",
    );
    expect(present.grantProblems.notAnObject).toBe("it is not a JSON object; the file was left as it is");
    expect(present.grantProblems.grantsNotList).toBe('"grants" is not a list; the file was left as it is');
    expect(present.grantProblems.notARuleFile("x")).toBe("the result would not be a rule file (x); the file was left as it is");
    expect(present.grantProblems.notWritten("EACCES")).toBe("it could not be written (EACCES)");
    expect(present.grantProblems.notARule("Bash(", "no")).toBe("Bash( is not a rule: no");
    expect(present.grantProblems.noGrants).toBe("this session keeps no grants");
  });

  test("the text summary lists every grant with its scope and file", () => {
    expect(
      present.permissionsSummary(
        [{ name: "push", enabled: true, scope: "user", source: "/u/push.ts" }],
        [],
        [
          { rule: "Bash(git push:*)", scope: "branch" },
          { rule: "Bash(npm test:*)", scope: "project", file: ".pi/permissions/grants.json" },
          { rule: "Read(~/notes/**)", scope: "user", file: "~/.pi/agent/permissions/grants.json" },
        ],
      ),
    ).toBe(
      [
        "Permission hooks (1 of 1 on):",
        "  [x] push (user) /u/push.ts",
        "Grants:",
        "  Bash(git push:*)  this branch",
        "  Bash(npm test:*)  this project  .pi/permissions/grants.json",
        "  Read(~/notes/**)  everywhere  ~/.pi/agent/permissions/grants.json",
      ].join("\n"),
    );
  });

  test("the log: a call a grant let through, and an Authorize that saved one", () => {
    const base = { time: "2026-01-01T00:00:00.000Z", hook: "push", tool: "bash", detail: "git push", note: false } as const;
    expect(present.decisionLine({ ...base, outcome: "authorize", grant: "Bash(git push:*)", by: "grant" })).toEndWith(
      "  Authorized (by a grant, Bash(git push:*))  push  bash: git push",
    );
    expect(present.decisionLine({ ...base, outcome: "authorize", grant: "Bash(git push:*)", by: "approver" })).toEndWith(
      "  Authorized (by you, granted Bash(git push:*))  push  bash: git push",
    );
  });

  test("the dry run: a request a grant covers doesn't decide; it is listed as covered", () => {
    const hook = { scope: "user", enabled: true } as const;
    const report = present.dryRunReport(
      "bash",
      "git push",
      [
        { ...hook, nameOfHook: "push", source: "/home/u/p/push.ts", outcome: { kind: "granted", grant: "Bash(git push:*)" } },
        { ...hook, nameOfHook: "rules.json", source: "/home/u/p/rules.json", outcome: { kind: "block", agentReads: "no" } },
      ],
      "/home/u",
    );
    expect(report).toBe(
      [
        "Dry run of bash: git push",
        "Nothing runs.",
        "Decided by rules.json (user rule file ~/p/rules.json): blocks the call",
        "    The agent reads: no",
        "Not asked, because a grant covers it:",
        "    push (user module ~/p/push.ts): would ask; grant Bash(git push:*) covers it",
      ].join("\n"),
    );
    const alone = present.dryRunReport(
      "bash",
      "git push",
      [{ ...hook, nameOfHook: "push", source: "/p/push.ts", outcome: { kind: "granted", grant: "Bash(git push:*)" } }],
      "/home/u",
    );
    expect(alone.split("\n").slice(2)).toEqual([
      "No hook or rule decides: the call would run.",
      "Not asked, because a grant covers it:",
      "    push (user module /p/push.ts): would ask; grant Bash(git push:*) covers it",
    ]);
  });
});

describe("the overlay's grant rows", () => {
  const HOOK = {
    name: "push",
    handler: () => undefined,
    scope: "user" as const,
    source: "/home/u/.pi/agent/permissions/push.ts",
    permissionRoot: "/home/u/.pi/agent/permissions",
  };
  const GRANTS: HeldGrant[] = [
    { rule: "Bash(git push:*)", scope: "branch" },
    { rule: "Bash(npm test:*)", scope: "user", file: "/home/u/.pi/agent/permissions/grants.json" },
  ];

  function open() {
    const { tui } = fakeTui(40);
    const results: [Switches | undefined, readonly HeldGrant[] | undefined][] = [];
    const list = new PermissionsList([HOOK], [], () => true, {
      tui,
      paint: present.plain,
      keys: keybindings(),
      home: "/home/u",
      grants: GRANTS,
      done: (switches, revoked) => results.push([switches, revoked]),
    });
    const body = () =>
      list
        .render(100)
        .slice(1, -1)
        .map((line) => line.slice(2, -2).trimEnd());
    return {
      list,
      results,
      body,
      press: (...keys: string[]) => {
        for (const key of keys) list.handleInput(key);
      },
    };
  }

  test("below the hooks, each ticked, with where it holds", () => {
    const { body } = open();
    const lines = body();
    const at = lines.indexOf("Grants");
    expect(lines.slice(at - 1, at + 5)).toEqual([
      "",
      "Grants",
      "  [x] Bash(git push:*)",
      "      this branch",
      "  [x] Bash(npm test:*)",
      "      everywhere, ~/.pi/agent/permissions/grants.json",
    ]);
  });

  test("space on a grant unticks it; enter saves the switches and the grants to revoke", () => {
    const { body, press, results } = open();
    press(KEYS.down, KEYS.down, " ");
    expect(body()).toContain("→ [ ] Bash(npm test:*)");
    expect(body()).toContain("      everywhere, ~/.pi/agent/permissions/grants.json — revoked when you save");
    press(KEYS.enter);
    expect(results).toEqual([[new Map([["push", true]]), [GRANTS[1]]]]);
  });

  test("esc revokes nothing", () => {
    const { press, results } = open();
    press(KEYS.down, " ", KEYS.esc);
    expect(results).toEqual([[undefined, undefined]]);
  });
});
