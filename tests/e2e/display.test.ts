// What the prompt shows, character for character, in real pi: a highlight never changes it, and
// blanks that look like spaces are shown as notation (README "What you approve is what runs").
import { expect, test } from "bun:test";
import { join } from "node:path";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const MODULE = `export default (api) => api.onToolUse({
  name: "Display",
  handler: ({ tool }) => tool.name === "bash" && api.request({ highlight: [/-m .{0,2}/, /[A-Z]+/g] }),
});
`;
/** A highlighted stretch: bold on, maybe more styling, the text, then styling changes again. */
const BOLD = String.raw`\x1b\[[0-9;]*1[0-9;]*m(?:\x1b\[[0-9;]*m)*`;
const RESTYLE = String.raw`(?:\x1b\[[0-9;]*m)+`;

function bash(command: string) {
  return { toolCalls: [{ name: "bash", arguments: { command } }] };
}

describeEachPi("display", (suite) => {
  function start(script: Parameters<typeof suite.start>[0]["script"]) {
    return suite.start({ script, extensions: [DIST], files: { "agent/permissions/display.js": MODULE } });
  }

  test("a highlight ending inside an emoji takes the whole emoji; one inside literal notation text leaves it escaped", async () => {
    const pi = await start([bash('echo commit -m "🎉 yay"'), bash("echo 'literal:⟨ESC⟩'"), { text: "done" }]);
    pi.prompt("go");
    const emoji = await promptReady(pi, "Display");
    expect(emoji).toContain('bash: echo commit -m "🎉 yay"');
    expect(emoji).not.toContain("⟨U+D83C⟩");
    expect(pi.screen({ escapes: true })).toMatch(new RegExp(`${BOLD}-m "🎉${RESTYLE} yay"`));
    pi.send("Enter");
    expect(await toolResult(pi, 2)).toEqual({ isError: false, text: "commit -m 🎉 yay\n" });

    const literal = await pi.waitFor("bash: echo 'literal:⟨U+27E8⟩ESC⟩'");
    expect(literal).not.toContain("bash: echo 'literal:⟨ESC⟩'");
    expect(pi.screen({ escapes: true })).toMatch(new RegExp(`literal:⟨U\\+27E8⟩${BOLD}ESC${RESTYLE}⟩`));
    await promptReady(pi, "Display");
    pi.send("Enter");
    expect(await toolResult(pi, 3)).toEqual({ isError: false, text: "literal:⟨ESC⟩\n" });
  });

  test("U+1680 Ogham space mark and U+2800 Braille blank are shown as notation, and run as they are", async () => {
    const pi = await start([bash("echo 'a\u1680b\u2800c'"), { text: "done" }]);
    pi.prompt("go");
    const screen = await promptReady(pi, "Display");
    expect(screen).toContain("bash: echo 'a⟨U+1680⟩b⟨U+2800⟩c'");
    pi.send("Enter");
    expect(await toolResult(pi, 2)).toEqual({ isError: false, text: "a\u1680b\u2800c\n" });
  });
});
