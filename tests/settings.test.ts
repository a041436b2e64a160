import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { notifySettingInvalid, settingProblems } from "../lib/presenter.ts";
import { DEFAULT_SETTINGS, parseSettings, piSettings, readSettings } from "../lib/settings.ts";

const USER = "/home/me/.pi/agent/settings.json";
const PROJECT = "/work/.pi/settings.json";

describe("parsing", () => {
  test("nothing set: the defaults (attention auto every 60 s, no timeout, no audit file)", () => {
    expect(parseSettings([{ file: USER, value: undefined }], "/home/me")).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    expect(DEFAULT_SETTINGS).toEqual({ attention: "auto", attentionRepeatSeconds: 60 });
  });

  test("every setting; the project's override the user's key by key; ~/ is the home directory", () => {
    const { settings, problems } = parseSettings(
      [
        { file: USER, value: { attention: "osc9", timeoutSeconds: 300, auditFile: "~/audit/pi.jsonl" } },
        { file: PROJECT, value: { attention: ["bell", "title"], attentionRepeatSeconds: 30 } },
      ],
      "/home/me",
    );
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      attention: ["bell", "title"],
      attentionRepeatSeconds: 30,
      timeoutSeconds: 300,
      auditFile: "/home/me/audit/pi.jsonl",
    });
  });

  test("what is wrong is said, naming the file and the key, and the default (or the user's value) applies", () => {
    const { settings, problems } = parseSettings(
      [
        { file: USER, value: { attention: "bell", timeoutSeconds: 60 } },
        {
          file: PROJECT,
          value: {
            attention: "loud",
            timeoutSeconds: 0.5,
            attentionRepeatSeconds: "60",
            auditFile: "audit.jsonl",
            colour: "red",
          },
        },
      ],
      "/home/me",
    );
    expect(settings).toEqual({ attention: "bell", attentionRepeatSeconds: 60, timeoutSeconds: 60 });
    expect(problems).toEqual([
      notifySettingInvalid(PROJECT, "attention", settingProblems.oneOf(["auto", "off", "bell", "osc9", "osc777", "title"])),
      notifySettingInvalid(PROJECT, "timeoutSeconds", settingProblems.seconds),
      notifySettingInvalid(PROJECT, "attentionRepeatSeconds", settingProblems.seconds),
      notifySettingInvalid(PROJECT, "auditFile", settingProblems.path),
      notifySettingInvalid(PROJECT, "colour", settingProblems.unknown),
    ]);
    expect(parseSettings([{ file: USER, value: [] }], "/").problems).toEqual([
      notifySettingInvalid(USER, undefined, settingProblems.notAnObject),
    ]);
    expect(parseSettings([{ file: USER, value: { attention: [] } }], "/").problems).toHaveLength(1);
  });
});

describe("reading pi's settings.json through pi's SettingsManager", () => {
  const root = mkdtempSync(join(tmpdir(), "settings-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ theme: "dark", permissionHooks: { timeoutSeconds: 120 } }));
  writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ permissionHooks: { attention: "off" } }));
  const saved = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = agentDir;
  afterAll(() => {
    process.env.PI_CODING_AGENT_DIR = saved;
    rmSync(root, { recursive: true, force: true });
  });
  const ctx = (trusted: boolean) => ({ cwd, isProjectTrusted: () => trusted }) as unknown as ExtensionContext;

  test("the user's, and the project's over them in a trusted project", () => {
    expect(readSettings(ctx(true)).settings).toEqual({ attention: "off", attentionRepeatSeconds: 60, timeoutSeconds: 120 });
  });

  test("an untrusted project's settings are not read", () => {
    expect(readSettings(ctx(false)).settings).toEqual({ attention: "auto", attentionRepeatSeconds: 60, timeoutSeconds: 120 });
  });

  test("a session start reads the files once, on first need, for everything it needs", () => {
    const read = piSettings(cwd, true);
    const manager = read();
    expect(read()).toBe(manager);
    expect(readSettings(ctx(true), read).settings.attention).toBe("off");
  });
});
