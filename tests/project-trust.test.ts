import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { projectTrustQuestion, projectTrustTitle } from "../lib/presenter.ts";
import { projectModulesTrusted } from "../lib/project-trust.ts";

let root: string;
let agentDir: string;
let project: string;
let modules: string;
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "project-trust-"));
  agentDir = join(root, "agent");
  project = join(root, "project");
  modules = join(project, ".pi", "permissions");
  mkdirSync(agentDir);
  mkdirSync(modules, { recursive: true });
  process.env.PI_CODING_AGENT_DIR = agentDir;
});

afterEach(() => {
  process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  rmSync(root, { recursive: true, force: true });
});

/** A context whose Approver answers the trust question with `answer`, recording each question. */
function context(options: { piTrusts?: boolean; hasUI?: boolean; answer?: boolean } = {}) {
  const questions: [string, string][] = [];
  const ctx = {
    cwd: project,
    hasUI: options.hasUI ?? true,
    isProjectTrusted: () => options.piTrusts ?? true,
    ui: {
      confirm: async (title: string, message: string) => {
        questions.push([title, message]);
        return options.answer ?? false;
      },
    },
  } as unknown as ExtensionContext;
  return { ctx, questions };
}

function savedTrust(): Record<string, boolean> {
  try {
    return JSON.parse(readFileSync(join(agentDir, "trust.json"), "utf8"));
  } catch {
    return {};
  }
}

describe("who decides whether a project's permission modules load", () => {
  test("a project pi does not trust: never, and nobody is asked", async () => {
    const { ctx, questions } = context({ piTrusts: false, answer: true });
    expect(await projectModulesTrusted(ctx, modules)).toBe(false);
    expect(questions).toEqual([]);
  });

  test("a project with resources pi itself gates: pi's trust holds, nobody is asked again", async () => {
    mkdirSync(join(project, ".pi", "extensions"));
    const { ctx, questions } = context();
    expect(await projectModulesTrusted(ctx, modules)).toBe(true);
    expect(questions).toEqual([]);
  });

  test("a saved decision, either way, is taken without asking", async () => {
    for (const decision of [true, false]) {
      writeFileSync(join(agentDir, "trust.json"), JSON.stringify({ [project]: decision }));
      const { ctx, questions } = context({ answer: !decision });
      expect(await projectModulesTrusted(ctx, modules)).toBe(decision);
      expect(questions).toEqual([]);
    }
  });

  test('defaultProjectTrust "always" in the settings trusts without asking', async () => {
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
    const { ctx, questions } = context();
    expect(await projectModulesTrusted(ctx, modules)).toBe(true);
    expect(questions).toEqual([]);
    expect(savedTrust()).toEqual({});
  });

  test('defaultProjectTrust "never" declines without asking, as pi does for its own resources', async () => {
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProjectTrust: "never" }));
    const { ctx, questions } = context({ answer: true });
    expect(await projectModulesTrusted(ctx, modules)).toBe(false);
    expect(questions).toEqual([]);
    expect(savedTrust()).toEqual({});
  });

  test("otherwise the Approver is asked once; a yes is saved as pi's trust decision", async () => {
    const { ctx, questions } = context({ answer: true });
    expect(await projectModulesTrusted(ctx, modules)).toBe(true);
    expect(questions).toEqual([[projectTrustTitle(), projectTrustQuestion(modules)]]);
    expect(savedTrust()).toEqual({ [project]: true });
    const again = context({ answer: false });
    expect(await projectModulesTrusted(again.ctx, modules)).toBe(true);
    expect(again.questions).toEqual([]);
  });

  test("a no is not saved: the next session asks again", async () => {
    const { ctx } = context({ answer: false });
    expect(await projectModulesTrusted(ctx, modules)).toBe(false);
    expect(savedTrust()).toEqual({});
    const again = context({ answer: true });
    expect(await projectModulesTrusted(again.ctx, modules)).toBe(true);
    expect(again.questions).toHaveLength(1);
  });

  test("without a UI to ask, the modules don't load", async () => {
    const { ctx, questions } = context({ hasUI: false, answer: true });
    expect(await projectModulesTrusted(ctx, modules)).toBe(false);
    expect(questions).toEqual([]);
  });

  test("settings that can't be read count as no default", async () => {
    writeFileSync(join(agentDir, "settings.json"), "{ not json");
    const { ctx, questions } = context({ answer: false });
    expect(await projectModulesTrusted(ctx, modules)).toBe(false);
    expect(questions).toHaveLength(1);
  });
});
