import type { ExtensionContext, ToolCallEvent, ToolCallEventResult, ToolResultEvent } from "@earendil-works/pi-coding-agent";
import { isToolCallEventType } from "@earendil-works/pi-coding-agent";
import type { ParentCall, PermissionTool } from "./api.ts";
import { approverDecision, type DecidedCall, type DecisionLog, grantedDecision, unansweredDecision } from "./decision-log.ts";
import type { Enablement } from "./enablement.ts";
import { evaluate, type Verdict } from "./evaluator.ts";
import { describeValue } from "./failure.ts";
import { type GrantScope, type Grants, type GrantUse, grantRule, permissionsFolder } from "./grants.ts";
import { notify, report } from "./guard.ts";
import { highlightSpans } from "./highlight.ts";
import { type LoadError, type LoadResult, loadPermissionModules, moduleFiles, type PermissionDirs } from "./loader.ts";
import { parentCall, parentOf, structuredContentOf } from "./nested-calls.ts";
import { dirname, join } from "./node.ts";
import { NoteStore, type PendingNote, type RelayedNote } from "./note-store.ts";
import { installedPackages, packagePermissions, providesFrom } from "./packages.ts";
import * as present from "./presenter.ts";
import { ProjectTrust } from "./project-trust.ts";
import type { PromptOutcome, PromptRequest } from "./prompt-overlay.ts";
import type { RuleSet } from "./rules-file.ts";
import { type PiSettings, piSettingsFor } from "./settings.ts";
import { type OpenPrompt, type ShowPrompt, showPrompt } from "./show-prompt.ts";
import { isCommandTool, normalizeToolInput, oneLineJson } from "./tool-input.ts";
import { isString, textOr } from "./values.ts";
import { touched } from "./watch.ts";

type Content = ToolResultEvent["content"];

/** A call its hooks ask about, as it was decided: the prompt to show, and what the answer applies to. */
interface Asking {
  request: PromptRequest;
  parent: ParentCall | undefined;
  tool: PermissionTool;
  /** The grants in force when it was decided: a prompt still waiting when they change is decided again. */
  grants: readonly RuleSet[] | undefined;
  /** What the agent reads when the prompt can't be shown after all. */
  noUi: string;
}

/** A reload waiting to start: the changes it loads, and when it is done. */
interface NextReload {
  ctx: ExtensionContext;
  changed: Set<string>;
  done: Promise<void>;
}

/** Holds one session's hooks, prompts and pending notes; index.ts feeds it pi's events. */
export class Gatekeeper {
  #loading: Promise<LoadResult> = Promise.resolve({ hooks: [], errors: [], warnings: [] });
  /** Where the latest load looked. */
  #dirs: PermissionDirs | undefined;
  readonly #projectTrust = new ProjectTrust();
  /** The latest reload asked for: the next one starts once it is done. */
  #reloading: Promise<void> = Promise.resolve();
  #nextReload: NextReload | undefined;
  readonly #notes = new NoteStore();
  #promptQueue: Promise<unknown> = Promise.resolve();
  readonly #openPrompts = new Set<OpenPrompt>();
  /** The hook (its name, never empty) whose prompt the Approver aborted without a note, stopping the current turn. */
  #stoppedBy: string | undefined;
  #closed = false;
  readonly #enablement: Enablement;
  readonly #show: ShowPrompt;
  readonly #decisions: DecisionLog | undefined;
  readonly #grants: Grants | undefined;
  readonly #importAfresh: ((file: string) => Promise<unknown>) | undefined;

  /**
   * `show` puts a request to the Approver; tests answer in its place. `decisions` records every
   * outcome and block; `grants` lets covered requests through and keeps the grants an Authorize saves.
   * `importAfresh` imports an edited module for a live reload (lib/host.ts).
   */
  constructor(
    enablement: Enablement,
    show: ShowPrompt = showPrompt,
    decisions?: DecisionLog,
    grants?: Grants,
    importAfresh?: (file: string) => Promise<unknown>,
  ) {
    this.#enablement = enablement;
    this.#show = show;
    this.#decisions = decisions;
    this.#grants = grants;
    this.#importAfresh = importAfresh;
  }

  /**
   * (Re)loads permission modules; project modules only in a project the Approver trusts. `settings`:
   * pi's settings files, which a session start reads once for everything it needs.
   */
  load(ctx: ExtensionContext, settings: PiSettings = piSettingsFor(ctx)): void {
    this.#startOver(ctx);
    this.#closed = false;
    // A reload still waiting to start has nothing left to load.
    this.#nextReload = undefined;
    this.#loading = this.#loadHooks(ctx, settings);
  }

  /**
   * A permission folder changed (live reload): the hooks load again for the next tool call, never
   * while a prompt is open, one load at a time; changes that arrive while a reload waits to start
   * join it. A file that no longer loads keeps its previous hooks gating until it does; a problem is
   * told when its file changes or it is new, not again with every other change.
   */
  reload(ctx: ExtensionContext, changed: ReadonlySet<string>): Promise<void> {
    if (![...changed].some((path) => this.#concerns(path))) return Promise.resolve();
    const waiting = this.#nextReload;
    if (waiting) {
      waiting.ctx = ctx;
      for (const path of changed) waiting.changed.add(path);
      return waiting.done;
    }
    const next: NextReload = { ctx, changed: new Set(changed), done: this.#reloading.then(() => this.#reloadWhenFree(next)) };
    this.#nextReload = next;
    this.#reloading = next.done.catch(() => undefined);
    return next.done;
  }

  /**
   * Whether a change at `path` can change the hooks. A package's root is watched for its manifest
   * and the files it provides there; its other files (its code, its lock file) are not the hooks'.
   */
  #concerns(path: string): boolean {
    return !(this.#dirs?.packages ?? []).some((pkg) => dirname(path) === pkg.root && !providesFrom(pkg, path));
  }

  async #reloadWhenFree(next: NextReload): Promise<void> {
    while (this.#openPrompts.size > 0) await this.#promptQueue;
    const previous = await this.#loading;
    // A session that ended meanwhile has no hooks to load.
    if (this.#closed || this.#nextReload !== next) return;
    this.#nextReload = undefined;
    const { ctx, changed } = next;
    this.#loading = this.#loadHooks(ctx, piSettingsFor(ctx), { previous, changed });
    await this.#loading;
  }

  /** The folders whose changes reload the hooks: the user's, the project's (in a project pi trusts), the packages'. */
  async watchedFolders(ctx: ExtensionContext): Promise<string[]> {
    await this.#loading;
    const folders = [permissionsFolder("user", ctx.cwd)];
    if (ctx.isProjectTrusted()) folders.push(permissionsFolder("project", ctx.cwd));
    // A package's root for its manifest: an edit of it (the fix of one that did not load) reloads.
    for (const { root, files } of this.#dirs?.packages ?? [])
      folders.push(root, join(root, "permissions"), ...files.map(dirname));
    return [...new Set(folders)];
  }

  async #loadHooks(
    ctx: ExtensionContext,
    settings: PiSettings,
    since?: { previous: LoadResult; changed: ReadonlySet<string> },
  ): Promise<LoadResult> {
    const grants = this.#grants;
    const dirs = await permissionDirs(ctx, settings, this.#projectTrust);
    this.#dirs = dirs;
    const reload = since && {
      previous: since.previous.hooks,
      wrappers: since.previous.wrappers,
      importAfresh: this.#importAfresh,
    };
    const result = await loadPermissionModules(dirs, grants && (() => grants.inForce()), reload);
    grants?.track(result.hooks);
    /** Each entry not told already: a reload tells again only what is new, or in a file that changed. */
    const tell = (kind: "errors" | "warnings", message: (entry: LoadError) => string) => {
      for (const entry of result[kind]) {
        const told =
          since &&
          !touched(since.changed, entry.file) &&
          since.previous[kind].some((other) => other.file === entry.file && other.error === entry.error);
        if (!told) report(ctx, message(entry), kind === "errors" ? "error" : "warning");
      }
    };
    tell("errors", (entry) => (entry.kept ? present.notifyLoadErrorKept : present.notifyLoadError)(entry.file, entry.error));
    tell("warnings", (entry) => present.notifyLoadWarning(entry.file, entry.error));
    this.#enablement.track(
      result.hooks.map((hook) => hook.name),
      ctx,
    );
    return result;
  }

  /** Whether the project's permission modules load: the Approver is asked when it isn't decided. */
  projectModulesTrusted(ctx: ExtensionContext): Promise<boolean> {
    return this.#projectTrust.modulesTrusted(ctx, permissionsFolder("project", ctx.cwd));
  }

  /** Every hook of this session, on or off, and every module that failed to load. */
  loaded(): Promise<LoadResult> {
    return this.#loading;
  }

  /** /tree moved to another point of the session: nothing of the old position carries over; the branch's grants hold. */
  onTree(ctx: ExtensionContext): void {
    this.#startOver(ctx);
  }

  /** Nothing of the session's old position carries over: no note, no stopped turn; the grants are its branch's. */
  #startOver(ctx: ExtensionContext): void {
    this.#notes.discardAll();
    this.#stoppedBy = undefined;
    this.#grants?.restore(ctx);
  }

  /**
   * An Abort without a note stops the turn. pi's own abort would replace the tool result with
   * "Operation aborted", so the turn is stopped once its tool results, carrying our reason, are in.
   */
  onTurnEnd(ctx: ExtensionContext): void {
    this.#notes.discardAll();
    if (!this.#stoppedBy) return;
    this.#stoppedBy = undefined;
    ctx.abort();
  }

  async onToolCall(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | undefined> {
    const parentId = parentOf(event);
    if (parentId !== undefined) this.#notes.madeBy(event.toolCallId, parentId);
    const stoppedBy = this.#stoppedBy;
    if (stoppedBy) {
      const { detail } = normalizeToolInput(event.toolName, event.input, ctx.cwd, (await this.#loading).wrappers);
      return this.#turnStopped(ctx, { nameOfHook: stoppedBy, toolName: event.toolName, detail });
    }
    const judged = await this.#judge(event, ctx);
    return judged && "request" in judged ? this.#ask(event, ctx, judged) : judged;
  }

  /** What the hooks (and the grants) decide about a call: a result for pi, or a prompt to show. */
  async #judge(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | Asking | undefined> {
    const loaded = await this.#loading;
    const hooks = this.#enablement.allEnabled
      ? loaded.hooks
      : loaded.hooks.filter((hook) => this.#enablement.isEnabled(hook.name));
    if (!hooks.length) return undefined;
    const tool = normalizeToolInput(event.toolName, event.input, ctx.cwd, loaded.wrappers);
    const parentId = parentOf(event);
    const parent = parentId === undefined ? undefined : parentCall(ctx, this.#notes.rootOf(event.toolCallId));
    const input = parent ? { cwd: ctx.cwd, tool, parent } : { cwd: ctx.cwd, tool };
    const grants = this.#grants?.inForce();
    let verdict = await evaluate(hooks, input);
    let granted: GrantUse | undefined;
    if (this.#grants?.any()) ({ verdict, granted } = await this.#grants.pass(verdict, hooks, input));
    /** The call as the decision log names it, with the hook that decided. */
    const decidedCall = (hookName: string): DecidedCall => ({
      nameOfHook: hookName,
      toolName: event.toolName,
      detail: tool.detail,
    });
    if (!verdict) {
      if (granted) this.#decisions?.record(grantedDecision(decidedCall(granted.nameOfHook), granted.rule), ctx);
      return undefined;
    }
    const call = decidedCall(verdict.hook.name);
    if (verdict.kind === "block") {
      this.#decisions?.record(unansweredDecision(call, "hook"), ctx);
      return blocked(present.agentHookBlock(call.nameOfHook, verdict.reason));
    }
    const noUi = noUiReason(verdict);
    if (!canAsk(ctx)) {
      this.#decisions?.record(unansweredDecision(call, "no UI"), ctx);
      return blocked(noUi);
    }
    const request = promptRequest(verdict, event.toolName, tool.detail, parent, this.#grants && grantOffer(verdict, tool, ctx));
    return { request, parent, tool, grants, noUi };
  }

  /**
   * Prompts are shown one at a time, in the order their calls asked. Once the turn is
   * interrupted, the open prompt closes and queued ones resolve as Abort without showing. A
   * queued prompt is decided again, in its place, when what decided it changed while it waited:
   * its hook was switched off (don't ask again), or the grants changed (one saved at an earlier
   * prompt may cover it). It shows only if its call still asks.
   */
  #ask(event: ToolCallEvent, ctx: ExtensionContext, asking: Asking): Promise<ToolCallEventResult | undefined> {
    const turn = async () => {
      let current = asking;
      for (;;) {
        const { nameOfHook: hookName } = current.request;
        if (this.#stoppedBy || this.#closed) return this.#turnStopped(ctx, current.request);
        if (this.#enablement.isEnabled(hookName) && this.#grants?.inForce() === current.grants) break;
        const judged = await this.#judge(event, ctx);
        if (!judged || !("request" in judged)) return judged;
        current = judged;
      }
      const outcome = await this.#show(ctx, current.request, (prompt, open) => {
        if (open) this.#openPrompts.add(prompt);
        else this.#openPrompts.delete(prompt);
      });
      return this.#settle(event, ctx, current, outcome);
    };
    const answer = this.#promptQueue.then(turn, turn);
    this.#promptQueue = answer.catch(() => undefined);
    return answer;
  }

  /** What the Approver's answer means for the call: recorded, and applied. */
  #settle(
    event: ToolCallEvent,
    ctx: ExtensionContext,
    { request, parent, tool, noUi }: Asking,
    outcome: Awaited<ReturnType<ShowPrompt>>,
  ): ToolCallEventResult | undefined {
    const { nameOfHook: hookName } = request;
    if (outcome === "interrupted" || this.#closed) return this.#turnStopped(ctx, request);
    if (outcome === "timed out") {
      this.#decisions?.record(unansweredDecision(request, "timeout"), ctx);
      this.#stoppedBy = hookName;
      return blocked(present.agentTimedOut(hookName));
    }
    if (!outcome) return blocked(noUi);
    // The log says a grant was made only once it is saved.
    const unsaved = outcome.kind === "authorize" && outcome.grant && !this.#saveGrant(outcome.grant, ctx);
    // The script ended while the Approver was deciding: pi cancels the call, and no note could reach the agent.
    if (parent && !this.#notes.rootRunning(event.toolCallId)) {
      this.#decisions?.record(unansweredDecision(request, "script ended"), ctx);
      notify(ctx, present.notifyParentEnded(hookName, parent.name));
      return blocked(present.agentParentEnded(parent.name));
    }
    this.#decisions?.record(approverDecision(request, unsaved ? { ...outcome, grant: undefined } : outcome), ctx);
    return this.#apply(outcome, hookName, event, ctx, parent && { toolName: event.toolName, args: callArguments(tool) });
  }

  /** A call of a turn the Approver stopped: blocked without asking. */
  #stopped(hookName: string): ToolCallEventResult {
    return blocked(present.agentAbort(hookName));
  }

  /** A call of a stopped turn: blocked unasked, or its prompt closed; recorded, unless the session is closing. */
  #turnStopped(ctx: ExtensionContext, call: DecidedCall): ToolCallEventResult {
    if (!this.#closed) this.#decisions?.record(unansweredDecision(call, "turn stopped"), ctx);
    return this.#stopped(call.nameOfHook);
  }

  /**
   * The call's own note, then the notes about calls it made (a codemode script's), go before its
   * output. Structured content (what a script's `tools.bash()` resolves to on pi 1.x) is kept as it is.
   */
  onToolResult(event: ToolResultEvent): { content: Content; structuredContent?: unknown } | undefined {
    const notes = this.#notes.consume(event.toolCallId);
    if (!notes) return undefined;
    const texts = notes.relayed.map(({ toolName, args, note }) =>
      present.agentNestedNote(event.toolName, toolName, args, present.agentNote(note)),
    );
    if (notes.note) texts.unshift(present.agentNote(notes.note));
    const content = prepend(
      texts.reduce((all, text) => present.withNote(all, text)),
      event.content,
    );
    const structuredContent = structuredContentOf(event);
    return { content, ...(structuredContent !== undefined && { structuredContent }) };
  }

  /**
   * The session is going away: open prompts close, queued ones never show, and their calls are
   * blocked quietly; this is not the Approver aborting, and the session's context is retired.
   */
  close(): void {
    this.#closed = true;
    this.#nextReload = undefined;
    this.#notes.discardAll();
    for (const prompt of this.#openPrompts) prompt.cancel();
  }

  /**
   * A grant that can't be saved is said, and the call still runs: the Approver authorized it either
   * way. Whether it was saved.
   */
  #saveGrant(grant: NonNullable<Extract<PromptOutcome, { kind: "authorize" }>["grant"]>, ctx: ExtensionContext): boolean {
    const { file, error } = this.#grants?.save(grant, ctx) ?? { error: present.grantProblems.noGrants };
    if (!error) notify(ctx, present.notifyGranted(grant.rule, grant.scope, file));
    else report(ctx, present.notifyGrantNotSaved(grant.rule, grant.scope, file, error), "warning");
    return !error;
  }

  /** `nested`: the call another call made, as the notes relayed to the agent name it. */
  #apply(
    outcome: PromptOutcome,
    hookName: string,
    event: ToolCallEvent,
    ctx: ExtensionContext,
    nested?: Omit<RelayedNote, "note">,
  ): ToolCallEventResult | undefined {
    const id = event.toolCallId;
    /** The Approver is told what happens; the note goes with the call's result, and to its root's. */
    const keep = (note: PendingNote, notice: string) => {
      notify(ctx, notice);
      if (note.kind !== "abort") this.#notes.remember(id, note);
      if (nested) this.#notes.relay(id, { ...nested, note });
    };
    switch (outcome.kind) {
      case "authorize":
        if (outcome.note)
          keep({ kind: "authorize", nameOfHook: hookName, note: outcome.note }, present.notifyAuthorizedWithNote(hookName));
        if (outcome.dontAskAgain) {
          this.#enablement.apply(new Map([[hookName, false]]), ctx);
          notify(ctx, present.notifyDontAskAgain(hookName));
        }
        return undefined;
      case "edit": {
        const input = commandInput(event);
        if (!input) return blocked(present.agentInternalError(present.problems.notEditable(event.toolName)));
        input.command = outcome.command;
        keep({ ...outcome, nameOfHook: hookName }, present.notifyEdited(hookName));
        return undefined;
      }
      case "abort":
        if (ctx.signal?.aborted) return this.#stopped(hookName);
        keep({ ...outcome, nameOfHook: hookName }, present.notifyAborted(hookName, outcome.note !== undefined));
        if (!outcome.note) this.#stoppedBy = hookName;
        return blocked(present.agentAbort(hookName, outcome.note));
      default:
        outcome satisfies never;
        return blocked(present.agentInternalError(present.problems.outcomeNotUnderstood(describeValue(outcome))));
    }
  }
}

/** The command an Edit writes back to: pi's bash input, or a powershell tool's of the same shape. */
function commandInput(event: ToolCallEvent): { command: string } | undefined {
  if (isToolCallEventType("bash", event)) return event.input;
  if (isToolCallEventType<"powershell", { command: string }>("powershell", event) && isString(event.input.command)) {
    return event.input;
  }
  return undefined;
}

function promptRequest(
  verdict: Exclude<Verdict, { kind: "block" }>,
  toolName: string,
  detail: string,
  parent: ParentCall | undefined,
  grant: Pick<PromptRequest, "grantRule" | "grantScopes"> | undefined,
): PromptRequest {
  const prompt = verdict.kind === "request" ? verdict.prompt : {};
  const guidance = verdict.kind === "failed" ? present.hookFailureGuidance(verdict.error) : text(prompt.guidance);
  const origin = [parent && present.promptOrigin(parent.name), present.promptHookScope(verdict.hook.scope)].filter(Boolean);
  return {
    nameOfHook: verdict.hook.name,
    description: verdict.hook.description,
    ...(origin.length > 0 && { origin: origin.join(" ") }),
    ...(isString(parent?.input.code) && { script: parent.input.code }),
    guidance,
    toolName,
    detail,
    highlights: highlightSpans(detail, prompt.highlight),
    labels: {
      authorize: textOr(prompt.authorizeLabel ?? prompt.approveLabel, present.DEFAULT_LABELS.authorize),
      edit: textOr(prompt.editLabel, present.DEFAULT_LABELS.edit),
      abort: textOr(prompt.abortLabel ?? prompt.rejectLabel, present.DEFAULT_LABELS.abort),
      dontAsk: textOr(prompt.dontAskLabel, present.DEFAULT_LABELS.dontAsk),
    },
    editable: isCommandTool(toolName),
    ...grant,
  };
}

/**
 * The grant a prompt offers: the rule grantRule derives from what asked, none when nothing narrower
 * than the hook can be named. "This project" only in a project pi trusts: the project's grants.json
 * is one of its rule files, which load under the same trust rule.
 */
function grantOffer(
  verdict: Exclude<Verdict, { kind: "block" }>,
  tool: PermissionTool,
  ctx: ExtensionContext,
): Pick<PromptRequest, "grantRule" | "grantScopes"> {
  const rule = grantRule(verdict, tool);
  if (rule === undefined) return {};
  const scopes: GrantScope[] = ctx.isProjectTrusted() ? ["branch", "project", "user"] : ["branch", "user"];
  return { grantRule: rule, grantScopes: scopes };
}

/** A call as the agent's notes name it: the command, or the arguments as one line of JSON. */
function callArguments(tool: PermissionTool): string {
  return "command" in tool ? tool.command : (oneLineJson(tool.input) ?? "");
}

/** The call doesn't run; the agent reads `reason` in its place. */
export function blocked(reason: string): ToolCallEventResult {
  return { block: true, reason };
}

/** Someone can be asked: the Approver in pi's TUI, or an RPC client through pi's dialogs. */
const canAsk = (ctx: ExtensionContext): boolean => ctx.hasUI && (ctx.mode === "tui" || ctx.mode === "rpc");

function noUiReason(verdict: Exclude<Verdict, { kind: "block" }>): string {
  return verdict.kind === "failed"
    ? present.agentHookFailure(verdict.hook.name, verdict.error)
    : present.agentNoUi(verdict.hook.name);
}

function prepend(note: string, content: Content): Content {
  const [first, ...rest] = content;
  if (first?.type === "text") return [{ ...first, text: present.withNote(note, first.text) }, ...rest];
  return [{ type: "text", text: note }, ...content];
}

function text(value: unknown): string | undefined {
  return isString(value) ? value : undefined;
}

async function permissionDirs(ctx: ExtensionContext, settings: PiSettings, trust: ProjectTrust): Promise<PermissionDirs> {
  const user = permissionsFolder("user", ctx.cwd);
  const project = permissionsFolder("project", ctx.cwd);
  const packages = installedPackages(ctx.cwd, settings).map(packagePermissions);
  const trusted = moduleFiles(project).length > 0 && (await trust.modulesTrusted(ctx, project));
  return { ...(trusted && { project }), user, packages };
}
