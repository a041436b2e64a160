import { type Component, matchesKey, type TUI } from "@earendil-works/pi-tui";
import { Frame, innerWidth, wrap } from "./frame.ts";
import type { HeldGrant } from "./grants.ts";
import { KEY, type KeyMatcher, keyNames } from "./keys.ts";
import { cycle, hintRows, terminalRows } from "./layout.ts";
import type { LoadError, LoadedHook } from "./loader.ts";
import {
  displayPath,
  enabledCount,
  FAILED_HEADING,
  FAILURE_DETAIL_INDENT,
  failureRow,
  GRANTS_HEADING,
  grantDetail,
  HOOK_DETAIL_INDENT,
  hookRow,
  NO_HOOKS,
  type Paint,
  PERMISSIONS_TITLE,
  permissionsHints,
  ruleRows,
  scrollMarker,
} from "./presenter.ts";
import { listedRules } from "./rules-file.ts";
import { clamp } from "./values.ts";
import { toVisible } from "./visible.ts";

/** What /permissions saves: each listed hook name, on (true) or off. */
export type Switches = ReadonlyMap<string, boolean>;

export interface PermissionsListEnvironment {
  tui: TUI;
  paint: Paint;
  keys: KeyMatcher;
  /** Paths under it read as ~/…. */
  home: string;
  /** Listed below the hooks, each ticked; one unticked is revoked on save. */
  grants?: readonly HeldGrant[];
  /** The switches and the grants to revoke on save; undefined when closed without saving. */
  done: (switches: Switches | undefined, revoked?: readonly HeldGrant[]) => void;
}

/**
 * The /permissions overlay: every loaded hook with a checkbox, then every grant, then every module
 * that failed to load. Changes stay in the list until the Approver saves them with enter.
 */
export class PermissionsList implements Component {
  #selected = 0;
  readonly #enabled: boolean[];
  readonly #grants: readonly HeldGrant[];
  /** Per grant: still ticked (kept). */
  readonly #kept: boolean[];
  #finished = false;

  readonly #border: Frame;
  readonly #hooks: readonly LoadedHook[];
  readonly #failures: readonly LoadError[];
  readonly #env: PermissionsListEnvironment;

  constructor(
    hooks: readonly LoadedHook[],
    failures: readonly LoadError[],
    isEnabled: (name: string) => boolean,
    env: PermissionsListEnvironment,
  ) {
    this.#hooks = hooks;
    this.#failures = failures;
    this.#env = env;
    this.#enabled = hooks.map((hook) => isEnabled(hook.name));
    this.#grants = env.grants ?? [];
    this.#kept = this.#grants.map(() => true);
    this.#border = new Frame(env.paint);
  }

  handleInput(data: string): void {
    if (this.#finished) return;
    const pressed = (id: string) => this.#env.keys.matches(data, id);
    if (pressed(KEY.cancel)) return this.#finish(undefined);
    if (pressed(KEY.confirm)) return this.#finish(this.#switches(), this.#revoked());
    if (pressed(KEY.up) || matchesKey(data, "k")) this.#move(-1);
    else if (pressed(KEY.down) || matchesKey(data, "j")) this.#move(1);
    else if (matchesKey(data, "space")) this.#toggle(this.#selected);
    else if (matchesKey(data, "g")) this.#toggleAll();
    else return;
    this.#env.tui.requestRender();
  }

  render(width: number): string[] {
    const inner = innerWidth(width);
    const { paint } = this.#env;
    const on = this.#enabled.filter(Boolean).length;
    const title = paint.fg("accent", paint.bold(PERMISSIONS_TITLE));
    const header = [this.#hooks.length ? `${title}  ${paint.fg("dim", enabledCount(on, this.#hooks.length))}` : title, ""];
    const footer = ["", ...hintRows(permissionsHints(keyNames(this.#env.keys)), inner, paint)];
    const [lines, focus] = this.#listLines(inner);
    const room = terminalRows(this.#env.tui) - 2 - header.length - footer.length;
    return this.#border.draw([...header, ...this.#window(lines, room, focus), ...footer], width);
  }

  /** Everything but the frame is drawn afresh on each render; the frame also checks its colours itself. */
  invalidate(): void {
    this.#border.invalidate();
  }

  /** The rows that can be selected: the hooks, then the grants. */
  get #rowCount(): number {
    return this.#hooks.length + this.#grants.length;
  }

  #move(step: number): void {
    if (this.#rowCount > 0) this.#selected = cycle(this.#selected, step, this.#rowCount);
  }

  /** Hooks sharing a name are one switch: enablement is keyed by name. A grant row ticks its grant. */
  #toggle(index: number): void {
    const grant = index - this.#hooks.length;
    if (grant >= 0 && grant < this.#kept.length) this.#kept[grant] = !this.#kept[grant];
    const hook = this.#hooks[index];
    if (!hook) return;
    const on = !this.#enabled[index];
    this.#hooks.forEach((other, at) => {
      if (other.name === hook.name) this.#enabled[at] = on;
    });
  }

  /** The same rule as the toggle-all shortcut: all off while any is on, otherwise all on. */
  #toggleAll(): void {
    this.#enabled.fill(!this.#enabled.some(Boolean));
  }

  #switches(): Switches {
    return new Map(this.#hooks.map((hook, index) => [hook.name, this.#enabled[index] ?? true]));
  }

  #revoked(): HeldGrant[] {
    return this.#grants.filter((_grant, index) => !this.#kept[index]);
  }

  /** The hooks, then the failures; `focus` is the line range that must stay in view. */
  #listLines(inner: number): [lines: string[], focus: { start: number; end: number }] {
    const { paint, home } = this.#env;
    const lines: string[] = [];
    /** Detail under a row: indented, wrapped to fit, each line dim when `dim`. */
    const detail = (text: string, indent: string, dim = false) => {
      for (const line of wrap(toVisible(text), inner - indent.length)) lines.push(indent + (dim ? paint.fg("dim", line) : line));
    };
    let focus = { start: 0, end: 0 };
    /** A row with a checkbox, accented when selected, and `details` under it; the selected one is the focus. */
    const checkbox = (index: number, label: string, on: boolean, after: string, details: () => void) => {
      const start = lines.length;
      const selected = index === this.#selected;
      const row = toVisible(hookRow(label, on, selected));
      lines.push(...wrap(`${selected ? paint.fg("accent", row) : row}${after}`, inner));
      details();
      if (selected) focus = { start, end: lines.length };
    };
    if (!this.#hooks.length) lines.push(NO_HOOKS);
    this.#hooks.forEach((hook, index) => {
      checkbox(index, hook.name, this.#enabled[index] ?? true, paint.fg("dim", `  ${hook.scope}`), () => {
        if (hook.description?.trim()) detail(hook.description, HOOK_DETAIL_INDENT);
        for (const row of hook.rules ? ruleRows(listedRules(hook.rules)) : []) detail(row, HOOK_DETAIL_INDENT);
        lines.push(HOOK_DETAIL_INDENT + paint.fg("dim", toVisible(displayPath(hook.source, home))));
      });
    });
    if (this.#grants.length) lines.push("", paint.bold(GRANTS_HEADING));
    this.#grants.forEach((grant, index) => {
      const kept = this.#kept[index] ?? true;
      checkbox(this.#hooks.length + index, grant.rule, kept, "", () => {
        const file = grant.scope === "branch" ? undefined : displayPath(grant.file, home);
        detail(grantDetail(grant.scope, file, !kept), HOOK_DETAIL_INDENT, true);
      });
    });
    if (this.#failures.length) {
      lines.push("", paint.fg("error", FAILED_HEADING));
      for (const { file, error } of this.#failures) {
        lines.push(paint.fg("error", toVisible(failureRow(displayPath(file, home)))));
        detail(error, FAILURE_DETAIL_INDENT, true);
      }
    }
    // The failures are seen by moving to the last row (or at once, when there are no rows).
    if (this.#rowCount === 0 || this.#selected === this.#rowCount - 1) focus.end = lines.length;
    return [lines, focus];
  }

  /**
   * Up to `room` lines with the focus in view; markers say how much is above and below. As in
   * pi-tui's SelectList, the window follows from the selection alone: the focus in the middle, or
   * from its start when it is taller than the window.
   */
  #window(lines: string[], room: number, focus: { start: number; end: number }): string[] {
    const rows = Math.max(3, room);
    if (lines.length <= rows) return lines;
    const visible = rows - 2;
    const size = focus.end - focus.start;
    const start = size >= visible ? focus.start : focus.start - Math.floor((visible - size) / 2);
    const above = clamp(start, lines.length - visible);
    const below = lines.length - above - visible;
    const { paint } = this.#env;
    return [
      paint.fg("dim", above > 0 ? scrollMarker("up", above) : ""),
      ...lines.slice(above, above + visible),
      paint.fg("dim", below > 0 ? scrollMarker("down", below) : ""),
    ];
  }

  #finish(switches: Switches | undefined, revoked?: readonly HeldGrant[]): void {
    this.#finished = true;
    this.#env.done(switches, revoked);
  }
}
