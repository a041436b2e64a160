import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { permissionsStatus } from "./presenter.ts";
import { latestStrings } from "./values.ts";

/** The custom session entry that records which hooks are off from there on down the branch. */
export const ENABLEMENT_ENTRY = "permission-hooks-enablement";
export interface EnablementRecord {
  disabled: string[];
}

const STATUS_KEY = "permission-hooks";

/**
 * Which hooks run, per session branch. Every change is appended to the session as a custom entry,
 * so resume, /tree, /fork and /reload find exactly the state of the branch they land on. Only the
 * names switched off are recorded: a hook seen for the first time is on.
 */
export class Enablement {
  #disabled = new Set<string>();
  #names: readonly string[] = [];
  readonly #pi: Pick<ExtensionAPI, "appendEntry">;

  constructor(pi: Pick<ExtensionAPI, "appendEntry">) {
    this.#pi = pi;
  }

  /** Takes the state of the branch the session is on now: its latest record wins; none means all on. */
  restore(ctx: ExtensionContext): void {
    this.#disabled = new Set(latestStrings<EnablementRecord>(ctx, ENABLEMENT_ENTRY, "disabled"));
    this.#showStatus(ctx);
  }

  /** The names of the hooks this session loaded, which the footer counts. */
  track(names: readonly string[], ctx: ExtensionContext): void {
    this.#names = names;
    this.#showStatus(ctx);
  }

  isEnabled(name: string): boolean {
    return !this.#disabled.has(name);
  }

  get allEnabled(): boolean {
    return this.#disabled.size === 0;
  }

  /** Switches hooks on (true) or off (false) and records the result; false when nothing changed. */
  apply(changes: ReadonlyMap<string, boolean>, ctx: ExtensionContext): boolean {
    if (![...changes].some(([name, enabled]) => this.isEnabled(name) !== enabled)) return false;
    for (const [name, enabled] of changes) {
      if (enabled) this.#disabled.delete(name);
      else this.#disabled.add(name);
    }
    this.#pi.appendEntry<EnablementRecord>(ENABLEMENT_ENTRY, { disabled: [...this.#disabled].sort() });
    this.#showStatus(ctx);
    return true;
  }

  /** Every hook off while any is on; otherwise every hook on. Returns whether they are on now. */
  toggleAll(ctx: ExtensionContext): boolean {
    const on = !this.#names.some((name) => this.isEnabled(name));
    this.apply(new Map(this.#names.map((name) => [name, on])), ctx);
    return on;
  }

  #showStatus(ctx: ExtensionContext): void {
    try {
      const enabled = this.#names.filter((name) => this.isEnabled(name));
      ctx.ui.setStatus(STATUS_KEY, permissionsStatus(enabled.length, this.#names.length));
    } catch {
      // The session this status was for has been replaced (a stale ctx throws); its successor shows its own.
    }
  }
}
