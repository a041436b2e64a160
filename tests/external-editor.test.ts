import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { editFile, externalEditorFor } from "../lib/external-editor.ts";
import { fakeTui } from "./support/prompt-harness.ts";

const dir = mkdtempSync(join(tmpdir(), "ext-editor-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A scripted $EDITOR: records the file it got, its mode and its text, then runs `body`. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nfile="$1"\n[ "$1" = "--wait" ] && file="$2"\necho "$file" > "${dir}/${name}.file"\nstat -c %a "$file" > "${dir}/${name}.mode"\nstat -c %a "$(dirname "$file")" > "${dir}/${name}.dirmode"\n${body}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe("external editor", () => {
  test("hands the text over in a private .sh file and returns what the editor saved", async () => {
    const editor = script("fix", `sed -i 's/wordign/wording/' "$file"`);
    const { tui, calls } = fakeTui();
    const result = await externalEditorFor(tui, { EDITOR: editor, PATH: process.env.PATH })("fix wordign\n", ".sh");
    expect(result).toEqual({ ok: true, text: "fix wording\n" });
    const file = readFileSync(`${dir}/fix.file`, "utf8").trim();
    expect(file.endsWith(".sh")).toBe(true);
    expect(readFileSync(`${dir}/fix.mode`, "utf8").trim()).toBe("600");
    expect(readFileSync(`${dir}/fix.dirmode`, "utf8").trim()).toBe("700");
    expect(existsSync(file)).toBe(false);
    expect(calls).toEqual(["stop", "start", "render!"]);
  });

  test("$VISUAL wins over $EDITOR, and arguments in it work", async () => {
    const visual = script("visual", `echo visual > "$file"`);
    const { tui } = fakeTui();
    const result = await externalEditorFor(tui, { VISUAL: `${visual} --wait`, EDITOR: "false", PATH: process.env.PATH })(
      "x",
      ".sh",
    );
    expect(result).toEqual({ ok: true, text: "visual\n" });
  });

  test("a non-zero exit leaves the text alone and says so; the temp file is removed", async () => {
    const editor = script("fail", `echo changed > "$file"; exit 3`);
    const { tui, calls } = fakeTui();
    const result = await externalEditorFor(tui, { EDITOR: editor, PATH: process.env.PATH })("keep", ".sh");
    expect(result).toEqual({ ok: false, reason: `${editor} exited with code 3` });
    expect(existsSync(readFileSync(`${dir}/fail.file`, "utf8").trim())).toBe(false);
    expect(calls).toEqual(["stop", "start", "render!"]);
  });

  test("a missing editor binary is a clear message", async () => {
    const { tui } = fakeTui();
    const result = await externalEditorFor(tui, { EDITOR: "no-such-editor-xyz", PATH: process.env.PATH })("keep", ".sh");
    expect(result).toEqual({ ok: false, reason: "no-such-editor-xyz: command not found" });
  });

  test("no editor configured: the TUI is not even stopped", async () => {
    const { tui, calls } = fakeTui();
    const result = await externalEditorFor(tui, {})("keep", ".sh");
    expect(result).toEqual({ ok: false, reason: "neither $VISUAL nor $EDITOR is set" });
    expect(calls).toEqual([]);
  });
});

describe("editFile: the file itself, not a copy (a module /permissions new created)", () => {
  test("the editor gets the file's own path and edits it in place, with pi's TUI stopped meanwhile", async () => {
    const editor = script("inplace", `sed -i 's/example-program/git/' "$file"`);
    const file = join(dir, "module.ts");
    writeFileSync(file, 'programName === "example-program"\n');
    const { tui, calls } = fakeTui();
    expect(await editFile(tui, file, { EDITOR: editor, PATH: process.env.PATH })).toBeUndefined();
    expect(readFileSync(`${dir}/inplace.file`, "utf8").trim()).toBe(file);
    expect(readFileSync(file, "utf8")).toBe('programName === "git"\n');
    expect(calls).toEqual(["stop", "start", "render!"]);
  });

  test("without an editor: why, and the TUI never stopped", async () => {
    const { tui, calls } = fakeTui();
    expect(await editFile(tui, join(dir, "module.ts"), { PATH: process.env.PATH })).toBe("neither $VISUAL nor $EDITOR is set");
    expect(calls).toEqual([]);
  });

  test("an editor that fails: its exit code", async () => {
    const editor = script("failing", "exit 3");
    const { tui } = fakeTui();
    expect(await editFile(tui, join(dir, "module.ts"), { EDITOR: editor, PATH: process.env.PATH })).toBe(
      `${editor} exited with code 3`,
    );
  });
});
