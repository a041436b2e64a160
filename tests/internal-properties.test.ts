import { expect, test } from "bun:test";
import { INTERNAL_PROPERTIES, unsafeToRename } from "../scripts/internal-properties.ts";

test("an internal property named in a text or in the Author API is not safe to rename", () => {
  const bundle = 'f.lastEnd=1;g("reads lastEnd");h(`the dirStack`);k({andOrDir:1})';
  expect(unsafeToRename(bundle, "export interface A { doubt: boolean }")).toEqual(["dirStack", "doubt", "lastEnd"]);
});

test("read and written only as properties, they are safe", () => {
  expect(unsafeToRename("f.lastEnd=f.dirStack;g({andOrDir:1,[k]:f.doubt})", "export interface A { x: number }")).toEqual([]);
});

test("the list names no property twice", () => {
  expect(new Set(INTERNAL_PROPERTIES).size).toBe(INTERNAL_PROPERTIES.length);
});
