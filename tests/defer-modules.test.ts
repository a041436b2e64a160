import { describe, expect, test } from "bun:test";
import { DEFERRED_CODE, deferModules, extractDeferred } from "../scripts/defer-modules.ts";

/** A bundle as Bun writes it: each module's code after a comment naming it. */
const BUNDLE = `// lib/hot.ts
var base = 1;
function useCold() {
  return new Cold(base).value + helper({ x: 1 }) + { cold }.cold;
}

// lib/cold.ts
class Cold {
  constructor(value) {
    this.value = value + base;
  }
}
function helper(options) {
  return options.x;
}
var cold = (globalThis.coldRuns = (globalThis.coldRuns ?? 0) + 1, 2);

// index.ts
function factory() {
  return useCold();
}
export {
  factory as default
};
`;

/** Runs an ES module's code with `export { x as default }` and returns x. */
function defaultExport(code: string, deferredCode?: () => string): () => unknown {
  const body = code.replace(/export\s*\{\s*(\w+) as default\s*\};?/, "return $1;");
  return new Function(DEFERRED_CODE, body)(deferredCode) as () => unknown;
}

describe("deferModules", () => {
  test("the deferred modules' declarations run on first use; a class is constructed, a shorthand keeps its key", () => {
    const out = deferModules(BUNDLE, ["lib/cold.ts"]);
    expect(out).toContain(
      "return new (__deferred().Cold)(base).value + __deferred().helper({ x: 1 }) + { cold:__deferred().cold }.cold;",
    );
    expect(out).not.toContain("// lib/cold.ts\nclass Cold");
    const globals = globalThis as { coldRuns?: number };
    globals.coldRuns = 0;
    const factory = defaultExport(out);
    expect(globals.coldRuns).toBe(0);
    expect([factory(), factory()]).toEqual([5, 5]);
    expect(globals.coldRuns).toBe(1);
  });

  test("a deferred name used at load, assigned from elsewhere, or a statement that runs at load stops the build", () => {
    const usedAtLoad = BUNDLE.replace("var base = 1;", "var base = 1;\nvar early = helper({ x: 2 });");
    expect(() => deferModules(usedAtLoad, ["lib/cold.ts"])).toThrow("helper is used at load, outside any function");
    const assigned = BUNDLE.replace("function factory() {", "function factory() {\n  cold = 3;");
    expect(() => deferModules(assigned, ["lib/cold.ts"])).toThrow("cold is assigned outside its module");
    const counted = BUNDLE.replace("function factory() {", "function factory() {\n  cold++;");
    expect(() => deferModules(counted, ["lib/cold.ts"])).toThrow("cold is assigned outside its module");
    const runs = BUNDLE.replace("var cold =", "console.log(base);\nvar cold =");
    expect(() => deferModules(runs, ["lib/cold.ts"])).toThrow("lib/cold.ts runs a SimpleStatement at load");
    expect(() => deferModules(BUNDLE, ["lib/gone.ts"])).toThrow("no code of lib/gone.ts in the bundle");
  });

  test("a name an inner scope binds again is that scope's, not the deferred one", () => {
    const shadowed = BUNDLE.replace("function factory() {", "function factory(helper = (o) => 0) {\n  helper({});");
    expect(deferModules(shadowed, ["lib/cold.ts"])).toContain("function factory(helper = (o) => 0) {\n  helper({});");
  });
});

describe("extractDeferred", () => {
  const MINIFIED =
    "var c;function d(){return c??=(()=>{function h(){return 1}debugger;var x=h()+1;return{x}})()}function f(){return d().x}export{f as default};";

  test("the deferred function's body, without the mark, becomes text the code evaluates in its place", () => {
    const { code, deferred } = extractDeferred(MINIFIED);
    expect(code).toBe(`var c;function d(){return c??=eval(${DEFERRED_CODE}())}function f(){return d().x}export{f as default};`);
    expect(deferred).toBe("(()=>{function h(){return 1}var x=h()+1;return{x}})()");
    expect(defaultExport(code, () => deferred ?? "")()).toBe(2);
  });

  test("code without the mark is unchanged; two marks, or a name eval in the code, stop the build", () => {
    expect(extractDeferred("const a=1;export{a as default};")).toEqual({ code: "const a=1;export{a as default};" });
    expect(() => extractDeferred(MINIFIED.replace("var x", "debugger;var x"))).toThrow("more than one debugger statement");
    expect(() => extractDeferred(`${MINIFIED}var e=eval;`)).toThrow("names eval");
  });
});
