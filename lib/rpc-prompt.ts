// The prompt for RPC clients: the same decision as the overlay, asked through pi's select, editor
// and input dialogs, which pi turns into extension_ui_request messages for the client.
import type { ExtensionUIContext, ExtensionUIDialogOptions } from "@earendil-works/pi-coding-agent";
import * as present from "./presenter.ts";
import type { PromptOutcome, PromptRequest } from "./prompt-overlay.ts";
import { fromVisible, toVisible } from "./visible.ts";

export type Dialogs = Pick<ExtensionUIContext, "select" | "editor" | "input" | "notify">;

/** A choice: its text in the select, and what picking it answers (an outcome, or undefined to ask again). */
type Choice = [text: string, answer: () => PromptOutcome | undefined | Promise<PromptOutcome | undefined>];

/**
 * Asks until the client answers. Cancelling the select is an Abort; cancelling the editor, a note
 * or the grant's scope goes back to the select, as esc in the overlay's edit mode or grant step
 * goes back to the choices. A codemode call's script is one choice away, as ctrl+o shows it in the overlay.
 * Resolves undefined once `signal` aborts (the prompt was closed from outside): pi's editor
 * dialog can't be dismissed, so its answer is then ignored. `remainingMs` is passed on to the
 * client's select and input dialogs as their countdown.
 */
export async function askThroughDialogs(
  ui: Dialogs,
  request: PromptRequest,
  signal: AbortSignal,
  remainingMs: () => number | undefined,
): Promise<PromptOutcome | undefined> {
  const { labels, grantRule, script } = request;
  const scopes = request.grantScopes ?? [];
  const hookName = toVisible(request.nameOfHook);
  const detail = toVisible(request.detail);
  const visible = (text: string | undefined) => text && toVisible(text);
  const title = present.rpcPromptTitle({
    nameOfHook: hookName,
    origin: visible(request.origin),
    description: visible(request.description),
    guidance: visible(request.guidance),
    toolName: toVisible(request.toolName),
    detail,
  });
  const choices: Choice[] = [
    [labels.authorize, () => ({ kind: "authorize" })],
    ...(request.editable ? [[present.rpcChoice.edit(labels.edit), () => edit()] as Choice] : []),
    [labels.abort, () => ({ kind: "abort" })],
    [present.rpcChoice.withNote(labels.authorize), () => withNote("authorize")],
    [present.rpcChoice.withNote(labels.abort), () => withNote("abort")],
    [present.rpcChoice.dontAsk(labels.authorize, labels.dontAsk), () => ({ kind: "authorize", dontAskAgain: true })],
  ];
  if (grantRule !== undefined && scopes.length)
    choices.push([present.rpcChoice.grant(labels.authorize, grantRule), () => grant(grantRule)]);
  if (script !== undefined) choices.push([present.rpcChoice.script, () => showScript(script)]);

  const dialog = (): ExtensionUIDialogOptions => {
    const timeout = remainingMs();
    return { signal, ...(timeout !== undefined && { timeout: Math.max(1, timeout) }) };
  };
  /** A select of numbered options: the answer paired with the one picked, undefined for none of them. */
  const pick = async <Answer>(title: string, pairs: readonly (readonly [text: string, answer: Answer])[]) => {
    const options = pairs.map(([text], index) => present.rpcChoice.numbered(index, toVisible(text)));
    const picked = await ui.select(title, options, dialog());
    return pairs[options.indexOf(picked ?? "")]?.[1];
  };
  /** The note typed, trimmed (empty is none); undefined when cancelled. */
  const note = async (label: string) => {
    const text = await ui.input(present.rpcNoteTitle(toVisible(label)), undefined, dialog());
    if (text === undefined) return undefined;
    const trimmed = fromVisible(text).trim();
    return trimmed ? { note: trimmed } : {};
  };
  const withNote = async (kind: "authorize" | "abort") => {
    const given = await note(labels[kind]);
    return given && { kind, ...given };
  };
  const edit = async (): Promise<PromptOutcome | undefined> => {
    const edited = await untilAborted(ui.editor(present.rpcEditorTitle(hookName), detail), signal);
    if (edited === undefined || signal.aborted) return undefined;
    if (!edited.trim()) {
      ui.notify(present.EMPTY_COMMAND_WARNING, "warning");
      return undefined;
    }
    const given = await note(labels.edit);
    if (!given) return undefined;
    return edited === detail ? { kind: "authorize", ...given } : { kind: "edit", command: fromVisible(edited), ...given };
  };
  const grant = async (rule: string): Promise<PromptOutcome | undefined> => {
    const where = scopes.map((scope) => [present.GRANT_SCOPE_WORDS[scope], scope] as const);
    const scope = await pick(present.rpcGrantTitle(hookName, toVisible(rule)), where);
    return scope && { kind: "authorize", grant: { rule, scope } };
  };
  const showScript = async (shown: string) => {
    await ui.select(present.rpcScriptTitle(hookName, toVisible(shown)), [present.RPC_BACK], dialog());
    return undefined;
  };

  for (;;) {
    const answer = await pick(title, choices);
    if (signal.aborted) return undefined;
    // Fail closed: a cancelled select, or an answer that is none of the options, is an Abort.
    const outcome = answer ? await answer() : { kind: "abort" as const };
    if (signal.aborted) return undefined;
    if (outcome) return outcome;
  }
}

/** The promise's value, or undefined as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const unwatch = whenAborted(signal, () => resolve(undefined));
    promise.then(resolve, reject).finally(unwatch);
  });
}

/** Runs `run` once `signal` aborts; returns what stops that. */
export function whenAborted(signal: AbortSignal | undefined, run: () => void): () => void {
  signal?.addEventListener("abort", run, { once: true });
  return () => signal?.removeEventListener("abort", run);
}
