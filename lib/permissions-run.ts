// What /permissions does, command by command: the list and its switches, the log, the dry run,
// grants and their revoking, a new module from the template. permissions.ts registers the command;
// this is compiled when it first runs (scripts/build.ts).
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { branchDecisions, type DecisionRecord } from "./decision-log.ts";
import type { Enablement } from "./enablement.ts";
import { evaluate, type Verdict } from "./evaluator.ts";
import { editFile } from "./external-editor.ts";
import { nothingDrawn, OVERLAY, paintOf } from "./frame.ts";
import type { Gatekeeper } from "./gatekeeper.ts";
import { type Grant, type Grants, type HeldGrant, permissionsFolder, takeGrantedCall } from "./grants.ts";
import { notify } from "./guard.ts";
import { highlightSpans } from "./highlight.ts";
import type { LoadedHook, LoadResult } from "./loader.ts";
import { homedir } from "./node.ts";
import { type PermissionsCommand, resolveHookName } from "./permissions-command.ts";
import { PermissionsList, type Switches } from "./permissions-overlay.ts";
import * as present from "./presenter.ts";
import { listedRules } from "./rules-file.ts";
import { scaffoldModule } from "./scaffold.ts";
import { normalizeToolInput } from "./tool-input.ts";
import { isString } from "./values.ts";
import { toVisible } from "./visible.ts";

/** What /permissions acts on. */
export interface Controlled {
  gatekeeper: Gatekeeper;
  enablement: Enablement;
  grants: Grants;
}

/** Carries out a /permissions command, on the hooks as they are loaded. */
export async function runPermissionsCommand(
  controls: Controlled,
  command: PermissionsCommand,
  { hooks, errors, wrappers }: LoadResult,
  ctx: ExtensionContext,
): Promise<void> {
  switch (command.kind) {
    case "usage":
      return notify(ctx, present.PERMISSIONS_USAGE, "warning");
    case "list":
      return list(controls, hooks, errors, ctx);
    case "log":
      return notify(ctx, present.decisionLog(branchDecisions(ctx.sessionManager.getBranch()).map(visibleDecision)));
    case "test":
      return dryRun(controls, command.toolName, command.input, hooks, wrappers, ctx);
    case "grant":
      return grant(controls.grants, command, ctx);
    case "revoke":
      return revoke(controls.grants, command.rule, ctx);
    case "new":
      return scaffold(controls.gatekeeper, command.name, command.scope, ctx);
    case "switch":
      return switchHooks(controls.enablement, command, hooks, ctx);
  }
}

function switchHooks(
  enablement: Enablement,
  { enabled, name: typed }: Extract<PermissionsCommand, { kind: "switch" }>,
  hooks: readonly LoadedHook[],
  ctx: ExtensionContext,
): void {
  const names = [...new Set(hooks.map((hook) => hook.name))];
  if (!names.length) return notify(ctx, present.NO_HOOKS, "warning");
  if (!typed) {
    enablement.apply(new Map(names.map((name) => [name, enabled])), ctx);
    return notify(ctx, present.notifyAllSwitched(enabled, "/permissions enable"));
  }
  const name = resolveHookName(typed, names);
  if (!name) return notify(ctx, present.notifyUnknownHook(typed, names), "error");
  enablement.apply(new Map([[name, enabled]]), ctx);
  notify(ctx, present.notifyHookSwitched(name, enabled));
}

/**
 * A module from the template in the folder of `scope`, opened in the Approver's editor; a save
 * reloads it (live reload), so its hook is listed once the editor is closed.
 */
async function scaffold(gatekeeper: Gatekeeper, name: string, scope: "user" | "project", ctx: ExtensionContext): Promise<void> {
  // Asked before the editor opens: the reload its save starts must not ask while the editor is open.
  if (scope === "project" && !(await gatekeeper.projectModulesTrusted(ctx)))
    return notify(ctx, present.notifyScaffoldFailed(name, present.scaffoldProblems.projectNotTrusted), "error");
  const made = scaffoldModule(name, permissionsFolder(scope, ctx.cwd));
  if ("error" in made) return notify(ctx, present.notifyScaffoldFailed(name, made.error), "error");
  const shown = displayPath(made.file);
  const reason =
    ctx.hasUI && ctx.mode === "tui"
      ? await ctx.ui.custom<string | undefined>((tui, _theme, _keys, done) => {
          void editFile(tui, made.file).then(done);
          return nothingDrawn();
        })
      : present.problems.noTerminal;
  tell(
    ctx,
    reason === undefined
      ? present.notifyScaffolded(shown, made.written)
      : present.notifyScaffoldedNoEditor(shown, made.written, reason),
  );
}

function grant(grants: Grants, chosen: Grant, ctx: ExtensionContext): void {
  const { file, error } = grants.save(chosen, ctx);
  const shownRule = toVisible(chosen.rule);
  if (!error) notify(ctx, present.notifyGranted(shownRule, chosen.scope, file && displayPath(file)));
  else notify(ctx, present.notifyGrantFailed(shownRule, error), "error");
}

/** Every grant of the rule, wherever it is kept. */
function revoke(grants: Grants, rule: string, ctx: ExtensionContext): void {
  const held = grants.list();
  const matching = held.filter((grant) => grant.rule.trim() === rule.trim());
  if (!matching.length)
    return notify(
      ctx,
      present.notifyNoSuchGrant(toVisible(rule), [...new Set(held.map((grant) => toVisible(grant.rule)))]),
      "error",
    );
  revokeHeld(grants, matching, ctx);
}

function revokeHeld(grants: Grants, held: readonly HeldGrant[], ctx: ExtensionContext): void {
  for (const grant of held) {
    const place = grant.scope === "branch" ? present.GRANT_SCOPE_WORDS.branch : displayPath(grant.file);
    const error = grants.revoke(grant);
    const shownRule = toVisible(grant.rule);
    if (!error) notify(ctx, present.notifyRevoked(shownRule, [place]));
    else notify(ctx, present.notifyRevokeFailed(shownRule, place, error), "error");
  }
}

/** Every hook and rule file on the call, none of them deciding anything for real; the call never runs. */
async function dryRun(
  { enablement, grants }: Controlled,
  toolName: string,
  input: Record<string, unknown>,
  hooks: readonly LoadedHook[],
  wrappers: LoadResult["wrappers"],
  ctx: ExtensionContext,
) {
  const tool = normalizeToolInput(toolName, input, ctx.cwd, wrappers);
  const verdicts: present.DryRunVerdict[] = [];
  for (const hook of hooks) {
    const verdict = await evaluate([hook], { cwd: ctx.cwd, tool });
    const enabled = enablement.isEnabled(hook.name);
    const granted = verdict?.kind === "request" ? grants.covering(verdict, tool) : takeGrantedCall(tool)?.rule;
    if (granted !== undefined) verdicts.push(dryRunGranted(hook, enabled, granted));
    else if (verdict) verdicts.push(dryRunVerdict(verdict, enabled, toolName, tool.detail));
  }
  tell(ctx, present.dryRunReport(toVisible(toolName), toVisible(tool.detail), verdicts, homedir()));
}

async function list(
  { enablement, grants }: Controlled,
  hooks: readonly LoadedHook[],
  errors: LoadResult["errors"],
  ctx: ExtensionContext,
): Promise<void> {
  if (!ctx.hasUI || ctx.mode !== "tui") {
    const rows = hooks.map((hook) => ({
      ...hook,
      enabled: enablement.isEnabled(hook.name),
      rules: hook.rules && present.ruleRows(listedRules(hook.rules)),
    }));
    const listed = grants.list().map((grant) => ({
      rule: toVisible(grant.rule),
      scope: grant.scope,
      ...(grant.scope !== "branch" && { file: toVisible(displayPath(grant.file)) }),
    }));
    return notify(ctx, present.permissionsSummary(rows, errors, listed));
  }
  const saved = await ctx.ui.custom<[switches: Switches, revoked: readonly HeldGrant[]] | undefined>(
    (tui, theme, keybindings, done) =>
      new PermissionsList(hooks, errors, (name) => enablement.isEnabled(name), {
        tui,
        paint: paintOf(theme),
        keys: keybindings,
        home: homedir(),
        grants: grants.list(),
        done: (switches, revoked = []) => done(switches && [switches, revoked]),
      }),
    OVERLAY,
  );
  if (!saved) return;
  const [switches, revoked] = saved;
  enablement.apply(switches, ctx);
  revokeHeld(grants, revoked, ctx);
}

/** Print mode has no notices: there the text goes to the terminal (pi sends extensions' stdout to stderr). */
function tell(ctx: ExtensionContext, text: string): void {
  if (ctx.hasUI) notify(ctx, text);
  else process.stdout.write(`${text}\n`);
}

const displayPath = (path: string): string => present.displayPath(path, homedir());

/** The hook a dry run's verdict is of, as the report names it. */
const dryRunHook = (hook: LoadedHook, enabled: boolean) => ({
  nameOfHook: toVisible(hook.name),
  scope: hook.scope,
  source: toVisible(hook.source),
  enabled,
});

const dryRunGranted = (hook: LoadedHook, enabled: boolean, grant: string): present.DryRunVerdict => ({
  ...dryRunHook(hook, enabled),
  outcome: { kind: "granted", grant: toVisible(grant) },
});

const DECISION_TEXTS = ["hook", "tool", "detail", "edited", "grant"] as const;

/** A decision with its texts (the hook, the call, what ran instead, the grant) in visible notation. */
function visibleDecision(decision: DecisionRecord): DecisionRecord {
  const visible = { ...decision };
  for (const key of DECISION_TEXTS) {
    const value = visible[key];
    if (value) visible[key] = toVisible(value);
  }
  return visible;
}

function dryRunVerdict(verdict: Verdict, enabled: boolean, toolName: string, detail: string): present.DryRunVerdict {
  const { hook } = verdict;
  const base = dryRunHook(hook, enabled);
  if (verdict.kind === "block")
    return { ...base, outcome: { kind: "block", agentReads: present.agentHookBlock(hook.name, verdict.reason) } };
  const failed = verdict.kind === "failed";
  const guidance = failed ? present.hookFailureGuidance(verdict.error) : verdict.prompt.guidance;
  const prompt: present.DryRunPrompt = {
    nameOfHook: base.nameOfHook,
    ...(hook.description && { description: toVisible(hook.description) }),
    ...(isString(guidance) && { guidance: toVisible(guidance) }),
    toolName: toVisible(toolName),
    detail: toVisible(detail),
    highlighted: failed
      ? []
      : highlightSpans(detail, verdict.prompt.highlight).map(({ start, end }) => toVisible(detail.slice(start, end))),
    withoutUi: failed ? present.agentHookFailure(hook.name, verdict.error) : present.agentNoUi(hook.name),
  };
  return { ...base, outcome: { kind: verdict.kind, prompt }, ...(failed && { error: verdict.error }) };
}
