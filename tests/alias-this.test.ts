import { expect, test } from "bun:test";
import { aliasThis } from "../scripts/alias-this.ts";

test("a function that says `this` often enough holds it in a local, declared first", () => {
  expect(aliasThis("class C{m(){this.a();this.b();this.c();this.d();this.e()}}")).toBe(
    "class C{m(){var f=this;f.a();f.b();f.c();f.d();f.e()}}",
  );
});

test("the local joins a leading var, and skips every name the function uses", () => {
  expect(aliasThis("class C{m(a){var b=1;this.#x=a;this.#y=b;this.c(f);this.d(e)}#x;#y}")).toBe(
    "class C{m(a){var g=this,b=1;g.#x=a;g.#y=b;g.c(f);g.d(e)}#x;#y}",
  );
});

test("a leading var that destructures is joined before its pattern, not inside it", () => {
  expect(aliasThis("class C{m(o){var{a:b}=o,[c]=o;this.d(b);this.e(c);this.f();this.g()}}")).toBe(
    "class C{m(o){var h=this,{a:b}=o,[c]=o;h.d(b);h.e(c);h.f();h.g()}}",
  );
});

test("arrows share the function's `this`; nested functions and classes keep their own", () => {
  expect(
    aliasThis("function f(){this.a(()=>this.b);this.c(function(){return this});class D{m(){return this}}this.d();this.e()}"),
  ).toBe("function f(){var g=this;g.a(()=>g.b);g.c(function(){return this});class D{m(){return this}}g.d();g.e()}");
});

test("a derived class's constructor keeps `this`, which is not there before super(); a base class's is aliased", () => {
  const derived = "class D extends B{constructor(){super();this.a=1;this.b=2;this.c=3;this.d=4;this.e=5}}";
  expect(aliasThis(derived)).toBe(derived);
  expect(aliasThis("class B{constructor(){this.a=1;this.b=2;this.c=3;this.d=4;this.e=5}}")).toBe(
    "class B{constructor(){var f=this;f.a=1;f.b=2;f.c=3;f.d=4;f.e=5}}",
  );
});

test("a function that says `this` too seldom to pay for the declaration is left as it is", () => {
  const code = "class C{m(){this.a();this.b();this.c()}}";
  expect(aliasThis(code)).toBe(code);
});

test("the aliased class behaves as the original", () => {
  const source = [
    "class Counter{#n=0;step=1;",
    "add(k){this.#n+=k*this.step;this.log.push(this.#n);return[1,2].map(()=>this.#n).concat(this.#n)}",
    "constructor(){this.log=[];this.step=2;this.extra=3;this.more=4;this.most=5}}",
    "const c=new Counter();globalThis.result=[c.add(3),c.add(1),c.log,c.extra];",
  ].join("");
  const aliased = aliasThis(source);
  expect(aliased).not.toBe(source);
  const run = (code: string) => {
    new Function(code)();
    return (globalThis as { result?: unknown }).result;
  };
  expect(run(aliased)).toEqual(run(source));
});
