import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { evaluate } from "../lib/evaluator.ts";
import { loadPermissionModules } from "../lib/loader.ts";
import * as present from "../lib/presenter.ts";
import { DECLARATION_FILE, scaffoldModule } from "../lib/scaffold.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const TEMP = mkdtempSync(join(tmpdir(), "pph-scaffold-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));
const REPO = resolve(import.meta.dir, "..");

/** tsc's report on a folder, "" when it type-checks. */
function typeCheck(dir: string): string {
  try {
    execFileSync(join(REPO, "node_modules/.bin/tsc"), ["-p", dir], { encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

let count = 0;
const folder = () => join(TEMP, `f${++count}`, "permissions");

describe("scaffoldModule", () => {
  test("the first module of a folder: the folder, the module, the declaration and a tsconfig.json", async () => {
    const dir = folder();
    expect(scaffoldModule("Deploy gate", dir)).toEqual({
      file: join(dir, "deploy-gate.ts"),
      written: [DECLARATION_FILE, "tsconfig.json"],
    });
    expect(readdirSync(dir).sort()).toEqual(["deploy-gate.ts", DECLARATION_FILE, "tsconfig.json"].sort());
    const api = readFileSync(join(REPO, "lib/api.ts"), "utf8");
    expect(readFileSync(join(dir, DECLARATION_FILE), "utf8")).toBe(api.replace(/^ {2}\/\/ biome-ignore lint\/.*\n/m, ""));
    expect(readFileSync(join(dir, DECLARATION_FILE), "utf8")).not.toContain("biome");
    expect(JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"))).toEqual({
      compilerOptions: {
        strict: true,
        module: "nodenext",
        noEmit: true,
        paths: { "pi-permission-hooks": [`./${DECLARATION_FILE}`] },
      },
    });
  });

  test("later modules: only the module; an Author's own tsconfig.json and declaration are left alone", async () => {
    const dir = folder();
    scaffoldModule("one", dir);
    writeFileSync(join(dir, "tsconfig.json"), "{ mine }");
    expect(scaffoldModule("two", dir)).toEqual({ file: join(dir, "two.ts"), written: [] });
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe("{ mine }");
  });

  test("a module of the name in another language is left alone: its hook would have the same name", () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    for (const extension of [".ts", ".js", ".mjs", ".json"]) {
      writeFileSync(join(dir, `gate${extension}`), "// mine");
      expect(scaffoldModule("Gate", dir)).toEqual({ error: present.scaffoldProblems.exists(join(dir, `gate${extension}`)) });
      rmSync(join(dir, `gate${extension}`));
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a link, even one that leads nowhere, is not written through", () => {
    const dir = folder();
    const outside = join(dir, "..", "outside");
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(outside, "types.d.ts"), join(dir, DECLARATION_FILE));
    expect(scaffoldModule("one", dir)).toEqual({ file: join(dir, "one.ts"), written: ["tsconfig.json"] });
    symlinkSync(join(outside, "module.ts"), join(dir, "gate.ts"));
    expect(scaffoldModule("gate", dir)).toEqual({ error: present.scaffoldProblems.exists(join(dir, "gate.ts")) });
    expect(existsSync(outside)).toBe(false);
  });

  test("never overwrites a module, and a name needs a letter or digit", async () => {
    const dir = folder();
    scaffoldModule("gate", dir);
    writeFileSync(join(dir, "gate.ts"), "// mine");
    expect(scaffoldModule("Gate!", dir)).toEqual({ error: present.scaffoldProblems.exists(join(dir, "gate.ts")) });
    expect(readFileSync(join(dir, "gate.ts"), "utf8")).toBe("// mine");
    expect(scaffoldModule(" -- ", dir)).toEqual({ error: present.scaffoldProblems.noName });
  });

  test("file names keep letters and digits of any script; anything else joins them with a hyphen", async () => {
    const dir = folder();
    const file = async (name: string) => {
      const made = scaffoldModule(name, dir);
      return "file" in made ? made.file.slice(dir.length + 1) : made.error;
    };
    expect(await file("日本語")).toBe("日本語.ts");
    expect(await file("Überprüfung")).toBe("überprüfung.ts");
    // Decomposed, as a macOS file name may bring it: the same letter.
    expect(await file("Cafe\u0301 gate")).toBe("café-gate.ts");
    expect(await file("हिन्दी जाँच")).toBe("हिन्दी-जाँच.ts");
    expect(await file("Ωmega 2")).toBe("ωmega-2.ts");
  });

  test("a file name typed as the name: the module is that file, its hook named without the extension", async () => {
    const dir = folder();
    expect(scaffoldModule("deploy.ts", dir)).toEqual({
      file: join(dir, "deploy.ts"),
      written: [DECLARATION_FILE, "tsconfig.json"],
    });
    expect(scaffoldModule("Push Gate.js", dir)).toEqual({ file: join(dir, "push-gate.ts"), written: [] });
    expect(scaffoldModule("gate.mjs", dir)).toEqual({ file: join(dir, "gate.ts"), written: [] });
    expect(scaffoldModule("rules.json", dir)).toEqual({ file: join(dir, "rules-json.ts"), written: [] });
    const { hooks } = await loadPermissionModules({ user: dir });
    expect(hooks.map((hook) => hook.name)).toEqual(["deploy", "gate", "Push Gate", "rules.json"]);
  });

  test("file names stay in the folder, visible, and short enough for any file system", async () => {
    const dir = folder();
    const file = async (name: string) => {
      const made = scaffoldModule(name, dir);
      return "file" in made ? made.file.slice(dir.length + 1) : made.error;
    };
    expect(await file("../../etc/passwd")).toBe("etc-passwd.ts");
    expect(await file("a\\b")).toBe("a-b.ts");
    expect(await file(".hidden")).toBe("hidden.ts");
    expect(await file("🚀 launch 🚀")).toBe("launch.ts");
    expect(await file(`${"x".repeat(59)} yz`)).toBe(`${"x".repeat(59)}.ts`);
    const long = await file("𠀀".repeat(100));
    expect(long).toBe(`${"𠀀".repeat(60)}.ts`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(await file("🚀")).toBe(present.scaffoldProblems.noName);
  });

  test("the template loads, its hook carries the name, and it asks for its placeholder program only", async () => {
    const dir = folder();
    scaffoldModule('say "hi"', dir);
    const { hooks, errors } = await loadPermissionModules({ user: dir });
    expect(errors).toEqual([]);
    expect(hooks.map((hook) => hook.name)).toEqual(['say "hi"']);
    const decide = (command: string) =>
      evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput("bash", { command }, TEMP) }).then((verdict) => verdict?.kind);
    expect(await decide("example-program --go")).toBe("request");
    expect(await decide("ls")).toBeUndefined();
  });

  test("the folder type-checks with tsc and nothing else: the declaration stands alone", async () => {
    const dir = folder();
    scaffoldModule("typed", dir);
    scaffoldModule("typed too", dir);
    expect(typeCheck(dir)).toBe("");
    writeFileSync(join(dir, "typed.ts"), readFileSync(join(dir, "typed.ts"), "utf8").replace("tool.commands", "tool.comands"));
    expect(typeCheck(dir)).toContain("Property 'comands' does not exist");
  });
});

test("what the Approver reads", async () => {
  expect(present.notifyScaffolded("~/.pi/agent/permissions/gate.ts", [DECLARATION_FILE, "tsconfig.json"])).toBe(
    "Created ~/.pi/agent/permissions/gate.ts, with pi-permission-hooks.d.ts and tsconfig.json beside it for types. Each save takes effect for the next tool call.",
  );
  expect(present.notifyScaffolded("~/p/gate.ts", [])).toBe("Created ~/p/gate.ts. Each save takes effect for the next tool call.");
  expect(present.notifyScaffoldedNoEditor("~/p/gate.ts", [], present.problems.noEditor)).toBe(
    "Created ~/p/gate.ts. Each save takes effect for the next tool call. Open it in your editor (neither $VISUAL nor $EDITOR is set).",
  );
  expect(present.notifyScaffoldFailed("🚀", present.scaffoldProblems.noName)).toBe(
    `No module was created for "🚀": give the hook a name with a letter or digit in it.`,
  );
  expect(present.notifyScaffoldFailed("gate", present.scaffoldProblems.projectNotTrusted)).toBe(
    `No module was created for "gate": you don't trust this project's permission modules.`,
  );
  expect(present.SUBCOMMAND_DESCRIPTIONS.new).toBe(
    "Create a permission module from a template, with types, and open it in $VISUAL/$EDITOR: yours, or --project",
  );
});
