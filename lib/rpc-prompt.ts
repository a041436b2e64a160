// The prompt for RPC clients: the same decision as the overlay, asked through pi's select, editor
// and input dialogs, which pi turns into extension_ui_request messages for the client.
import type { ExtensionUIContext, ExtensionUIDialogOptions } from "@earendil-works/pi-coding-agent";
import * as present from "./presenter.ts";
import type { PromptOutcome, PromptRequest } from "./prompt-overlay.ts";
import { fromVisible, toVisible } from "./visible.ts";

export type Dialogs = Pick<ExtensionUIContext, "select" | "editor" | "input" | "notify">;

type RpcChoice = "authorize" | "edit" | "abort" | "authorizeWithNote" | "abortWithNote" | "dontAsk" | "grant" | "script";

/** Each choice's text in the select, from the hook's labels. */
const CHOICE_TEXT: Record<RpcChoice, (labels: PromptRequest["labels"], grantRule: string) => string> = {
  authorize: (labels) => labels.authorize,
  edit: (labels) => present.rpcChoice.edit(labels.edit),
  abort: (labels) => labels.abort,
  authorizeWithNote: (labels) => present.rpcChoice.withNote(labels.authorize),
  abortWithNote: (labels) => present.rpcChoice.withNote(labels.abort),
  dontAsk: (labels) => present.rpcChoice.dontAsk(labels.authorize, labels.dontAsk),
  grant: (labels, grantRule) => present.rpcChoice.grant(labels.authorize, grantRule),
  script: () => present.rpcChoice.script,
};

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
  const { labels } = request;
  const visible = (text: string | undefined) => (text === undefined ? undefined : toVisible(text));
  const title = present.rpcPromptTitle({
    hookName: toVisible(request.hookName),
    origin: visible(request.origin),
    description: visible(request.description),
    guidance: visible(request.guidance),
    toolName: toVisible(request.toolName),
    detail: toVisible(request.detail),
  });
  const choices: RpcChoice[] = request.editable
    ? ["authorize", "edit", "abort", "authorizeWithNote", "abortWithNote", "dontAsk"]
    : ["authorize", "abort", "authorizeWithNote", "abortWithNote", "dontAsk"];
  const { grantRule } = request;
  const scopes = grantRule === undefined ? [] : (request.grantScopes ?? []);
  if (scopes.length > 0) choices.push("grant");
  if (request.script !== undefined) choices.push("script");
  const options = choices.map((choice, index) =>
    present.rpcChoice.numbered(index, toVisible(CHOICE_TEXT[choice](labels, grantRule ?? ""))),
  );
  const scopeOptions = scopes.map((scope, index) => present.rpcChoice.numbered(index, present.GRANT_SCOPE_WORDS[scope]));
  const dialog = (): ExtensionUIDialogOptions => {
    const timeout = remainingMs();
    return timeout === undefined ? { signal } : { signal, timeout: Math.max(1, timeout) };
  };
  const note = async (label: string) => {
    const text = await ui.input(present.rpcNoteTitle(toVisible(label)), undefined, dialog());
    return text === undefined ? undefined : fromVisible(text).trim();
  };

  for (;;) {
    const picked = await ui.select(title, options, dialog());
    if (signal.aborted) return undefined;
    const choice = choices[options.indexOf(picked ?? "")];
    switch (choice) {
      case undefined:
      case "abort":
        return { kind: "abort" };
      case "authorize":
        return { kind: "authorize" };
      case "dontAsk":
        return { kind: "authorize", dontAskAgain: true };
      case "grant": {
        const title = present.rpcGrantTitle(toVisible(request.hookName), toVisible(grantRule ?? ""));
        const where = await ui.select(title, scopeOptions, dialog());
        if (signal.aborted) return undefined;
        const scope = scopes[scopeOptions.indexOf(where ?? "")];
        if (scope === undefined || grantRule === undefined) continue;
        return { kind: "authorize", grant: { rule: grantRule, scope } };
      }
      case "script": {
        const title = present.rpcScriptTitle(toVisible(request.hookName), toVisible(request.script ?? ""));
        await ui.select(title, [present.RPC_BACK], dialog());
        if (signal.aborted) return undefined;
        continue;
      }
      case "authorizeWithNote":
      case "abortWithNote": {
        const kind = choice === "authorizeWithNote" ? "authorize" : "abort";
        const text = await note(labels[kind]);
        if (signal.aborted) return undefined;
        if (text === undefined) continue;
        return text === "" ? { kind } : { kind, note: text };
      }
      case "edit": {
        const visibleOriginal = toVisible(request.detail);
        const edited = await untilAborted(
          ui.editor(present.rpcEditorTitle(toVisible(request.hookName)), visibleOriginal),
          signal,
        );
        if (signal.aborted) return undefined;
        if (edited === undefined) continue;
        if (edited.trim() === "") {
          ui.notify(present.EMPTY_COMMAND_WARNING, "warning");
          continue;
        }
        const text = await note(labels.edit);
        if (signal.aborted) return undefined;
        if (text === undefined) continue;
        const withNote = text === "" ? {} : { note: text };
        return edited === visibleOriginal
          ? { kind: "authorize", ...withNote }
          : { kind: "edit", command: fromVisible(edited), ...withNote };
      }
      default:
        choice satisfies never;
        return { kind: "abort" };
    }
  }
}

/** The promise's value, or undefined as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
