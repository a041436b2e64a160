import { describe, expect, test } from "bun:test";
import type { LoadError, LoadedHook } from "../lib/loader.ts";
import { PermissionsList, type Switches } from "../lib/permissions-overlay.ts";
import { type Paint, plain } from "../lib/presenter.ts";
import { fakeTui, KEYS, keybindings, tagged } from "./support/prompt-harness.ts";

const HOME = "/home/u";
const USER_DIR = `${HOME}/.pi/agent/permissions`;

function hook(name: string, overrides: Partial<LoadedHook> = {}): LoadedHook {
  return {
    name,
    description: `Asks before ${name}.`,
    handler: () => undefined,
    scope: "user",
    source: `${USER_DIR}/git.ts`,
    permissionRoot: USER_DIR,
    ...overrides,
  };
}

const HOOKS = [
  hook("git add"),
  hook("git commit"),
  hook("rm -rf", { scope: "project", source: "/work/app/.pi/permissions/rm.ts", description: undefined }),
];

function openList(
  options: {
    hooks?: LoadedHook[];
    failures?: LoadError[];
    disabled?: string[];
    rows?: number;
    width?: number;
    paint?: Paint;
    keys?: ReturnType<typeof keybindings>;
  } = {},
) {
  const { tui, calls } = fakeTui(options.rows ?? 40);
  const results: (Switches | undefined)[] = [];
  const disabled = new Set(options.disabled ?? []);
  const list = new PermissionsList(options.hooks ?? HOOKS, options.failures ?? [], (name) => !disabled.has(name), {
    tui,
    paint: options.paint ?? plain,
    keys: options.keys ?? keybindings(),
    home: HOME,
    done: (switches) => results.push(switches),
  });
  const width = options.width ?? 80;
  return {
    list,
    calls,
    results,
    press(...keys: string[]) {
      for (const key of keys) list.handleInput(key);
    },
    lines(w = width) {
      return list.render(w);
    },
    /** Rendered lines without the border and without trailing spaces. */
    body(w = width) {
      return list
        .render(w)
        .slice(1, -1)
        .map((line) => line.slice(2, -2).trimEnd());
    },
    rows() {
      return this.body().filter((line) => /^[→ ] \[[x ]\] /.test(line));
    },
  };
}

describe("the list: anatomy", () => {
  test("every hook with its state, scope, description and source; then the hints", () => {
    expect(openList({ disabled: ["git commit"] }).body()).toEqual([
      "Permission hooks  2 of 3 on",
      "",
      "→ [x] git add  user",
      "      Asks before git add.",
      "      ~/.pi/agent/permissions/git.ts",
      "  [ ] git commit  user",
      "      Asks before git commit.",
      "      ~/.pi/agent/permissions/git.ts",
      "  [x] rm -rf  project",
      "      /work/app/.pi/permissions/rm.ts",
      "",
      "↑↓ move  space toggle  g toggle all  enter save  esc close",
    ]);
  });

  test("modules that failed to load follow the hooks, with their error, and can't be selected", () => {
    const failures = [
      { file: `${USER_DIR}/b-throws.js`, error: "kaput at import" },
      { file: `${USER_DIR}/c-no-default.js`, error: "its default export is not a function" },
    ];
    const list = openList({ hooks: [hook("git add")], failures });
    expect(list.body()).toEqual([
      "Permission hooks  1 of 1 on",
      "",
      "→ [x] git add  user",
      "      Asks before git add.",
      "      ~/.pi/agent/permissions/git.ts",
      "",
      "Failed to load",
      "  ✗ ~/.pi/agent/permissions/b-throws.js",
      "    kaput at import",
      "  ✗ ~/.pi/agent/permissions/c-no-default.js",
      "    its default export is not a function",
      "",
      "↑↓ move  space toggle  g toggle all  enter save  esc close",
    ]);
    list.press(KEYS.down, KEYS.down, " ", KEYS.enter);
    expect(list.results).toEqual([new Map([["git add", false]])]);
  });

  test("no hooks: says so, and still lists the failures", () => {
    const list = openList({ hooks: [], failures: [{ file: "/srv/p/x.ts", error: "Unexpected end of file" }] });
    expect(list.body()).toEqual([
      "Permission hooks",
      "",
      "No permission hooks are loaded.",
      "",
      "Failed to load",
      "  ✗ /srv/p/x.ts",
      "    Unexpected end of file",
      "",
      "↑↓ move  space toggle  g toggle all  enter save  esc close",
    ]);
    list.press(KEYS.down, " ", "g", KEYS.enter);
    expect(list.results).toEqual([new Map()]);
  });

  test("the selected row is in the accent colour, scope and source dim, failures in the error colour", () => {
    const text = openList({ paint: tagged, failures: [{ file: "/x.ts", error: "boom" }] })
      .lines()
      .join("\n");
    expect(text).toContain("<accent>→ [x] git add</accent><dim>  user</dim>");
    expect(text).toContain("  [x] git commit<dim>  user</dim>");
    expect(text).toContain("<dim>~/.pi/agent/permissions/git.ts</dim>");
    expect(text).toContain("<error>  ✗ /x.ts</error>");
    expect(text).toContain("<dim>boom</dim>");
  });

  test("control characters in names, descriptions and errors are shown, never sent", () => {
    const list = openList({
      hooks: [hook("evil\x1b[2J", { description: "line\u202Etwo" })],
      failures: [{ file: "/x.ts", error: "bad\x07bell" }],
    });
    const text = list.lines().join("\n");
    expect(text).not.toContain("\x1b[2J");
    expect(text).not.toContain("\u202E");
    expect(text).not.toContain("\x07");
    expect(list.body()).toContain("→ [x] evil⟨ESC⟩[2J  user");
  });

  test("every line is exactly the given width, down to tiny terminals", () => {
    const failures = [{ file: `${USER_DIR}/a-very-long-module-name-that-goes-on.ts`, error: "x ".repeat(80) }];
    for (const width of [4, 10, 20, 33, 80, 200]) {
      for (const line of openList({ failures }).lines(width)) expect(Bun.stringWidth(line)).toBe(width);
    }
  });
});

describe("the list: keys", () => {
  const selected = (list: ReturnType<typeof openList>) => list.rows().find((line) => line.startsWith("→"));

  test("↓/j and ↑/k move, wrapping around", () => {
    const list = openList();
    list.press(KEYS.down);
    expect(selected(list)).toBe("→ [x] git commit  user");
    list.press("j");
    expect(selected(list)).toBe("→ [x] rm -rf  project");
    list.press("j");
    expect(selected(list)).toBe("→ [x] git add  user");
    list.press("k");
    expect(selected(list)).toBe("→ [x] rm -rf  project");
    list.press(KEYS.up);
    expect(selected(list)).toBe("→ [x] git commit  user");
  });

  test("space toggles the selected hook, and the count follows", () => {
    const list = openList();
    list.press(KEYS.down, " ");
    expect(list.rows()).toEqual(["  [x] git add  user", "→ [ ] git commit  user", "  [x] rm -rf  project"]);
    expect(list.body()[0]).toBe("Permission hooks  2 of 3 on");
    list.press(" ");
    expect(list.body()[0]).toBe("Permission hooks  3 of 3 on");
  });

  test("g: all off while any is on; all on when none is", () => {
    const list = openList({ disabled: ["git add"] });
    list.press("g");
    expect(list.rows().map((row) => row.slice(2, 5))).toEqual(["[ ]", "[ ]", "[ ]"]);
    list.press("g");
    expect(list.rows().map((row) => row.slice(2, 5))).toEqual(["[x]", "[x]", "[x]"]);
  });

  test("enter saves every listed hook's switch", () => {
    const list = openList({ disabled: ["rm -rf"] });
    list.press(" ", KEYS.enter);
    expect(list.results).toEqual([
      new Map([
        ["git add", false],
        ["git commit", true],
        ["rm -rf", false],
      ]),
    ]);
  });

  test("esc closes without saving, and so does ctrl+c", () => {
    const esc = openList();
    esc.press(" ", "g", KEYS.esc);
    expect(esc.results).toEqual([undefined]);
    const ctrlC = openList();
    ctrlC.press(" ", KEYS.ctrlC);
    expect(ctrlC.results).toEqual([undefined]);
  });

  test("nothing happens after closing", () => {
    const list = openList();
    list.press(KEYS.enter, " ", KEYS.enter, KEYS.esc);
    expect(list.results).toHaveLength(1);
  });

  test("other keys do nothing and don't re-render", () => {
    const list = openList();
    list.press("x", "1", KEYS.tab);
    expect(list.calls).toEqual([]);
    expect(list.results).toEqual([]);
    list.press(" ");
    expect(list.calls).toEqual(["render"]);
  });

  test("hooks sharing a name are one switch", () => {
    const list = openList({ hooks: [hook("dup"), hook("dup", { source: `${USER_DIR}/other.ts` })] });
    list.press(" ");
    expect(list.rows()).toEqual(["→ [ ] dup  user", "  [ ] dup  user"]);
    list.press(KEYS.enter);
    expect(list.results).toEqual([new Map([["dup", false]])]);
  });

  test("the user's remapped keys are honoured; the hints show them", () => {
    const keys = keybindings({ "tui.select.down": "ctrl+n", "tui.select.confirm": "ctrl+o", "tui.select.cancel": "ctrl+q" });
    const list = openList({ keys });
    expect(list.body().at(-1)).toBe("↑/ctrl+n move  space toggle  g toggle all  ctrl+o save  ctrl+q close");
    list.press("\x0e", " ", KEYS.esc, KEYS.enter);
    expect(list.results).toEqual([]);
    list.press("\x0f");
    expect(list.results).toEqual([
      new Map([
        ["git add", true],
        ["git commit", false],
        ["rm -rf", true],
      ]),
    ]);
  });
});

describe("the list: many hooks scroll", () => {
  const many = Array.from({ length: 30 }, (_, i) => hook(`hook ${i + 1}`));

  test("the list fits the terminal, with markers for what is above and below", () => {
    const list = openList({ hooks: many, rows: 24 });
    expect(list.lines().length).toBeLessThanOrEqual(24);
    const body = list.body();
    expect(body).toContain("→ [x] hook 1  user");
    expect(body.some((line) => /^↓ \d+ more lines$/.test(line))).toBe(true);
  });

  test("the selected hook stays in view; the failures show at the last hook", () => {
    const list = openList({ hooks: many, rows: 24, failures: [{ file: "/x.ts", error: "boom" }] });
    list.press(...Array<string>(15).fill(KEYS.down));
    let body = list.body();
    expect(body).toContain("→ [x] hook 16  user");
    expect(body.some((line) => /^↑ \d+ more lines$/.test(line))).toBe(true);
    list.press(KEYS.up);
    expect(list.body()).toContain("→ [x] hook 15  user");
    list.press(...Array<string>(15).fill(KEYS.down));
    body = list.body();
    expect(body).toContain("→ [x] hook 30  user");
    expect(body).toContain("    boom");
    expect(list.lines().length).toBeLessThanOrEqual(24);
    list.press("j");
    expect(list.body()).toContain("→ [x] hook 1  user");
  });
});

describe("the list: a new theme shows at once", () => {
  test("the frame and every row are redrawn in the new colours, without invalidate()", () => {
    const theme = { name: "dark" };
    const paint: Paint = { fg: (tone, text) => `<${theme.name}:${tone}>${text}</>`, bold: (text) => `<b>${text}</b>` };
    const list = openList({ paint });
    expect(list.lines().join("\n")).toContain("<dark:border>╭");
    theme.name = "light";
    const text = list.lines().join("\n");
    expect(text).not.toContain("<dark:");
    expect(text).toContain("<light:border>╭");
    expect(text).toContain("<light:border>│</> <light:accent>→ [x] git add</>");
  });
});
