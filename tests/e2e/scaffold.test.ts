// /permissions new in real pi: a module from the template, with types beside it, opened in the
// Approver's editor; once saved, its hook is listed and gates the next call (no /reload).
import { expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { DECLARATION_FILE } from "../../lib/scaffold.ts";
import { describeEachPi, promptReady } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");

describeEachPi("scaffolding", (suite) => {
  test("/permissions new writes the module and its types, opens the editor; the saved hook is listed and gates", async () => {
    const pi = await suite.start({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch deployed" } }] }, { text: "touched" }],
      extensions: [DIST],
      settings: { tuiMode: "regular" },
      env: { EDITOR: "$HOME/editor.sh" },
      setup: (sandbox) => {
        // The Author's edit: the template's placeholder program becomes touch.
        const editor = join(sandbox.root, "editor.sh");
        writeFileSync(editor, `#!/bin/sh\nsed -i 's/example-program/touch/g' "$1"\n`);
        chmodSync(editor, 0o755);
      },
    });
    pi.prompt("/permissions new Deploy gate");
    const notice = present.notifyScaffolded("~/agent/permissions/deploy-gate.ts", [DECLARATION_FILE, "tsconfig.json"]);
    await pi.waitFor(notice.slice(0, 60));
    const folder = join(pi.agentDir, "permissions");
    expect(readFileSync(join(folder, "deploy-gate.ts"), "utf8")).toContain('command.programName === "touch"');
    expect(existsSync(join(folder, DECLARATION_FILE))).toBe(true);
    expect(existsSync(join(folder, "tsconfig.json"))).toBe(true);

    await pi.waitFor("permissions 1/1");
    pi.prompt("/permissions");
    await pi.waitFor(/\[x\] Deploy gate/);
    pi.send("Escape");
    await pi.waitForGone("space toggle");
    pi.prompt("deploy");
    await promptReady(pi, "Deploy gate");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(existsSync(join(pi.cwd, "deployed"))).toBe(true);
  });

  test("/permissions new --project before the name: the project's folder, the file named in the name's own letters", async () => {
    const pi = await suite.start({ extensions: [DIST], settings: { tuiMode: "regular" }, env: { EDITOR: "true" } });
    pi.prompt("/permissions new --project Überprüfung");
    const file = join(pi.cwd, ".pi", "permissions", "überprüfung.ts");
    const notice = present.notifyScaffolded(present.displayPath(file, pi.home), [DECLARATION_FILE, "tsconfig.json"]);
    await pi.waitFor(notice.slice(0, 60));
    expect(readFileSync(file, "utf8")).toContain('name: "Überprüfung"');
    expect(existsSync(join(pi.agentDir, "permissions"))).toBe(false);
  });
});
