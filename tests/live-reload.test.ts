// Gatekeeper.reload: what a change in a permission folder does to the hooks (the watcher is tests/watch.test.ts).
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Enablement } from "../lib/enablement.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import { loadPermissionModules } from "../lib/loader.ts";
import * as present from "../lib/presenter.ts";
import { FolderWatch, SETTLE_MS } from "../lib/watch.ts";
import { bashCall, fakeApprover, fakeSession, useAgentDir } from "./support/fake-session.ts";
import { manualTimers } from "./support/manual-timers.ts";

const blocking = (name: string, reason: string) =>
  `export default (api) => api.onToolUse({ name: ${JSON.stringify(name)}, handler: () => api.block(${JSON.stringify(reason)}) });\n`;
const asking = (name: string) =>
  `export default (api) => api.onToolUse({ name: ${JSON.stringify(name)}, handler: () => api.request() });\n`;
const BROKEN = "export default (api) => {\n";

const AGENT_DIR = useAgentDir({});
const PERMISSIONS = join(AGENT_DIR, "permissions");

let session: ReturnType<typeof fakeSession>;
let approver: ReturnType<typeof fakeApprover>;
let gatekeeper: Gatekeeper;
let count = 0;

function save(name: string, source: string): string {
  const file = join(PERMISSIONS, name);
  writeFileSync(file, source);
  return file;
}

beforeEach(() => {
  rmSync(PERMISSIONS, { recursive: true, force: true });
  mkdirSync(PERMISSIONS, { recursive: true });
  session = fakeSession();
  approver = fakeApprover();
  gatekeeper = new Gatekeeper(new Enablement({ appendEntry: () => {} }), approver.show);
});

/** Each module under a fresh name (the loader's import cache is per path), loaded as at session start. */
async function start(files: Record<string, string>): Promise<Record<string, string>> {
  const paths: Record<string, string> = {};
  for (const [name, source] of Object.entries(files)) paths[name] = save(`${++count}-${name}.js`, source);
  gatekeeper.load(session.ctx);
  await gatekeeper.loaded();
  return paths;
}

const call = () => gatekeeper.onToolCall(bashCall(`c${++count}`, "ls"), session.ctx);

describe("a change reloads the hooks for the next tool call", () => {
  test("an edited module decides the next call", async () => {
    const { gate } = await start({ gate: blocking("Gate", "before") });
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "before") });
    writeFileSync(gate!, blocking("Gate", "after"));
    await gatekeeper.reload(session.ctx, new Set([gate!]));
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "after") });
    expect(session.notices).toEqual([]);
  });

  test("a module added or deleted is there, or gone, at the next call", async () => {
    await start({});
    expect(await call()).toBeUndefined();
    const added = save("added.js", blocking("Added", "new"));
    await gatekeeper.reload(session.ctx, new Set([added]));
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Added", "new") });
    rmSync(added);
    await gatekeeper.reload(session.ctx, new Set([added]));
    expect(await call()).toBeUndefined();
  });

  test("a broken save is told once, with file and reason, and the previous hooks go on gating until it is fixed", async () => {
    const { gate, other } = await start({ gate: blocking("Gate", "v1"), other: asking("Other") });
    writeFileSync(gate!, BROKEN);
    await gatekeeper.reload(session.ctx, new Set([gate!]));
    const { errors } = await gatekeeper.loaded();
    expect(errors.map((error) => error.file)).toEqual([gate!]);
    expect(session.notices).toEqual([present.notifyLoadErrorKept(gate!, errors[0]!.error)]);
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "v1") });

    // Another file's change doesn't tell it again; the file's next broken save does.
    writeFileSync(other!, asking("Other again"));
    await gatekeeper.reload(session.ctx, new Set([other!]));
    expect(session.notices).toHaveLength(1);
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "v1") });
    writeFileSync(gate!, `${BROKEN}\n`);
    await gatekeeper.reload(session.ctx, new Set([gate!]));
    expect(session.notices).toHaveLength(2);

    writeFileSync(gate!, blocking("Gate", "v2"));
    await gatekeeper.reload(session.ctx, new Set([gate!]));
    expect((await gatekeeper.loaded()).errors).toEqual([]);
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "v2") });
    expect(session.notices).toHaveLength(2);
  });

  test("a module broken from the start has nothing to keep: the plain load error", async () => {
    const { bad } = await start({ bad: BROKEN });
    const [error] = (await gatekeeper.loaded()).errors;
    expect(session.notices).toEqual([present.notifyLoadError(bad!, error!.error)]);
    await gatekeeper.reload(session.ctx, new Set([bad!]));
    expect(session.notices).toEqual([present.notifyLoadError(bad!, error!.error), present.notifyLoadError(bad!, error!.error)]);
  });

  test("never while a prompt is open: the prompt's call keeps its hooks, the reload lands once it is answered", async () => {
    const { gate } = await start({ gate: asking("Gate") });
    const asked = call();
    const prompt = await approver.next();
    writeFileSync(gate!, blocking("Gate", "reloaded"));
    let reloaded = false;
    const reload = gatekeeper.reload(session.ctx, new Set([gate!])).then(() => {
      reloaded = true;
    });
    // The same reload by a gatekeeper with no prompt open, started later, is done: an undeferred one would be too.
    const other = new Gatekeeper(new Enablement({ appendEntry: () => {} }), approver.show);
    other.load(session.ctx);
    await other.loaded();
    await other.reload(session.ctx, new Set([gate!]));
    expect(reloaded).toBe(false);
    prompt.answer({ kind: "authorize" });
    expect(await asked).toBeUndefined();
    await reload;
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "reloaded") });
  });
});

interface HeldImport {
  file: string;
  release(): void;
}

/**
 * The gatekeeper, afresh, with an importAfresh that holds each import until the test releases it: a
 * load in flight stays in flight.
 */
function heldImports() {
  const asked: HeldImport[] = [];
  const waiters: ((held: HeldImport) => void)[] = [];
  let taken = 0;
  const importAfresh = (file: string) => {
    const copy = asked.length;
    return new Promise<void>((release) => {
      asked.push({ file, release });
      waiters.shift()?.(asked[copy]!);
    }).then(() => import(`${file}?held=${copy}`));
  };
  /** The next import asked for, in order: at once if it already is. */
  const next = () => {
    const held = asked[taken++];
    return held ? Promise.resolve(held) : new Promise<HeldImport>((resolve) => waiters.push(resolve));
  };
  gatekeeper = new Gatekeeper(new Enablement({ appendEntry: () => {} }), approver.show, undefined, undefined, importAfresh);
  return { next, files: () => asked.map((held) => held.file) };
}

describe("reloads run one at a time; changes that arrive meanwhile join the next", () => {
  test("two changes queued behind an open prompt are one load once it is answered: a broken save is told once", async () => {
    const imports = heldImports();
    const { gate, other } = await start({ gate: asking("Gate"), other: blocking("Other", "v1") });
    const asked = call();
    const prompt = await approver.next();
    writeFileSync(gate!, BROKEN);
    const first = gatekeeper.reload(session.ctx, new Set([gate!]));
    writeFileSync(other!, blocking("Other", "v2"));
    const second = gatekeeper.reload(session.ctx, new Set([other!]));
    prompt.answer({ kind: "authorize" });
    expect(await asked).toBeUndefined();
    for (let loaded = 0; loaded < 2; loaded++) (await imports.next()).release();
    await Promise.all([first, second]);

    expect(imports.files()).toEqual([gate!, other!]);
    const { errors } = await gatekeeper.loaded();
    expect(session.notices).toEqual([present.notifyLoadErrorKept(gate!, errors[0]!.error)]);
    const again = call();
    const kept = await approver.next();
    expect(kept.request.nameOfHook).toBe("Gate");
    kept.answer({ kind: "authorize" });
    expect(await again).toBeUndefined();
  });

  test("a change during a load waits for it; the changes that arrive meanwhile are one load after it", async () => {
    const imports = heldImports();
    const { first, second } = await start({ first: blocking("First", "v1"), second: blocking("Second", "v1") });
    const running = gatekeeper.reload(session.ctx, new Set([first!]));
    const held = await imports.next();
    expect(held.file).toBe(first!);
    const queued = [gatekeeper.reload(session.ctx, new Set([second!])), gatekeeper.reload(session.ctx, new Set([first!]))];
    held.release();
    (await imports.next()).release();
    await running;

    // Only now does the next load start; it sees the save made while it waited, and tells it once.
    const next = await imports.next();
    writeFileSync(second!, BROKEN);
    next.release();
    (await imports.next()).release();
    await Promise.all(queued);
    expect(imports.files()).toEqual([first!, second!, first!, second!]);
    const { errors } = await gatekeeper.loaded();
    expect(errors.map((error) => error.file)).toEqual([second!]);
    expect(session.notices).toEqual([present.notifyLoadErrorKept(second!, errors[0]!.error)]);
  });

  test("a session's load drops the reload still waiting: it read everything afresh", async () => {
    const imports = heldImports();
    const { gate } = await start({ gate: asking("Gate") });
    const asked = call();
    const prompt = await approver.next();
    writeFileSync(gate!, blocking("Gate", "after"));
    const reload = gatekeeper.reload(session.ctx, new Set([gate!]));
    gatekeeper.load(session.ctx);
    await gatekeeper.loaded();
    prompt.answer({ kind: "authorize" });
    await asked;
    await reload;
    expect(imports.files()).toEqual([]);
    expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Gate", "after") });
  });
  test("a session that ends drops the reload still waiting: nothing loads for it", async () => {
    const imports = heldImports();
    const { gate } = await start({ gate: asking("Gate") });
    const asked = call();
    await approver.next();
    const reload = gatekeeper.reload(session.ctx, new Set([gate!]));
    gatekeeper.close();
    expect(await asked).toEqual({ block: true, reason: present.agentAbort("Gate") });
    await reload;
    expect(imports.files()).toEqual([]);
  });
});

describe("a project's trust is decided once per project folder, not again with every reload", () => {
  /** A project whose permissions folder holds one module, and a session in it whose Approver answers `answer`. */
  function inProject(answer: boolean | Promise<boolean>) {
    const cwd = join(AGENT_DIR, `project-${++count}`);
    const folder = join(cwd, ".pi", "permissions");
    mkdirSync(folder, { recursive: true });
    const module = join(folder, "gate.js");
    writeFileSync(module, blocking("Project gate", "project"));
    const inside = fakeSession({ cwd });
    const questions: string[] = [];
    Object.assign(inside.ctx.ui, {
      confirm: (_title: string, message: string) => {
        questions.push(message);
        return Promise.resolve(answer);
      },
    });
    return { ctx: inside.ctx, notices: inside.notices, questions, folder, module };
  }

  /** A FolderWatch on fake folders and a clock the test moves, reloading the gatekeeper as index.ts does. */
  function watching(ctx: ReturnType<typeof inProject>["ctx"], folders: string[]) {
    const fire = new Map<string, (name: string | null) => void>();
    const clock = manualTimers();
    const reloads: Promise<void>[] = [];
    const watch = new FolderWatch(
      {
        watch: (dir, onEvent) => {
          fire.set(dir, onEvent);
          return { close: () => fire.delete(dir) };
        },
        identity: () => "always the same folder",
        links: () => [],
      },
      clock.timers,
      (changed) => reloads.push(gatekeeper.reload(ctx, changed)),
    );
    watch.watch(folders);
    /** A save of `name` in `dir`, settled and reloaded. */
    return async (dir: string, name: string) => {
      fire.get(dir)!(name);
      clock.advance(SETTLE_MS);
      await Promise.all(reloads);
    };
  }

  test("a no is not asked again when a module or grants.json is saved, and the skipped modules are told once", async () => {
    const project = inProject(false);
    gatekeeper.load(project.ctx);
    await gatekeeper.loaded();
    expect(project.questions).toEqual([present.projectTrustQuestion(project.folder)]);
    const skipped = [present.notifyProjectModulesSkipped(project.folder)];
    expect(project.notices).toEqual(skipped);

    const save = watching(project.ctx, [project.folder, PERMISSIONS]);
    writeFileSync(project.module, blocking("Project gate", "edited"));
    await save(project.folder, "gate.js");
    await save(project.folder, "grants.json");
    await save(PERMISSIONS, "grants.json");
    expect(project.questions).toHaveLength(1);
    expect(project.notices).toEqual(skipped);
    expect(await gatekeeper.onToolCall(bashCall("c", "ls"), project.ctx)).toBeUndefined();
  });

  test("a reload while the question is open waits for its answer, and doesn't ask again", async () => {
    let answer!: (trusted: boolean) => void;
    const project = inProject(new Promise((resolve) => (answer = resolve)));
    gatekeeper.load(project.ctx);
    const reload = gatekeeper.reload(project.ctx, new Set([project.module]));
    answer(true);
    await reload;
    expect(project.questions).toHaveLength(1);
    expect(project.notices).toEqual([]);
    expect(await gatekeeper.onToolCall(bashCall("c", "ls"), project.ctx)).toEqual({
      block: true,
      reason: present.agentHookBlock("Project gate", "project"),
    });
  });

  test("another project folder (a new cwd) is asked about anew", async () => {
    const first = inProject(false);
    gatekeeper.load(first.ctx);
    await gatekeeper.loaded();
    const second = inProject(false);
    gatekeeper.load(second.ctx);
    await gatekeeper.loaded();
    await gatekeeper.reload(second.ctx, new Set([second.module]));
    expect([first.questions, second.questions]).toEqual([
      [present.projectTrustQuestion(first.folder)],
      [present.projectTrustQuestion(second.folder)],
    ]);
    expect(second.notices).toEqual([present.notifyProjectModulesSkipped(second.folder)]);
  });
});

/** A gatekeeper whose importAfresh records each path it imports afresh, loaded as at session start; the paths. */
async function loadRecordingImports(): Promise<string[]> {
  const imported: string[] = [];
  const importAfresh = (path: string) => {
    imported.push(path);
    return import(`${path}?afresh=${imported.length}`);
  };
  gatekeeper = new Gatekeeper(new Enablement({ appendEntry: () => {} }), approver.show, undefined, undefined, importAfresh);
  gatekeeper.load(session.ctx);
  await gatekeeper.loaded();
  return imported;
}

test("a reload imports modules through the importAfresh it is given (pi's loader would return the first copy)", async () => {
  const file = save("afresh.js", blocking("Afresh", "first"));
  const imported = await loadRecordingImports();
  expect(imported).toEqual([]);
  writeFileSync(file, blocking("Afresh", "second"));
  await gatekeeper.reload(session.ctx, new Set([file]));
  expect(imported).toEqual([file]);
  expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Afresh", "second") });
});

test("under Bun, a module that is a link is imported afresh by its real path, the one pi's loader first imported", async () => {
  const target = join(AGENT_DIR, "linked-target.js");
  writeFileSync(target, blocking("Linked", "first"));
  const link = join(PERMISSIONS, "linked.js");
  symlinkSync(target, link);
  const imported = await loadRecordingImports();
  writeFileSync(target, blocking("Linked", "second"));
  await gatekeeper.reload(session.ctx, new Set([link]));
  expect(imported).toEqual([realpathSync(target)]);
  expect(await call()).toEqual({ block: true, reason: present.agentHookBlock("Linked", "second") });
});

test("a module that adds wrappers and then fails to load: the wrapper entries from before go on reading commands", async () => {
  const { wrap } = await start({
    wrap: "export default (api) => api.wrappers({ retry: { operands: 1 } });\n",
    rm: 'export default (api) => api.matchCommand({ name: "No rm", program: "rm", block: "no rm" });\n',
  });
  const retried = () => gatekeeper.onToolCall(bashCall(`c${++count}`, "retry 3 rm -rf /"), session.ctx);
  const blocked = { block: true, reason: present.agentHookBlock("No rm", "no rm") };
  expect(await retried()).toEqual(blocked);
  writeFileSync(wrap!, BROKEN);
  await gatekeeper.reload(session.ctx, new Set([wrap!]));
  expect(session.notices).toHaveLength(1);
  expect(session.notices[0]).toStartWith(`Permission module ${wrap} failed to load`);
  expect(await retried()).toEqual(blocked);
  await gatekeeper.reload(session.ctx, new Set([save("unrelated.js", asking("Unrelated"))]));
  expect(await retried()).toEqual(blocked);
});

test("loader: a file that fails keeps the hooks it had before, in its place", async () => {
  const first = save("a-first.js", asking("First"));
  const middle = save("b-middle.js", asking("Middle"));
  save("c-last.js", asking("Last"));
  const before = await loadPermissionModules({ user: PERMISSIONS });
  writeFileSync(middle, BROKEN);
  const reload = { previous: before.hooks };
  const after = await loadPermissionModules({ user: PERMISSIONS }, undefined, reload);
  expect(after.hooks.map((hook) => hook.name)).toEqual(["First", "Middle", "Last"]);
  expect(after.hooks[1]).toBe(before.hooks[1]!);
  expect(after.errors.map((error) => error.file)).toEqual([middle]);
  rmSync(first);
  expect((await loadPermissionModules({ user: PERMISSIONS }, undefined, reload)).hooks.map((hook) => hook.name)).toEqual([
    "Middle",
    "Last",
  ]);
});

test("the notice for a broken save whose previous version keeps gating", () => {
  expect(present.notifyLoadErrorKept("/u/permissions/gate.ts", "Unexpected end of file")).toBe(
    "Permission module /u/permissions/gate.ts failed to load: Unexpected end of file. Its previous version keeps gating until it loads.",
  );
});
