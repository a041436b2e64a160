// The extension's settings: the "permissionHooks" key of pi's settings.json, the user's and (in a
// trusted project) the project's, which overrides it key by key. Read through pi's SettingsManager.
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { CONFIG_DIR_NAME, getAgentDir, SettingsManager } from "@earendil-works/pi-coding-agent";
import { type AttentionSetting, SIGNALS, type Signal } from "./attention.ts";
import { homedir, isAbsolute, join } from "./node.ts";
import { notifySettingInvalid, settingProblems } from "./presenter.ts";
import { isRecord, isString } from "./values.ts";

export const SETTINGS_KEY = "permissionHooks";
/** pi's settings file, the user's in pi's agent folder, a project's in its `.pi` folder. */
const SETTINGS_FILE = "settings.json";

export interface PermissionSettings {
  attention: AttentionSetting;
  attentionRepeatSeconds: number;
  /** Absent: prompts wait for ever. */
  timeoutSeconds?: number;
  /** Absent: decisions are recorded in the session only. */
  auditFile?: string;
}

export const DEFAULT_SETTINGS: PermissionSettings = { attention: "auto", attentionRepeatSeconds: 60 };

const ATTENTION_VALUES = ["auto", "off", ...SIGNALS] as const;

/** One settings.json's "permissionHooks" value, and the file it came from (for messages). */
export interface SettingsSource {
  file: string;
  value: unknown;
}

/** Pure: the sources in order, later ones overriding earlier ones key by key; what's wrong is said and ignored. */
export function parseSettings(
  sources: readonly SettingsSource[],
  home: string,
): { settings: PermissionSettings; problems: string[] } {
  const settings: PermissionSettings = { ...DEFAULT_SETTINGS };
  const problems: string[] = [];
  for (const { file, value } of sources) {
    if (value === undefined) continue;
    if (!isRecord(value)) {
      problems.push(notifySettingInvalid(file, undefined, settingProblems.notAnObject));
      continue;
    }
    for (const [key, raw] of Object.entries(value)) {
      const problem = (text: string) => problems.push(notifySettingInvalid(file, key, text));
      switch (key) {
        case "attention":
          if (isAttention(raw)) settings.attention = raw;
          else problem(settingProblems.oneOf(ATTENTION_VALUES));
          break;
        case "attentionRepeatSeconds":
        case "timeoutSeconds":
          if (Number.isInteger(raw) && (raw as number) >= 1) settings[key] = raw as number;
          else problem(settingProblems.seconds);
          break;
        case "auditFile":
          if (isString(raw) && (isAbsolute(raw) || raw.startsWith("~/"))) {
            settings.auditFile = raw.startsWith("~/") ? join(home, raw.slice(2)) : raw;
          } else problem(settingProblems.path);
          break;
        default:
          problem(settingProblems.unknown);
      }
    }
  }
  return { settings, problems };
}

function isAttention(value: unknown): value is AttentionSetting {
  if (isString(value)) return (ATTENTION_VALUES as readonly string[]).includes(value);
  return (
    Array.isArray(value) && value.length > 0 && value.every((each) => (SIGNALS as readonly string[]).includes(each as Signal))
  );
}

/**
 * pi's settings files for a session, read on first need, then kept. SettingsManager takes pi's
 * file lock for each (a lock folder made and removed), a session start's dearest file work.
 */
export type PiSettings = () => SettingsManager;

export function piSettings(cwd: string, projectTrusted: boolean): PiSettings {
  let manager: SettingsManager | undefined;
  return () => (manager ??= SettingsManager.create(cwd, getAgentDir(), { projectTrusted }));
}

/** pi's settings files as this session reads them: the project's only where pi trusts the project. */
export const piSettingsFor = (ctx: ExtensionContext): PiSettings => piSettings(ctx.cwd, ctx.isProjectTrusted());

/** This session's settings: the user's, and the project's where pi trusts the project. */
export function readSettings(
  ctx: ExtensionContext,
  read: PiSettings = piSettingsFor(ctx),
): { settings: PermissionSettings; problems: string[] } {
  const manager = read();
  const valueIn = (settings: object) => (settings as Record<string, unknown>)[SETTINGS_KEY];
  return parseSettings(
    [
      { file: userSettingsFile(), value: valueIn(manager.getGlobalSettings()) },
      { file: join(ctx.cwd, CONFIG_DIR_NAME, SETTINGS_FILE), value: valueIn(manager.getProjectSettings()) },
    ],
    homedir(),
  );
}

export const userSettingsFile = (): string => join(getAgentDir(), SETTINGS_FILE);
