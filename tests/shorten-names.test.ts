import { expect, test } from "bun:test";
import { shortenNames } from "../scripts/shorten-names.ts";

test("the module-level names are given out again, the shortest to the most used", () => {
  expect(shortenNames("const a=1;function bb(){return cc+cc+cc}const cc=2;export{bb as default};")).toBe(
    "const cc=1;function bb(){return a+a+a}const a=2;export{bb as default};",
  );
});

test("a name bound in a function, a block or an import keeps its binding, and so does its module-level one", () => {
  const code = 'import{x as a}from"m";const b=1,cc=2;function f(b){return cc+cc+cc+b}{let d;d=cc}const d=3;export{f as default};';
  expect(shortenNames(code)).toBe(
    'import{x as a}from"m";const b=1,f=2;function cc(b){return f+f+f+b}{let d;d=f}const d=3;export{cc as default};',
  );
});

test("properties, keys, methods and labels are not variables; shorthands keep their keys", () => {
  const code = "const a=0,bb=1;const o={bb,[bb]:bb,bb:2,a(){return this.bb}};const{q=bb}=o;l:for(;;)break l;export{bb};";
  expect(shortenNames(code)).toBe(
    "const q=0,a=1;const o={bb:a,[a]:a,bb:2,a(){return this.bb}};const{q:bb=a}=o;l:for(;;)break l;export{a as bb};",
  );
});

test("the renamed module behaves as the original", () => {
  const source =
    "const a=x=>x+1,bbb=[1,2,3],ccc=(y)=>bbb.map(a).concat(ccc2(y));function ccc2(z){return[z,z,bbb.length,bbb[0]]}globalThis.result=ccc(7);";
  const run = (code: string) => {
    new Function(code)();
    return (globalThis as { result?: unknown }).result;
  };
  const shortened = shortenNames(source);
  expect(shortened).not.toBe(source);
  expect(run(shortened)).toEqual(run(source));
});
