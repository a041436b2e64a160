import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { getAgentDir, hasTrustRequiringProjectResources, ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { report } from "./guard.ts";
import { readFileSync } from "./node.ts";
import * as present from "./presenter.ts";
import { userSettingsFile } from "./settings.ts";
import { getOrAdd } from "./values.ts";

/**
 * Each project folder's decision, made once for as long as this extension runs, as pi decides a
 * folder's trust once in a process: a live reload neither asks again nor says again that the
 * modules were skipped. A folder not decided yet (a new cwd) is asked about.
 */
export class ProjectTrust {
  readonly #decisions = new Map<string, Promise<boolean>>();

  /** Whether the modules in `dir` load; a no is told when it is decided. */
  modulesTrusted(ctx: ExtensionContext, dir: string): Promise<boolean> {
    return getOrAdd(this.#decisions, dir, () => {
      const decision = projectModulesTrusted(ctx, dir).then((trusted) => {
        if (!trusted) report(ctx, present.notifyProjectModulesSkipped(dir), "warning");
        return trusted;
      });
      // A question that failed is asked again at the next load.
      decision.catch(() => this.#decisions.delete(dir));
      return decision;
    });
  }
}

/**
 * Project permission modules run as code, so they load only in a project the Approver trusts.
 * pi calls a project trusted when it holds nothing pi itself considers risky, and
 * `.pi/permissions` is not on pi's list: then a saved decision, or `defaultProjectTrust` ("always",
 * "never"), or the Approver's answer here decides. A yes is saved where pi keeps its own trust decisions.
 */
export async function projectModulesTrusted(ctx: ExtensionContext, dir: string): Promise<boolean> {
  if (!ctx.isProjectTrusted()) return false;
  if (hasTrustRequiringProjectResources(ctx.cwd)) return true;
  const store = new ProjectTrustStore(getAgentDir());
  const saved = store.get(ctx.cwd);
  if (saved !== null) return saved;
  const fallback = defaultProjectTrust();
  if (fallback === "always" || fallback === "never") return fallback === "always";
  if (!ctx.hasUI) return false;
  const trusted = await ctx.ui.confirm(present.projectTrustTitle(), present.projectTrustQuestion(dir));
  if (trusted) store.set(ctx.cwd, true);
  return trusted;
}

function defaultProjectTrust(): unknown {
  try {
    return JSON.parse(readFileSync(userSettingsFile(), "utf8"))?.defaultProjectTrust;
  } catch {
    return undefined;
  }
}
