import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packTexts } from "../scripts/pack-texts.ts";

const MODULE = readFileSync(join(import.meta.dir, "fixtures/pack-texts-module.js"), "utf8");

async function load(code: string): Promise<Record<string, (...args: unknown[]) => unknown>> {
  const file = join(mkdtempSync(join(tmpdir(), "pack-texts-")), "module.mjs");
  writeFileSync(file, code);
  return import(file);
}

test("the packed module returns every text as the original does", async () => {
  const original = await load(MODULE);
  const packed = await load(packTexts(MODULE));
  const calls: [string, unknown[]][] = [
    ["plain", []],
    ["short", []],
    ["granted", ["Bash(git push:*)", "this project"]],
    ["nested", [1]],
    ["nested", [3]],
    ["dollars", ["$'"]],
    ["object", [7]],
    ["compared", ["a compared text"]],
    ["compared", ["other"]],
    ["cased", ["a case label text"]],
    ["cased", ["other"]],
    ["keyword", []],
    ["joined", ["The project"]],
    ["sequenced", [4]],
    ["joined", ["a key compared in"]],
  ];
  for (const [name, args] of calls) expect(packed[name]?.(...args)).toEqual(original[name]?.(...args));
});

test("texts leave the code for the table; keys, short texts, names and comparisons stay", () => {
  const packed = packTexts(MODULE);
  const prelude = 'import{brotliDecompressSync as Z}from"node:zlib";let X;const T=(i,...v)=>(X??=Z(Buffer.from("';
  expect(packed.startsWith(prelude)).toBe(true);
  const gone = ["a text of some length", "Granted ", "inner text", "returned after keyword", "computed key", "joined on"];
  for (const text of gone) expect(packed).not.toContain(text);
  const kept = [
    "short",
    "a key long enough",
    "a compared text",
    "a case label text",
    "no-space-identifier-text",
    "a key compared in",
  ];
  for (const literal of [...kept, "@earendil-works/pi-coding-agent"]) expect(packed).toContain(`"${literal}"`);
  expect(packed).toContain("[T(");
});

test("a call gets the space a quote did not need after a keyword", () => {
  expect(packTexts('function f(){return"returned after keyword"}')).toEndWith("function f(){return T(0)}");
});

test("a code without texts is left as it is", () => {
  const code = "export const f = (x) => x + 'short';";
  expect(packTexts(code)).toBe(code);
});
