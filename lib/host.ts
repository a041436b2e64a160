/**
 * The packages of the pi that loaded the extension. The build (tsconfig.build.json) points every
 * runtime import of `@earendil-works/*` in index.ts and lib/ at this module, so the bundle names no
 * package a runtime could resolve, or auto-install, on its own. `loadPi()` binds the exports before
 * anything uses them. Unbundled (unit tests), lib/ imports the dev copies and never loads this file.
 */

import type * as Agent from "@earendil-works/pi-coding-agent";
import type * as Tui from "@earendil-works/pi-tui";
import { describeError } from "./failure.ts";
import { readFileSync } from "./node.ts";

// pi imports extensions through jiti. The bundle compiles its code as a function of two things jiti
// gives the module it runs (scripts/code-as-text.ts): `jitiImport`, which resolves pi's packages the
// way pi set up (aliases to its own files, or the modules a bundled or compiled pi embeds), and
// jiti's own `require`. Imported any other way, the bundle refuses to run (docs/pi-resolution.md).
declare const jitiImport: (id: string) => Promise<unknown>;
// An import returns the module jiti cached when the extension first imported the file, until
// /reload; `evalModule` evaluates the file as it is now.
declare const jitiRequire:
  | { evalModule?: (source: string, options: { filename: string; async: true; forceTranspile: true }) => Promise<unknown> }
  | undefined;

/** A permission module as its file is now, evaluated by pi's loader (live reload); undefined without one. */
export const importAfresh =
  typeof jitiRequire !== "undefined" && typeof jitiRequire?.evalModule === "function"
    ? (file: string) => jitiRequire.evalModule!(readFileSync(file, "utf8"), { filename: file, async: true, forceTranspile: true })
    : undefined;

export let Editor: typeof Tui.Editor;
export let Input: typeof Tui.Input;
export let decodeKittyPrintable: typeof Tui.decodeKittyPrintable;
export let fuzzyFilter: typeof Tui.fuzzyFilter;
export let matchesKey: typeof Tui.matchesKey;
export let truncateToWidth: typeof Tui.truncateToWidth;
export let visibleWidth: typeof Tui.visibleWidth;
export let wrapTextWithAnsi: typeof Tui.wrapTextWithAnsi;

export let CONFIG_DIR_NAME: typeof Agent.CONFIG_DIR_NAME;
export let DefaultPackageManager: typeof Agent.DefaultPackageManager;
export let getAgentDir: typeof Agent.getAgentDir;
export let hasTrustRequiringProjectResources: typeof Agent.hasTrustRequiringProjectResources;
export let isToolCallEventType: typeof Agent.isToolCallEventType;
export let ProjectTrustStore: typeof Agent.ProjectTrustStore;
export let SettingsManager: typeof Agent.SettingsManager;

/** The names bound below, per package: a pi that lacks one can't run the extension. */
const USED = {
  tui: [
    "Editor",
    "Input",
    "decodeKittyPrintable",
    "fuzzyFilter",
    "matchesKey",
    "truncateToWidth",
    "visibleWidth",
    "wrapTextWithAnsi",
  ],
  agent: [
    "CONFIG_DIR_NAME",
    "DefaultPackageManager",
    "getAgentDir",
    "hasTrustRequiringProjectResources",
    "isToolCallEventType",
    "ProjectTrustStore",
    "SettingsManager",
  ],
} as const satisfies { tui: readonly (keyof typeof Tui)[]; agent: readonly (keyof typeof Agent)[] };

/** Binds the exports above to pi's own modules; resolves to what went wrong, if anything did. */
export async function loadPi(): Promise<string | undefined> {
  let tui: typeof Tui;
  let agent: typeof Agent;
  try {
    [tui, agent] = (await Promise.all([jitiImport("@earendil-works/pi-tui"), jitiImport("@earendil-works/pi-coding-agent")])) as [
      typeof Tui,
      typeof Agent,
    ];
  } catch (error) {
    return describeError(error);
  }
  ({ Editor, Input, decodeKittyPrintable, fuzzyFilter, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi } = tui);
  ({
    CONFIG_DIR_NAME,
    DefaultPackageManager,
    getAgentDir,
    hasTrustRequiringProjectResources,
    isToolCallEventType,
    ProjectTrustStore,
    SettingsManager,
  } = agent);
  const missing = [
    ...USED.tui.filter((name) => tui[name] === undefined),
    ...USED.agent.filter((name) => agent[name] === undefined),
  ];
  return missing.length ? `missing ${missing.join(", ")}` : undefined;
}
