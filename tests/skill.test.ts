// The authoring skill the package ships: pi finds it through the package manifest, and what it
// teaches works — its rule file loads with its examples, its module type-checks and decides as it says.
import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DefaultPackageManager, SettingsManager } from "@earendil-works/pi-coding-agent";
import { evaluate } from "../lib/evaluator.ts";
import { loadPermissionModules } from "../lib/loader.ts";
import { scaffoldModule } from "../lib/scaffold.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const REPO = resolve(import.meta.dir, "..");
const SKILL = join(REPO, "skills/permission-author/SKILL.md");
const TEMP = mkdtempSync(join(tmpdir(), "pph-skill-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

/** The fenced blocks of the skill in one language, in order. */
function blocks(language: string): string[] {
  return [...readFileSync(SKILL, "utf8").matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map(
    (match) => match[1] ?? "",
  );
}

test("pi resolves the skill from the package manifest, with its name and description", async () => {
  const agentDir = join(TEMP, "agent");
  const manager = new DefaultPackageManager({ cwd: TEMP, agentDir, settingsManager: SettingsManager.inMemory() });
  const { skills } = await manager.resolveExtensionSources([REPO]);
  expect(skills.map((skill) => skill.path)).toContain(SKILL);
  const frontmatter = readFileSync(SKILL, "utf8").split("---")[1] ?? "";
  expect(frontmatter).toMatch(/^name: permission-author$/m);
  expect(frontmatter).toMatch(/^description: .{100,1024}$/m);
});

test("its rule file loads: the rules decide every example as it says", async () => {
  const [rules] = blocks("json");
  const dir = join(TEMP, "rules");
  mkdirSync(dir);
  writeFileSync(join(dir, "push-to-main.json"), rules!);
  const result = await loadPermissionModules({ user: dir });
  expect(result.errors).toEqual([]);
  expect(result.hooks.map((hook) => hook.name)).toEqual(["push-to-main.json"]);
});

test("its module type-checks beside the scaffolded declaration, and asks as it says", async () => {
  const [module] = blocks("ts");
  const dir = join(TEMP, "module");
  scaffoldModule("placeholder", dir);
  rmSync(join(dir, "placeholder.ts"));
  writeFileSync(join(dir, "push-to-main.ts"), module!);
  expect(() => execFileSync(join(REPO, "node_modules/.bin/tsc"), ["-p", dir], { encoding: "utf8" })).not.toThrow();
  const { hooks } = await loadPermissionModules({ user: dir });
  const decide = async (command: string) =>
    (await evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput("bash", { command }, TEMP) }))?.kind;
  expect(await decide("git push origin main")).toBe("request");
  expect(await decide("git push origin HEAD:main")).toBe("request");
  expect(await decide("git push origin +main")).toBe("request");
  expect(await decide("git push origin HEAD:refs/heads/main")).toBe("request");
  expect(await decide("git push origin main-backup")).toBeUndefined();
  expect(await decide("git push origin feature")).toBeUndefined();
  expect(await decide('echo "git push origin main"')).toBeUndefined();
  expect(await decide('bash -c "$CMD" # git')).toBe("request");
});
