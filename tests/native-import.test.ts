import { describe, expect, test } from "bun:test";
import { MODULES } from "../bench/fixtures/permission-modules.ts";
import { importsOnlyBuiltins } from "../lib/native-import.ts";

const BODY = "export default function (api) {}\n";

describe("importsOnlyBuiltins: which modules Bun may import itself", () => {
  const cases: [string, string, boolean][] = [
    ["no imports", BODY, true],
    ["types only", `import type { PermissionsAPI } from "pi-permission-hooks";\n${BODY}`, true],
    ["types only, no semicolons", `import type { PermissionsAPI } from 'pi-permission-hooks'\n${BODY}`, true],
    ["a default type import", `import type Api from "pi-permission-hooks";\n${BODY}`, true],
    ["built-ins", `import { realpathSync } from "node:fs";\nimport * as path from "node:path";\n${BODY}`, true],
    ["a built-in's default", `import fs from "node:fs";\n${BODY}`, true],
    ["a built-in over lines", `import {\n  isAbsolute,\n  relative,\n} from "node:path";\n${BODY}`, true],
    ["import.meta", `const here = import.meta.dir;\n${BODY}`, true],
    ["the word in patterns", `const TF = /(apply|destroy|import)\\b/, HL = /up|import/;\n${BODY}`, true],
    ["a package", `import { z } from "zod";\n${BODY}`, false],
    ["a package's values beside types", `import { type PermissionsAPI, helper } from "pi-permission-hooks";\n${BODY}`, false],
    ["types imported without `import type`", `import { PermissionsAPI } from "pi-permission-hooks";\n${BODY}`, false],
    ["a built-in without node:", `import { join } from "path";\n${BODY}`, false],
    ["pi's packages", `import { isToolCallEventType } from "@earendil-works/pi-coding-agent";\n${BODY}`, false],
    ["a relative file", `import { shared } from "./shared.ts";\n${BODY}`, false],
    ["for its effects", `import "./setup.ts";\n${BODY}`, false],
    ["a package after a built-in", `import { join } from "node:path";\nimport x from "x";\n${BODY}`, false],
    ["a package named like a built-in", `import x from "node-fetch";\n${BODY}`, false],
    ["a comment between from and the name", `import { z } from /* zod */ "zod";\n${BODY}`, false],
    ["a dynamic import", `const load = () => import("zod");\n${BODY}`, false],
    ["a dynamic import after a space", `const load = () => import ("zod");\n${BODY}`, false],
    ["require", `const z = require("zod");\n${BODY}`, false],
    ["require passed on", `const load = require;\n${BODY}`, false],
    ["a re-export", `export * from "zod";\n${BODY}`, false],
    ["a named re-export", `export { z } from "zod";\n${BODY}`, false],
    ["CommonJS", "module.exports = function (api) {};\n", false],
    ["CommonJS's default", "exports.default = function (api) {};\n", false],
    ["a default export as a name", "const gate = (api) => {};\nexport { gate as default };\n", false],
    ["a default import named type", `import type from "zod";\n${BODY}`, false],
    ["a default import named type, and names", `import type, { z } from "zod";\n${BODY}`, false],
    ["a comment in the names", `import { z /* "node:fs" */ } from "zod";\n${BODY}`, false],
    [
      "a dynamic import of a name, a built-in later",
      `const load = (name) => import(name);\nconst fs = "node:fs";\n${BODY}`,
      false,
    ],
    ["a dynamic import of a built-in", `const fs = await import("node:fs");\n${BODY}`, false],
  ];
  for (const [name, source, expected] of cases) test(name, () => expect(importsOnlyBuiltins(source)).toBe(expected));

  test("the start-up benchmark's 20 modules, one of whose patterns says import", () => {
    const natively = Object.entries(MODULES).filter(([, source]) => importsOnlyBuiltins(source));
    expect(natively.length).toBe(Object.keys(MODULES).length);
  });
});
