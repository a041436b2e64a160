import { describe, expect, test } from "bun:test";
import { NoteStore, type PendingNote } from "../lib/note-store.ts";

const APPROVAL: PendingNote = { kind: "authorize", hookName: "git push", note: "push to the fork" };
const EDIT: PendingNote = { kind: "edit", hookName: "git commit", command: "git commit -m 'fixed'", note: "imperative mood" };
const EDIT_NO_NOTE: PendingNote = { kind: "edit", hookName: "git commit", command: "git commit -m 'fixed'" };

describe("NoteStore", () => {
  test("starts empty; consuming an unknown id gives nothing", () => {
    const store = new NoteStore();
    expect(store.size).toBe(0);
    expect(store.consume("call_1")).toBeUndefined();
  });

  test("remember then consume returns the very note", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    expect(store.size).toBe(1);
    expect(store.consume("call_1")).toBe(APPROVAL);
  });

  test("a note is consumed once", () => {
    const store = new NoteStore();
    store.remember("call_1", EDIT);
    expect(store.consume("call_1")).toEqual(EDIT);
    expect(store.consume("call_1")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  test("both kinds are kept as given, including an edit without note", () => {
    const store = new NoteStore();
    store.remember("a", APPROVAL);
    store.remember("b", EDIT);
    store.remember("c", EDIT_NO_NOTE);
    expect(store.consume("c")).toStrictEqual({ kind: "edit", hookName: "git commit", command: "git commit -m 'fixed'" });
    expect(store.consume("b")).toStrictEqual(EDIT);
    expect(store.consume("a")).toStrictEqual(APPROVAL);
  });

  test("other ids are unaffected by consuming one", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    store.remember("call_2", EDIT);
    store.remember("call_3", EDIT_NO_NOTE);
    expect(store.consume("call_2")).toBe(EDIT);
    expect(store.size).toBe(2);
    expect(store.consume("call_1")).toBe(APPROVAL);
    expect(store.consume("call_3")).toBe(EDIT_NO_NOTE);
    expect(store.size).toBe(0);
  });

  test("consuming an unknown id leaves the others", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    expect(store.consume("call_9")).toBeUndefined();
    expect(store.consume("")).toBeUndefined();
    expect(store.size).toBe(1);
    expect(store.consume("call_1")).toBe(APPROVAL);
  });

  test("ids are exact: no prefix or case matching", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    expect(store.consume("call_")).toBeUndefined();
    expect(store.consume("CALL_1")).toBeUndefined();
    expect(store.consume("call_10")).toBeUndefined();
    expect(store.consume("call_1")).toBe(APPROVAL);
  });

  test("remembering again under the same id replaces the note", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    store.remember("call_1", EDIT);
    expect(store.size).toBe(1);
    expect(store.consume("call_1")).toBe(EDIT);
    expect(store.consume("call_1")).toBeUndefined();
  });

  test("discardAll drops every outstanding note", () => {
    const store = new NoteStore();
    store.remember("call_1", APPROVAL);
    store.remember("call_2", EDIT);
    store.discardAll();
    expect(store.size).toBe(0);
    expect(store.consume("call_1")).toBeUndefined();
    expect(store.consume("call_2")).toBeUndefined();
  });

  test("discardAll on an empty store is harmless; the store keeps working afterwards", () => {
    const store = new NoteStore();
    store.discardAll();
    store.remember("call_1", APPROVAL);
    store.discardAll();
    store.remember("call_2", EDIT);
    expect(store.consume("call_1")).toBeUndefined();
    expect(store.consume("call_2")).toBe(EDIT);
  });

  test("two stores (two sessions) do not share notes", () => {
    const a = new NoteStore();
    const b = new NoteStore();
    a.remember("call_1", APPROVAL);
    expect(b.consume("call_1")).toBeUndefined();
    b.discardAll();
    expect(a.consume("call_1")).toBe(APPROVAL);
  });
});
