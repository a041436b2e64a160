import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOGGLE_ALL, toggleAllKeys } from "../lib/toggle-all-key.ts";

describe("the toggle-all shortcut's keys, from pi's keybindings.json", () => {
  let agentDir: string | undefined;
  afterEach(() => {
    if (agentDir) rmSync(agentDir, { recursive: true, force: true });
    agentDir = undefined;
  });

  function withKeybindings(content: string | undefined): string {
    agentDir = mkdtempSync(join(tmpdir(), "toggle-all-"));
    if (content !== undefined) writeFileSync(join(agentDir, "keybindings.json"), content);
    return agentDir;
  }

  test("the id", () => {
    expect(TOGGLE_ALL).toBe("permissionHooks.toggleAll");
  });

  test("alt+p when the file or the id is missing, or the file is broken", () => {
    expect(toggleAllKeys(withKeybindings(undefined))).toEqual(["alt+p"]);
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ "app.model.select": "ctrl+k" })))).toEqual(["alt+p"]);
    expect(toggleAllKeys(withKeybindings("{ not json"))).toEqual(["alt+p"]);
    expect(toggleAllKeys(withKeybindings("null"))).toEqual(["alt+p"]);
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: 7 })))).toEqual(["alt+p"]);
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: ["ctrl+x", 7] })))).toEqual(["alt+p"]);
  });

  test("one key, or several, as pi's own actions take them", () => {
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: "ctrl+alt+p" })))).toEqual(["ctrl+alt+p"]);
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: ["f9", "alt+x", "f9"] })))).toEqual(["f9", "alt+x"]);
  });

  test("none: an empty list or an empty key turns the shortcut off", () => {
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: [] })))).toEqual([]);
    expect(toggleAllKeys(withKeybindings(JSON.stringify({ [TOGGLE_ALL]: "" })))).toEqual([]);
  });

  test("a byte-order mark is no obstacle", () => {
    expect(toggleAllKeys(withKeybindings(`\uFEFF${JSON.stringify({ [TOGGLE_ALL]: "f8" })}`))).toEqual(["f8"]);
  });
});
