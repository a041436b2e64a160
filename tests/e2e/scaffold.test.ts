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
  /** pi with an editor whose edit turns the template's placeholder program into touch; the model touches `deployed`. */
  function start() {
    return suite.start({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch deployed" } }] }, { text: "touched" }],
      extensions: [DIST],
      settings: { tuiMode: "regular" },
      env: { EDITOR: "$HOME/editor.sh" },
      setup: (sandbox) => {
        const editor = join(sandbox.root, "editor.sh");
        writeFileSync(editor, `#!/bin/sh\nsed -i 's/example-program/touch/g' "$1"\n`);
        chmodSync(editor, 0o755);
      },
    });
  }

  test("/permissions new writes the module and its types, opens the editor; the saved hook is listed and gates", async () => {
    const pi = await start();
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

  test("/permissions new --project in a project without .pi/: the folders it makes are watched, each save reloads", async () => {
    const pi = await start();
    const folder = join(pi.cwd, ".pi/permissions");
    expect(existsSync(join(pi.cwd, ".pi"))).toBe(false);
    pi.prompt("/permissions new Deploy gate --project");
    await pi.waitFor("permissions 1/1");
    const file = join(folder, "deploy-gate.ts");
    expect(readFileSync(file, "utf8")).toContain('command.programName === "touch"');
    // Another save, now that the folders are there: a second hook.
    const header = "export default function (api: PermissionsAPI) {";
    expect(readFileSync(file, "utf8")).toContain(header);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(header, `${header}\n  api.onToolUse({ name: "Extra", handler() {} });`),
    );
    await pi.waitFor("permissions 2/2");
    pi.prompt("deploy");
    await promptReady(pi, "Deploy gate");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(existsSync(join(pi.cwd, "deployed"))).toBe(true);
  });

  test("/permissions new --project, the project's modules not trusted yet: asked before the editor opens, not while it is", async () => {
    // An editor that takes two seconds and changes nothing: the template's hook asks before example-program.
    const pi = await suite.start({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "example-program --deploy" } }] }, { text: "ran" }],
      extensions: [DIST],
      settings: { tuiMode: "regular", defaultProjectTrust: "ask" },
      env: { EDITOR: "sleep 2; true" },
    });
    pi.prompt("/permissions new Deploy gate --project");
    await pi.waitFor(present.projectTrustTitle());
    const file = join(pi.cwd, ".pi/permissions/deploy-gate.ts");
    expect(existsSync(file)).toBe(false);
    pi.send("Enter");
    await pi.waitForGone(present.projectTrustTitle());
    await pi.waitFor(
      present.notifyScaffolded("~/project/.pi/permissions/deploy-gate.ts", [DECLARATION_FILE, "tsconfig.json"]).slice(0, 60),
    );
    await pi.waitFor("permissions 1/1");
    pi.prompt("deploy");
    await promptReady(pi, "Deploy gate");
    pi.send("Enter");
    await pi.waitForRecord(2);
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
