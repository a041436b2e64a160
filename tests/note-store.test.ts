import { expect, test } from "bun:test";
import { NoteStore, type PendingNote, type RelayedNote } from "../lib/note-store.ts";

const AUTHORIZE: PendingNote = { kind: "authorize", nameOfHook: "git push", note: "push to the fork" };
const EDIT: PendingNote = { kind: "edit", nameOfHook: "git commit", command: "git commit -m 'fixed'" };
const ABORT: PendingNote = { kind: "abort", nameOfHook: "git push" };

function relayed(args: string, note: PendingNote): RelayedNote {
  return { toolName: "bash", args, note };
}

// How notes reach results, and never another call, is tested through the gatekeeper
// (gatekeeper.test.ts) and in real pi (e2e/edit.test.ts "a note never leaks", e2e/codemode.test.ts).

test("a note is consumed once, by its own call", () => {
  const store = new NoteStore();
  store.remember("call_1", AUTHORIZE);
  store.remember("call_2", EDIT);
  expect(store.consume("call_2")).toEqual({ note: EDIT, relayed: [] });
  expect(store.consume("call_2")).toBeUndefined();
  expect(store.consume("call_1")).toEqual({ note: AUTHORIZE, relayed: [] });
  expect(store.consume("call_1")).toBeUndefined();
});

test("notes about calls a call made go to the agent's call at the root, in the order relayed, once", () => {
  const store = new NoteStore();
  store.madeBy("script/1", "script");
  store.madeBy("script/2", "script");
  store.madeBy("script/2/1", "script/2");
  store.relay("script/2/1", relayed("deep", ABORT));
  store.relay("script/1", relayed("first", EDIT));
  expect(store.rootOf("script/2/1")).toBe("script");
  expect(store.rootOf("script")).toBe("script");
  expect(store.consume("script/2/1")).toBeUndefined();
  expect(store.consume("script")).toEqual({ note: undefined, relayed: [relayed("deep", ABORT), relayed("first", EDIT)] });
  expect(store.consume("script")).toBeUndefined();
});

test("a call's root runs from its first call made until its result, or the end of the turn", () => {
  const store = new NoteStore();
  store.madeBy("script/1", "script");
  store.madeBy("script/1/1", "script/1");
  expect(store.rootRunning("script/1/1")).toBe(true);
  store.consume("script/1");
  expect(store.rootRunning("script/1")).toBe(true);
  store.consume("script");
  expect(store.rootRunning("script/1")).toBe(false);
  store.madeBy("next/1", "next");
  store.discardAll();
  expect(store.rootRunning("next/1")).toBe(false);
});

test("discardAll drops every outstanding note, relayed or not", () => {
  const store = new NoteStore();
  store.remember("call_1", AUTHORIZE);
  store.remember("call_2", EDIT);
  store.madeBy("call_3/1", "call_3");
  store.relay("call_3/1", relayed("x", AUTHORIZE));
  store.discardAll();
  expect(store.consume("call_1")).toBeUndefined();
  expect(store.consume("call_2")).toBeUndefined();
  expect(store.consume("call_3")).toBeUndefined();
  expect(store.rootOf("call_3/1")).toBe("call_3/1");
});
