import { expect, test } from "bun:test";
import { codeAsText, NOT_FROM_PI } from "../scripts/code-as-text.ts";

const GUARD = `if("function"!=typeof jitiImport)throw Error(${JSON.stringify(NOT_FROM_PI)});`;

test("the module's code becomes a string compiled as a function of jitiImport and jiti's require", () => {
  expect(codeAsText('import{readFileSync as r,join}from"node:fs";const a=r("x");export{a as default};')).toBe(
    `${GUARD}export default process.getBuiltinModule("node:vm").runInThisContext(` +
      `'(function(jitiImport,jitiRequire){"use strict";var G=m=>process.getBuiltinModule(m),{readFileSync:r,join}=G("node:fs");` +
      `const a=r("x");return a})',{filename:arguments[3]})(jitiImport,arguments[1])`,
  );
});

test("import() goes through jitiImport, as jiti's transform has it; a namespace import takes the whole module", () => {
  expect(codeAsText('import*as p from"node:path";const f=x=>import(p.join(x));export{f as default}')).toContain(
    '"use strict";var G=m=>process.getBuiltinModule(m),p=G("node:path");const f=x=>jitiImport(p.join(x));return f})',
  );
});

test("the getter of built-ins takes a name the code doesn't use; backslashes, quotes and line breaks are escaped", () => {
  const text = codeAsText('import{a}from"node:os";const G=1,s="\\\\\'\\n"+`\n`;export{s as default}');
  expect(text).toContain(
    'var G0=m=>process.getBuiltinModule(m),{a}=G0("node:os");const G=1,s="\\\\\\\\\\\'\\\\n"+`\\n`;return s})\'',
  );
});

test("what the pass can't carry over stops the build", () => {
  expect(() => codeAsText('import x from"node:fs";export{x as default}')).toThrow("can't move a ImportDefaultSpecifier");
  expect(() => codeAsText('import{a}from"left-pad";export{a as default}')).toThrow("imports left-pad, not a Node built-in");
  expect(() => codeAsText("export const a=1;")).toThrow("may export its default only");
  expect(() => codeAsText("const a=1;export{a as b}")).toThrow("may export its default only");
  expect(() => codeAsText("const a=1;")).toThrow("has no default export");
  expect(() => codeAsText("const a=import.meta.url;export{a as default}")).toThrow("import.meta");
  expect(() => codeAsText("let jitiRequire=1;export{jitiRequire as default}")).toThrow("declares jitiRequire");
  expect(() => codeAsText("const a=await 1;export{a as default}")).toThrow();
});

test("the module it writes runs the code under pi's loader, and refuses to run outside it", async () => {
  const module = codeAsText(
    'import{sep}from"node:path";const f=async()=>[sep,await import("pkg"),typeof jitiRequire,this];export{f as default}',
  );
  // jiti's transform of that module: a function of its wrapper's arguments, with `export default` assigned.
  const transformed = module.replace("export default ", "exports.default=");
  const jiti = new Function("exports", "require", "module", "__filename", "__dirname", "jitiImport", transformed);
  const exports: { default?: () => Promise<unknown[]> } = {};
  const jitiImport = async (id: string) => `imported ${id}`;
  jiti(exports, () => undefined, {}, "/x/hooks.js", "/x", jitiImport);
  expect(await exports.default?.()).toEqual(["/", "imported pkg", "function", undefined]);
  expect(() => new Function(module.replace("export default ", "return "))()).toThrow(NOT_FROM_PI);
});

test("deferred code goes in as a third argument: a function that compiles each part, kept compressed until then", () => {
  const module = codeAsText("const f=i=>deferredCode(i);export{f as default}", [
    '"use strict";return a=>"deferred "+a',
    "return()=>2",
  ]);
  expect(module).toContain(`'(function(jitiImport,jitiRequire,deferredCode){"use strict";const f=i=>deferredCode(i);return f})'`);
  expect(module).not.toContain("deferred ");
  const transformed = module.replace("export default ", "exports.default=");
  const jiti = new Function("exports", "require", "module", "__filename", "__dirname", "jitiImport", transformed);
  const exports: { default?: (group: number) => (argument?: string) => unknown } = {};
  jiti(
    exports,
    () => undefined,
    {},
    "/x/hooks.js",
    "/x",
    async () => undefined,
  );
  expect([exports.default?.(0)("part"), exports.default?.(1)()]).toEqual(["deferred part", 2]);
  expect(() => codeAsText("let deferredCode=1;export{deferredCode as default}")).toThrow("declares deferredCode");
});
