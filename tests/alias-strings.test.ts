import { expect, test } from "bun:test";
import { aliasStrings } from "../scripts/alias-strings.ts";

test("a string repeated often enough is declared once, before everything, and named at each use", () => {
  expect(aliasStrings('import{x}from"m";f("authorize");g("authorize");h("authorize");x("once, however long")')).toBe(
    'const a="authorize";import{x}from"m";f(a);g(a);h(a);x("once, however long")',
  );
});

test("the most saving string gets the shortest name, and names the code uses are skipped", () => {
  const code = 'let a,b;f("xx","xx","xx","xx","xx","xx","xx");f("a longer one","a longer one","a longer one")';
  expect(aliasStrings(code)).toBe('const c="a longer one",d="xx";let a,b;f(d,d,d,d,d,d,d);f(c,c,c)');
});

test("a string repeated too little to pay for its declaration stays as it is", () => {
  const code = 'f("ab","ab");g("abc","abc")';
  expect(aliasStrings(code)).toBe(code);
});

test("a name gets the spaces a quote did not need, next to keywords and names", () => {
  expect(aliasStrings('function f(o){if("status"in o)return"status";switch(o){case"status":return!0}return"status"}')).toBe(
    'const a="status";function f(o){if(a in o)return a;switch(o){case a:return!0}return a}',
  );
});

test("property keys, module specifiers, directives and typeof comparisons keep their literals", () => {
  const code = [
    'import x from"string";',
    'export{x as "string"};',
    'function f(v){"use strict";return typeof v=="string"||"string"===typeof v?{"string":1,string:v}:["string"]}',
    'class C{"string"(){return"string"}}',
    'g({["string"]:"string"})',
  ].join("");
  expect(aliasStrings(code)).toBe(
    [
      'const a="string";import x from"string";',
      'export{x as "string"};',
      'function f(v){"use strict";return typeof v=="string"||"string"===typeof v?{"string":1,string:v}:[a]}',
      'class C{"string"(){return a}}',
      "g({[a]:a})",
    ].join(""),
  );
});

test("`void 0` is named too, except where it is compared", () => {
  expect(aliasStrings("f(void 0);g(void 0);h(void 0);k(void 0);y=x===void 0")).toBe(
    "const a=void 0;f(a);g(a);h(a);k(a);y=x===void 0",
  );
});

test("a built-in read often enough is named too, but not as a key or a property, under typeof, or where the code declares that name", () => {
  expect(aliasStrings("f(Math.min(a,b),Math.max(a,b),Math.abs(a),Math.sign(b),new Map);g({Math:1,Map},o.Math,typeof Math)")).toBe(
    "const c=Math;f(c.min(a,b),c.max(a,b),c.abs(a),c.sign(b),new Map);g({Math:1,Map},o.Math,typeof Math)",
  );
  const declared = "function f(Math){return Math.min(a,b)+Math.max(a,b)+Math.abs(a)+Math.sign(b)+Math.round(a)}";
  expect(aliasStrings(declared)).toBe(declared);
});

test("a built-in's function that doesn't read `this` is named on its own where that pays, and otherwise stays a use of its built-in", () => {
  expect(aliasStrings("f(Math.max(a,b),Math.max(c,d),Math.max(a,c),Math.max(b,d),Math.abs(a))")).toBe(
    "const e=Math.max;f(e(a,b),e(c,d),e(a,c),e(b,d),Math.abs(a))",
  );
  expect(aliasStrings("f(Math.max(a,b),Math.max(c,d),Math.abs(a),Math.abs(b))")).toBe(
    "const e=Math;f(e.max(a,b),e.max(c,d),e.abs(a),e.abs(b))",
  );
});

test("a built-in's function is not named where it is written, deleted, under typeof, computed, optional, declared, or reads `this`", () => {
  expect(
    aliasStrings('Math.max=f;Math.max++;delete Math.max;typeof Math.max;Math["max"](a);Math?.max(a);g(Math.max,Math.max)'),
  ).toBe('const b=Math;b.max=f;b.max++;delete b.max;typeof b.max;b["max"](a);b?.max(a);g(b.max,b.max)');
  const declared = "function f(Math){return Math.max(a,b)+Math.max(a,b)+Math.max(a,b)+Math.max(a,b)}";
  expect(aliasStrings(declared)).toBe(declared);
  expect(aliasStrings("f(Promise.resolve(a),Promise.resolve(b),Promise.resolve(c),Promise.resolve(d))")).toBe(
    "const e=Promise;f(e.resolve(a),e.resolve(b),e.resolve(c),e.resolve(d))",
  );
});

test("a built-in or its function a destructuring pattern assigns to is left as it is", () => {
  const code = "[Math.max]=a;({x:Math.min}=b);[Math]=c;f(Math.max(a,b),Math.max(c,d),Math.max(a,c),Math.max(b,d),Math.abs(a))";
  expect(aliasStrings(code)).toBe(
    "const e=Math.max;[Math.max]=a;({x:Math.min}=b);[Math]=c;f(e(a,b),e(c,d),e(a,c),e(b,d),Math.abs(a))",
  );
});
