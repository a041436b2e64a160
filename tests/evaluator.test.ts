import { afterEach, describe, expect, jest, test } from "bun:test";
import type { Decision, Hook, HookInput } from "../lib/api.ts";
import { evaluate, HOOK_TIME_LIMIT_MS } from "../lib/evaluator.ts";
import type { LoadedHook } from "../lib/loader.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const USER_ROOT = "/home/u/.pi/agent/permissions";
const PROJECT_ROOT = "/work/proj/.pi/permissions";

function hook(name: string, handler: Hook["handler"], permissionRoot = USER_ROOT): LoadedHook {
  return { name, description: `${name} hook`, handler, scope: "user", source: `${permissionRoot}/${name}.ts`, permissionRoot };
}

const INPUT: Omit<HookInput, "permissionRoot"> = {
  cwd: "/work/proj",
  tool: normalizeToolInput("bash", { command: "git commit -m 'x'" }, "/work/proj"),
};

/** A hook that records it ran and returns nothing. */
function passing(name: string, log: string[]): LoadedHook {
  return hook(name, () => {
    log.push(name);
  });
}

/** Lets already-settled promise chains run, without relying on timers. */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe("order and the first decision", () => {
  test("no hooks: no verdict", async () => {
    expect(await evaluate([], INPUT)).toBeUndefined();
  });

  test("hooks with no opinion (undefined, void, null, false) pass on; all run, in order", async () => {
    const log: string[] = [];
    const hooks = [
      passing("a", log),
      hook("b", () => {
        log.push("b");
        return undefined;
      }),
      hook("c", () => {
        log.push("c");
        return null as unknown as undefined;
      }),
      hook("d", () => {
        log.push("d");
        // The `condition && api.request()` idiom.
        return false as unknown as undefined;
      }),
      passing("e", log),
    ];
    expect(await evaluate(hooks, INPUT)).toBeUndefined();
    expect(log).toEqual(["a", "b", "c", "d", "e"]);
  });

  test("the first request wins; later hooks do not run", async () => {
    const log: string[] = [];
    const asks = hook("asks", () => {
      log.push("asks");
      return { decision: "request", prompt: { guidance: "Check it." } };
    });
    const blocks = hook("blocks", () => {
      log.push("blocks");
      return { decision: "block", reason: "r" };
    });
    const hooks = [passing("quiet", log), asks, blocks];
    expect(await evaluate(hooks, INPUT)).toEqual({ kind: "request", hook: asks, prompt: { guidance: "Check it." } });
    expect(log).toEqual(["quiet", "asks"]);
  });

  test("the first block wins; later hooks do not run", async () => {
    const log: string[] = [];
    const blocks = hook("blocks", () => ({ decision: "block", reason: "Stage files yourself." }));
    const asks = hook("asks", () => {
      log.push("asks");
      return { decision: "request" };
    });
    expect(await evaluate([blocks, asks], INPUT)).toEqual({ kind: "block", hook: blocks, reason: "Stage files yourself." });
    expect(log).toEqual([]);
  });

  test("the verdict carries the very hook object", async () => {
    const h = hook("h", () => ({ decision: "block", reason: "r" }));
    const verdict = await evaluate([h], INPUT);
    expect(verdict?.hook).toBe(h);
  });
});

describe("request prompts", () => {
  test("the Author's prompt is passed as given", async () => {
    const prompt = { guidance: "g", highlight: /git\s+commit/, approveLabel: "Yes", editLabel: "Reword", rejectLabel: "No" };
    const verdict = await evaluate([hook("h", () => ({ decision: "request", prompt }))], INPUT);
    expect(verdict).toMatchObject({ kind: "request" });
    expect(verdict?.kind === "request" && verdict.prompt).toBe(prompt);
  });

  test("no prompt, or a prompt that is not an object, becomes an empty prompt", async () => {
    for (const prompt of [undefined, null, "guidance", 42]) {
      const h = hook("h", () => ({ decision: "request", prompt }) as unknown as Decision);
      expect(await evaluate([h], INPUT)).toEqual({ kind: "request", hook: h, prompt: {} });
    }
  });
});

describe("block reasons", () => {
  test("an empty, blank or missing reason becomes 'no reason given'", async () => {
    for (const reason of ["", "   ", undefined, null, 42, { text: "x" }]) {
      const h = hook("h", () => ({ decision: "block", reason }) as unknown as Decision);
      expect(await evaluate([h], INPUT)).toEqual({ kind: "block", hook: h, reason: "no reason given" });
    }
  });

  test("a reason is kept verbatim, multi-line included", async () => {
    const h = hook("h", () => ({ decision: "block", reason: "  line one\nline two " }));
    expect(await evaluate([h], INPUT)).toEqual({ kind: "block", hook: h, reason: "  line one\nline two " });
  });
});

describe("async hooks", () => {
  test("are awaited; an async pass moves on to the next hook", async () => {
    const log: string[] = [];
    const asks = hook("asks", async () => {
      log.push("asks");
      return { decision: "request" };
    });
    const hooks = [
      hook("slow pass", async () => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        log.push("slow pass");
      }),
      asks,
    ];
    expect(await evaluate(hooks, INPUT)).toEqual({ kind: "request", hook: asks, prompt: {} });
    expect(log).toEqual(["slow pass", "asks"]);
  });

  test("run one after another, never concurrently", async () => {
    const log: string[] = [];
    const step = (name: string, ms: number) =>
      hook(name, async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name} end`);
      });
    expect(await evaluate([step("a", 20), step("b", 1), step("c", 10)], INPUT)).toBeUndefined();
    expect(log).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
  });

  test("an async block wins like a sync one", async () => {
    const h = hook("h", async () => ({ decision: "block", reason: "later" }));
    expect(await evaluate([h, hook("never", () => ({ decision: "request" }))], INPUT)).toEqual({
      kind: "block",
      hook: h,
      reason: "later",
    });
  });

  test("a thenable that is not a Promise is awaited too", async () => {
    const h = hook("h", (() => ({
      // biome-ignore lint/suspicious/noThenProperty: the point of the test is a thenable
      then: (resolve: (value: Decision) => void) => resolve({ decision: "block", reason: "thenable" }),
    })) as unknown as Hook["handler"]);
    expect(await evaluate([h], INPUT)).toEqual({ kind: "block", hook: h, reason: "thenable" });
  });
});

describe("failing hooks gate the call, never pass it", () => {
  test("a throwing handler → failed with its message; later hooks do not run", async () => {
    const log: string[] = [];
    const throws = hook("throws", () => {
      throw new Error("x is not defined");
    });
    expect(await evaluate([throws, passing("after", log)], INPUT)).toEqual({
      kind: "failed",
      hook: throws,
      error: "x is not defined",
    });
    expect(log).toEqual([]);
  });

  test("an async handler that rejects → failed", async () => {
    const rejects = hook("rejects", async () => {
      await null;
      throw new TypeError("cannot read properties of undefined");
    });
    expect(await evaluate([rejects], INPUT)).toEqual({
      kind: "failed",
      hook: rejects,
      error: "cannot read properties of undefined",
    });
  });

  test("the error is one line: the first line of the message, else the error's name", async () => {
    const multi = hook("m", () => {
      throw new Error("first line\n    at stack-like detail");
    });
    expect(await evaluate([multi], INPUT)).toMatchObject({ kind: "failed", error: "first line" });
    const empty = hook("e", () => {
      throw new RangeError("");
    });
    expect(await evaluate([empty], INPUT)).toMatchObject({ kind: "failed", error: "RangeError" });
  });

  test("thrown non-errors are described, never rethrown", async () => {
    const cases: [unknown, string][] = [
      ["plain string", "plain string"],
      ["two\nlines", "two"],
      [42, "42"],
      [undefined, "undefined"],
      [null, "null"],
      [{ message: "not an Error" }, "[object Object]"],
      [Object.create(null), "[object Object]"],
    ];
    for (const [thrown, error] of cases) {
      const h = hook("h", () => {
        throw thrown;
      });
      expect(await evaluate([h], INPUT)).toEqual({ kind: "failed", hook: h, error });
    }
  });

  test("a throw after an earlier pass still fails the call", async () => {
    const log: string[] = [];
    const throws = hook("throws", () => {
      throw new Error("bad");
    });
    expect(await evaluate([passing("quiet", log), throws], INPUT)).toMatchObject({ kind: "failed", hook: throws });
    expect(log).toEqual(["quiet"]);
  });
});

describe("malformed decisions → failed", () => {
  const cases: [returned: unknown, error: string][] = [
    [{ decision: "maybe" }, 'returned {"decision":"maybe"}, not a decision'],
    [{ decision: "allow" }, 'returned {"decision":"allow"}, not a decision'],
    [{ decision: "REQUEST" }, 'returned {"decision":"REQUEST"}, not a decision'],
    ["request", 'returned "request", not a decision'],
    ["allow", 'returned "allow", not a decision'],
    [42, "returned 42, not a decision"],
    [0, "returned 0, not a decision"],
    [true, "returned true, not a decision"],
    ["", 'returned "", not a decision'],
    [{}, "returned {}, not a decision"],
    [[], "returned [], not a decision"],
    [[{ decision: "block", reason: "r" }], 'returned [{"decision":"block","reason":"r"}], not a decision'],
    [10n, "returned 10, not a decision"],
    [Symbol("s"), "returned Symbol(s), not a decision"],
  ];

  for (const [returned, error] of cases) {
    test(`${typeof returned === "symbol" ? "a symbol" : JSON.stringify(returned, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}`, async () => {
      const h = hook("h", () => returned as Decision);
      expect(await evaluate([h], INPUT)).toEqual({ kind: "failed", hook: h, error });
    });
  }

  test("an async malformed decision", async () => {
    const h = hook("h", async () => ({ decision: "maybe" }) as unknown as Decision);
    expect(await evaluate([h], INPUT)).toEqual({
      kind: "failed",
      hook: h,
      error: 'returned {"decision":"maybe"}, not a decision',
    });
  });

  test("a long value is cut to one short line", async () => {
    const h = hook("h", () => ({ decision: "maybe", padding: "x".repeat(500) }) as unknown as Decision);
    const verdict = await evaluate([h], INPUT);
    expect(verdict).toEqual({
      kind: "failed",
      hook: h,
      error: `returned ${'{"decision":"maybe","padding":"'}${"x".repeat(80 - 31)}, not a decision`,
    });
  });

  test("a returned function is named in one short line", async () => {
    const fn = function decide() {
      return 1;
    };
    const h = hook("h", () => fn as unknown as Decision);
    const verdict = await evaluate([h], INPUT);
    expect(verdict?.kind).toBe("failed");
    const error = verdict?.kind === "failed" ? verdict.error : "";
    expect(error.startsWith("returned function decide()")).toBe(true);
    expect(error.endsWith(", not a decision")).toBe(true);
    expect(error).not.toContain("\n");
  });

  test("a circular value", async () => {
    const value: Record<string, unknown> = { decision: "nope" };
    value.self = value;
    const h = hook("h", () => value as unknown as Decision);
    expect(await evaluate([h], INPUT)).toEqual({ kind: "failed", hook: h, error: "returned [object Object], not a decision" });
  });

  test("a circular null-prototype value does not make evaluate throw", async () => {
    const value = Object.create(null) as Record<string, unknown>;
    value.self = value;
    const h = hook("h", () => value as unknown as Decision);
    expect(await evaluate([h], INPUT)).toEqual({ kind: "failed", hook: h, error: "returned [object Object], not a decision" });
  });

  test("a decision whose fields throw when read does not make evaluate throw", async () => {
    const h = hook(
      "h",
      () =>
        ({
          get decision(): string {
            throw new Error("getter exploded");
          },
        }) as unknown as Decision,
    );
    expect(await evaluate([h], INPUT)).toEqual({ kind: "failed", hook: h, error: "getter exploded" });
  });
});

describe("what each hook receives", () => {
  test("cwd and tool as given, plus its own module's permissionRoot", async () => {
    const seen: HookInput[] = [];
    const record = (input: HookInput) => {
      seen.push(input);
    };
    const hooks = [hook("p", record, PROJECT_ROOT), hook("u", record, USER_ROOT), hook("p2", record, PROJECT_ROOT)];
    expect(await evaluate(hooks, INPUT)).toBeUndefined();
    expect(seen.map((input) => input.permissionRoot)).toEqual([PROJECT_ROOT, USER_ROOT, PROJECT_ROOT]);
    for (const input of seen) {
      expect(input.cwd).toBe("/work/proj");
      expect(input.tool).toBe(INPUT.tool);
    }
  });

  test("the caller's input object is not changed", async () => {
    const input = { ...INPUT };
    await evaluate([hook("h", () => undefined, PROJECT_ROOT)], input);
    expect(Object.keys(input).sort()).toEqual(["cwd", "tool"]);
  });

  test("each hook gets its own input object", async () => {
    const seen: HookInput[] = [];
    await evaluate(
      [
        hook("a", (input) => {
          seen.push(input);
        }),
        hook("b", (input) => {
          seen.push(input);
        }),
      ],
      INPUT,
    );
    expect(seen[0]).not.toBe(seen[1]);
  });
});

describe(`time limit (${HOOK_TIME_LIMIT_MS} ms), with fake timers`, () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test("the limit is 10 s", () => {
    expect(HOOK_TIME_LIMIT_MS).toBe(10_000);
  });

  test("a hook that never decides fails after the limit, not before", async () => {
    jest.useFakeTimers();
    const log: string[] = [];
    const stuck = hook("stuck", () => new Promise<undefined>(() => {}));
    let settled = false;
    const verdict = evaluate([stuck, passing("after", log)], INPUT).finally(() => {
      settled = true;
    });
    await flush();
    jest.advanceTimersByTime(HOOK_TIME_LIMIT_MS - 1);
    await flush();
    expect(settled).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await verdict).toEqual({ kind: "failed", hook: stuck, error: "did not decide within 10 s" });
    expect(log).toEqual([]);
  });

  test("a never-settling thenable fails after the limit too", async () => {
    jest.useFakeTimers();
    // biome-ignore lint/suspicious/noThenProperty: the point of the test is a thenable
    const stuck = hook("stuck", (() => ({ then() {} })) as unknown as Hook["handler"]);
    const verdict = evaluate([stuck], INPUT);
    await flush();
    jest.advanceTimersByTime(HOOK_TIME_LIMIT_MS);
    expect(await verdict).toEqual({ kind: "failed", hook: stuck, error: "did not decide within 10 s" });
  });

  test("a hook deciding just before the limit is heard", async () => {
    jest.useFakeTimers();
    const slow = hook(
      "slow",
      () =>
        new Promise<Decision>((resolve) =>
          setTimeout(() => resolve({ decision: "block", reason: "slow" }), HOOK_TIME_LIMIT_MS - 1),
        ),
    );
    const verdict = evaluate([slow], INPUT);
    await flush();
    jest.advanceTimersByTime(HOOK_TIME_LIMIT_MS - 1);
    expect(await verdict).toEqual({ kind: "block", hook: slow, reason: "slow" });
    expect(jest.getTimerCount()).toBe(0);
  });

  test("each hook has its own limit", async () => {
    jest.useFakeTimers();
    const almost = HOOK_TIME_LIMIT_MS - 1_000;
    const wait = (value: Decision | undefined) => () =>
      new Promise<Decision | undefined>((resolve) => setTimeout(() => resolve(value), almost));
    const second = hook("second", wait({ decision: "request" }));
    const verdict = evaluate([hook("first", wait(undefined)), second], INPUT);
    await flush();
    jest.advanceTimersByTime(almost);
    await flush();
    jest.advanceTimersByTime(almost);
    expect(await verdict).toEqual({ kind: "request", hook: second, prompt: {} });
  });

  test("a decided hook leaves no timer behind; a sync hook starts none", async () => {
    jest.useFakeTimers();
    expect(await evaluate([hook("async", async () => undefined)], INPUT)).toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
    expect(await evaluate([hook("sync", () => ({ decision: "request" }))], INPUT)).toMatchObject({ kind: "request" });
    expect(jest.getTimerCount()).toBe(0);
  });

  test("a hook that rejects after timing out does not surface later", async () => {
    jest.useFakeTimers();
    let reject: (error: Error) => void = () => {};
    const late = hook("late", () => new Promise<undefined>((_resolve, rejectLater) => (reject = rejectLater)));
    const verdict = evaluate([late], INPUT);
    await flush();
    jest.advanceTimersByTime(HOOK_TIME_LIMIT_MS);
    expect(await verdict).toMatchObject({ kind: "failed", error: "did not decide within 10 s" });
    reject(new Error("too late"));
    await flush();
  });
});
