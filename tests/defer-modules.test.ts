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
function defaultExport(code: string, deferredCode?: (group: number) => string): () => unknown {
  const body = code.replace(/export\s*\{\s*(\w+) as default\s*\};?/, "return $1;");
  return new Function(DEFERRED_CODE, body)(deferredCode) as () => unknown;
}

describe("deferModules", () => {
  test("the deferred modules' declarations run on first use; a class is constructed, a shorthand keeps its key", () => {
    const out = deferModules(BUNDLE, [["lib/cold.ts"]]);
    expect(out).toContain(
      "return new (__deferred0().Cold)(base).value + __deferred0().helper({ x: 1 }) + { cold:__deferred0().cold }.cold;",
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
    expect(() => deferModules(usedAtLoad, [["lib/cold.ts"]])).toThrow("helper is used at load, outside any function");
    const assigned = BUNDLE.replace("function factory() {", "function factory() {\n  cold = 3;");
    expect(() => deferModules(assigned, [["lib/cold.ts"]])).toThrow("cold is assigned outside its module");
    const counted = BUNDLE.replace("function factory() {", "function factory() {\n  cold++;");
    expect(() => deferModules(counted, [["lib/cold.ts"]])).toThrow("cold is assigned outside its module");
    const runs = BUNDLE.replace("var cold =", "console.log(base);\nvar cold =");
    expect(() => deferModules(runs, [["lib/cold.ts"]])).toThrow("lib/cold.ts runs a SimpleStatement at load");
    expect(() => deferModules(BUNDLE, [["lib/gone.ts"]])).toThrow("no code of lib/gone.ts in the bundle");
  });

  test("groups load apart: a group reads another's names through its accessor, each runs once, when first needed", () => {
    const split = BUNDLE.replace("var cold =", "// lib/colder.ts\nvar cold =").replace(
      "return options.x;",
      "return options.x + cold - 2;",
    );
    const out = deferModules(split, [["lib/cold.ts"], ["lib/colder.ts"]]);
    expect(out).toContain("return options.x + __deferred1().cold - 2;");
    const globals = globalThis as { coldRuns?: number };
    globals.coldRuns = 0;
    expect(defaultExport(out)()).toBe(5);
    expect(globals.coldRuns).toBe(1);
    const early = split.replace("class Cold {", "var early = cold;\nclass Cold {");
    expect(() => deferModules(early, [["lib/cold.ts"], ["lib/colder.ts"]])).toThrow("cold is used at load, outside any function");
  });

  test("a name an inner scope binds again is that scope's, not the deferred one", () => {
    const shadowed = BUNDLE.replace("function factory() {", "function factory(helper = (o) => 0) {\n  helper({});");
    expect(deferModules(shadowed, [["lib/cold.ts"]])).toContain("function factory(helper = (o) => 0) {\n  helper({});");
  });
});

describe("extractDeferred", () => {
  // A module-level constant, one assigned after its declaration (as pi's packages are bound), and one
  // the deferred function reads in a shorthand property and constructs.
  const MINIFIED =
    "const k=1;let p=0;class K{}function s(){p=5}var c;function d(){return c??=(()=>{function h(){return k+p+Math.sign(1)}debugger;var x=h();" +
    "return{x,p,o:new p,K}})()}function f(){return s(),d().x}export{f as default};";

  /** `deferredCode` as code-as-text.ts compiles each part. */
  const compiled = (deferred: string[]) => (group: number) => Function(deferred[group] ?? "")();

  test("a deferred function's body, without the mark, becomes a function of the bindings it reads, compiled on first call", () => {
    const { code, deferred } = extractDeferred(MINIFIED.replace("o:new p,", ""));
    expect(code).toBe(
      `const k=1;let p=0;class K{}function s(){p=5}var c;function d(){return c??=${DEFERRED_CODE}(0)(K,k,()=>p)}` +
        "function f(){return s(),d().x}export{f as default};",
    );
    expect(deferred).toEqual([
      '"use strict";return(K,k,p)=>{function h(){return k+p()+Math.sign(1)}var x=h();return{x,p:p(),K}}',
    ]);
    expect(defaultExport(code, compiled(deferred))()).toBe(7);
  });

  test("a binding that changes is read when used, in parentheses where it is constructed", () => {
    const { deferred } = extractDeferred(MINIFIED);
    expect(deferred[0]).toContain("return{x,p:p(),o:new (p()),K}");
  });

  test("code without a mark is unchanged; a mark outside a deferred function's body, or a deferred assignment, stops the build", () => {
    expect(extractDeferred("const a=1;export{a as default};")).toEqual({ code: "const a=1;export{a as default};", deferred: [] });
    expect(() => extractDeferred(MINIFIED.replace("function f(){", "function f(){debugger;"))).toThrow(
      "a mark is not in the body of a deferred function's call",
    );
    expect(() => extractDeferred(MINIFIED.replace("var x=h();", "var x=h();p++;"))).toThrow("a deferred function assigns p");
  });
});
