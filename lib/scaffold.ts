// `/permissions new`: a permission module from a template, with the Author API's declaration and a
// tsconfig.json beside it the first time, so an editor completes and type-checks it.
import { apiDeclaration } from "./api-declaration.ts" with { type: "macro" };
import { TSCONFIG } from "./loader.ts";
import { existsSync, join, mkdirSync, writeFileSync } from "./node.ts";
import { scaffoldProblems } from "./presenter.ts";

/** The module's types come from this file, beside it; the loader skips `.d.ts` files and tsconfig.json. */
export const DECLARATION_FILE = "pi-permission-hooks.d.ts";
/** What a module imports its types from (the template's import names it too); tsconfig.json maps it to the declaration. */
const API_MODULE = "pi-permission-hooks";

/** The Author API's declaration, as this bundle was built with it. */
const DECLARATION = apiDeclaration();

/**
 * What the Author starts from: one hook that asks before a placeholder program, to be renamed;
 * HOOK_NAME stands for the hook's name, quoted.
 */
const TEMPLATE = `import type { PermissionsAPI } from "pi-permission-hooks";

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: HOOK_NAME,
    description: "Asks before the agent runs example-program.",
    tools: ["bash"],
    handler({ tool }) {
      for (const command of tool.commands)
        if (command.programName === "example-program") return api.request({ guidance: "Check what it does.", highlight: command });
    },
  });
}
`;

export type Scaffolded = { file: string; written: string[] } | { error: string };

/**
 * Writes `<slug>.ts` for the hook `typed` names into `folder` (created if need be), and the
 * declaration and a tsconfig.json where they are missing; never overwrites a file, nor writes
 * through a link. A file name (`gate.ts`) names the hook without its extension.
 */
export function scaffoldModule(typed: string, folder: string): Scaffolded {
  const name = typed.replace(/\.m?[jt]s$/, "");
  const slug = fileStem(name);
  if (!slug) return { error: scaffoldProblems.noName };
  const file = join(folder, `${slug}.ts`);
  // A module of that stem in another language would define a hook of the same name.
  const taken = [".ts", ".js", ".mjs", ".json"].map((extension) => join(folder, slug + extension)).find(existsSync);
  if (taken) return { error: scaffoldProblems.exists(taken) };
  mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  for (const [fileName, text] of [
    [DECLARATION_FILE, DECLARATION],
    [TSCONFIG, tsconfig()],
  ] as const) {
    if (writeNew(join(folder, fileName), text)) written.push(fileName);
  }
  const module = TEMPLATE.replace("HOOK_NAME", () => JSON.stringify(name));
  return writeNew(file, module) ? { file, written } : { error: scaffoldProblems.exists(file) };
}

/** Writes `text` to a file that isn't there; false when something is, a dangling link included. */
function writeNew(file: string, text: string): boolean {
  try {
    writeFileSync(file, text, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** At most 4 bytes each in UTF-8: with `.ts`, the file name stays within the 255 bytes file systems allow. */
const STEM_CHARACTERS = 60;
/** A word: letters and digits of any script, with the marks that belong to them (Devanagari's vowel signs). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/**
 * The name's words, lowercased and joined by hyphens: letters (with their marks) and digits of any
 * script, so never a path separator or a leading dot; "" when it has none.
 */
function fileStem(name: string): string {
  const words = name.normalize("NFC").toLowerCase().match(WORD);
  return Array.from(words?.join("-") ?? "")
    .slice(0, STEM_CHARACTERS)
    .join("")
    .replace(/-$/, "");
}

function tsconfig(): string {
  const options = { strict: true, module: "nodenext", noEmit: true, paths: { [API_MODULE]: [`./${DECLARATION_FILE}`] } };
  return `${JSON.stringify({ compilerOptions: options }, null, 2)}\n`;
}
