import { expect, test } from "bun:test";
import { NoteStore, type PendingNote } from "../lib/note-store.ts";

const AUTHORIZE: PendingNote = { kind: "authorize", hookName: "git push", note: "push to the fork" };
const EDIT: PendingNote = { kind: "edit", hookName: "git commit", command: "git commit -m 'fixed'" };

// How notes reach results, and never another call, is tested through the gatekeeper
// (gatekeeper.test.ts) and in real pi (e2e/edit.test.ts "a note never leaks").

test("a note is consumed once, by its own call", () => {
  const store = new NoteStore();
  store.remember("call_1", AUTHORIZE);
  store.remember("call_2", EDIT);
  expect(store.consume("call_2")).toBe(EDIT);
  expect(store.consume("call_2")).toBeUndefined();
  expect(store.consume("call_1")).toBe(AUTHORIZE);
  expect(store.consume("call_1")).toBeUndefined();
});

test("discardAll drops every outstanding note", () => {
  const store = new NoteStore();
  store.remember("call_1", AUTHORIZE);
  store.remember("call_2", EDIT);
  store.discardAll();
  expect(store.consume("call_1")).toBeUndefined();
  expect(store.consume("call_2")).toBeUndefined();
});
