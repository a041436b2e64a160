// lib/host.ts outside pi: a stand-in for the `jitiImport` that pi's extension loader (jiti) gives
// the code it transforms.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import * as agent from "@earendil-works/pi-coding-agent";
import * as tui from "@earendil-works/pi-tui";

const loader = globalThis as { jitiImport?: (id: string) => Promise<unknown> };
let host: typeof import("../lib/host.ts");

beforeAll(async () => {
  loader.jitiImport = async () => ({});
  host = await import("../lib/host.ts");
});

afterEach(() => {
  loader.jitiImport = async () => ({});
});

// Test files share one global scope: other files must see no loader.
afterAll(() => {
  delete loader.jitiImport;
});

test("binds every export to the module pi's loader hands over, by identity", async () => {
  const asked: string[] = [];
  loader.jitiImport = async (id) => {
    asked.push(id);
    return id === "@earendil-works/pi-tui" ? tui : agent;
  };
  expect(await host.loadPi()).toBeUndefined();
  expect(asked.sort()).toEqual(["@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"]);
  expect(host.Editor).toBe(tui.Editor);
  expect(host.visibleWidth).toBe(tui.visibleWidth);
  expect(host.getAgentDir).toBe(agent.getAgentDir);
  expect(host.ProjectTrustStore).toBe(agent.ProjectTrustStore);
});

test("names what a pi's packages lack", async () => {
  const { Editor: _editor, ...tuiWithoutEditor } = tui;
  const { getAgentDir: _getAgentDir, ...agentWithoutGetAgentDir } = agent;
  loader.jitiImport = async (id) => (id === "@earendil-works/pi-tui" ? tuiWithoutEditor : agentWithoutGetAgentDir);
  expect(await host.loadPi()).toBe("missing Editor, getAgentDir");
});

test("says why pi's loader could not provide a package", async () => {
  loader.jitiImport = async (id) => {
    throw new Error(`Cannot find module '${id}'\nRequire stack: …`);
  };
  expect(await host.loadPi()).toBe("Cannot find module '@earendil-works/pi-tui'");
});
