import type { TUI } from "@earendil-works/pi-tui";
import { describeError } from "./failure.ts";
import { join, mkdtempSync, readFileSync, rmSync, spawn, tmpdir, writeFileSync } from "./node.ts";
import { problems } from "./presenter.ts";

export type ExternalEditorResult = { ok: true; text: string } | { ok: false; reason: string };
export type ExternalEditor = (text: string, suffix: string) => Promise<ExternalEditorResult>;

/**
 * Hands `text` to $VISUAL/$EDITOR in a private temp file, with pi's TUI stopped meanwhile.
 * The editor runs through the shell, as git runs it, so `code --wait` works.
 */
export function externalEditorFor(tui: TUI, env: NodeJS.ProcessEnv = process.env): ExternalEditor {
  return async (text, suffix) => {
    let dir: string | undefined;
    try {
      dir = mkdtempSync(join(tmpdir(), "pi-permission-hooks-"));
      const file = join(dir, `command${suffix}`);
      writeFileSync(file, text, { mode: 0o600 });
      const reason = await editFile(tui, file, env);
      return reason === undefined ? { ok: true, text: readFileSync(file, "utf8") } : { ok: false, reason };
    } catch (error) {
      return { ok: false, reason: describeError(error) };
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Opens `file` in $VISUAL/$EDITOR, with pi's TUI stopped meanwhile; why not, if it didn't work out. */
export async function editFile(tui: TUI, file: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const editor = (env.VISUAL || env.EDITOR || "").trim();
  if (!editor) return problems.noEditor;
  tui.stop();
  try {
    // `$1`: the file is one argument to the editor, whatever its name.
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env });
      child.once("error", reject);
      child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
    });
    if (code === 127) return problems.editorNotFound(editor.split(/\s+/)[0] ?? editor);
    if (code !== 0) return problems.editorExited(editor, code);
    return undefined;
  } catch (error) {
    return describeError(error);
  } finally {
    tui.start();
    tui.requestRender(true);
  }
}
