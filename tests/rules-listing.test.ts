// A rule file in /permissions: one switchable entry that lists its rules (README "Rules").
import { expect, test } from "bun:test";
import { PermissionsList } from "../lib/permissions-overlay.ts";
import { permissionsSummary, plain, ruleRows } from "../lib/presenter.ts";
import { listedRules, parseRuleFile, type RuleFile } from "../lib/rules-file.ts";
import { fakeTui, keybindings } from "./support/prompt-harness.ts";

const RULES = parseRuleFile(
  JSON.stringify({
    permissions: {
      allow: ["Bash(git push origin feature)"],
      deny: ["Bash(rm -rf:*)"],
      ask: ["Bash(git push:*)", "Edit(./.env)"],
    },
    grants: ["Bash(npm publish:*)"],
  }),
) as RuleFile;

test("rules are listed deny, ask, allow, then grants, kinds aligned", () => {
  expect(ruleRows(listedRules(RULES))).toEqual([
    "deny   Bash(rm -rf:*)",
    "ask    Bash(git push:*)",
    "ask    Edit(./.env)",
    "allow  Bash(git push origin feature)",
    "grant  Bash(npm publish:*)",
  ]);
});

test("the overlay lists them under the rule file's row", () => {
  const { tui } = fakeTui(40);
  const hook = {
    name: "rules.json",
    description: "Rules: 1 deny, 2 ask, 1 allow, 1 grant",
    handler: () => undefined,
    scope: "user" as const,
    source: "/home/u/.pi/agent/permissions/rules.json",
    permissionRoot: "/home/u/.pi/agent/permissions",
    rules: RULES,
  };
  const list = new PermissionsList([hook], [], () => true, {
    tui,
    paint: plain,
    keys: keybindings(),
    home: "/home/u",
    done: () => {},
  });
  const rows = list.render(80).map((line) => line.replace(/^│ | *│$/g, "").trimEnd());
  const at = rows.indexOf("→ [x] rules.json  user");
  expect(rows.slice(at, at + 8)).toEqual([
    "→ [x] rules.json  user",
    "      Rules: 1 deny, 2 ask, 1 allow, 1 grant",
    "      deny   Bash(rm -rf:*)",
    "      ask    Bash(git push:*)",
    "      ask    Edit(./.env)",
    "      allow  Bash(git push origin feature)",
    "      grant  Bash(npm publish:*)",
    "      ~/.pi/agent/permissions/rules.json",
  ]);
});

test("without the TUI, the summary lists them too", () => {
  const rows = ruleRows(listedRules(RULES)).slice(0, 1);
  expect(
    permissionsSummary([{ name: "rules.json", enabled: true, scope: "user", source: "/r/rules.json", rules: rows }], []),
  ).toBe("Permission hooks (1 of 1 on):\n  [x] rules.json (user) /r/rules.json\n      deny   Bash(rm -rf:*)");
});
