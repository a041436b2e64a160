// Random key sequences over random commands, widths and heights, with or without an origin, a
// script, a grant and the fail-safe timeout's countdown: the prompt never throws, never draws wider
// or taller than the terminal, always shows the choices (select mode), the rule and its scopes (the
// grant step, wherever they fit) or the line being edited and the note (edit mode), never lets a
// control character through, and only ends in a defined outcome. An untouched submit always runs
// the original bytes.
import { describe, expect, test } from "bun:test";
import { visibleWidth } from "@earendil-works/pi-tui";
import fc from "fast-check";
import { wrap } from "../lib/frame.ts";
import { clip } from "../lib/layout.ts";
import {
  choiceLine,
  countdownLine,
  EDIT_LABELS,
  GRANT_SCOPE_WORDS,
  type GrantScopeName,
  type Paint,
  type Tone,
} from "../lib/presenter.ts";
import type { PromptOutcome } from "../lib/prompt-overlay.ts";
import { toVisible } from "../lib/visible.ts";
import { gitCommitRequest, KEYS, openPrompt } from "./support/prompt-harness.ts";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100_000);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261129);

const FRAGMENTS = [
  "git commit -m ",
  "rm -rf /tmp/x ",
  "echo ",
  "'quoted' ",
  '"$(cat <<EOF',
  "EOF\n",
  " | ",
  " && ",
  "\n",
  "\t",
  "\r",
  "\r\n",
  "\b",
  "\x00",
  "\x07",
  "\x7f",
  "\x85",
  "\x9b31m",
  "\x1b[31m",
  "\x1b[0m",
  "\x1b]0;owned\x07",
  "\x1b[2J",
  "\x1b[1A",
  "\x1bP+q\x1b\\",
  "\u202e",
  "\u202a",
  "\u2066",
  "\u2069",
  "\u200b",
  "\u200c",
  "\u200d",
  "\ufeff",
  "\u00a0",
  "\u2028",
  "\u{e0041}",
  "漢字テスト",
  "👨‍👩‍👧",
  "🏳️‍🌈",
  "e\u0301",
  "a\u0308\u0323",
  "\ud800",
  "\udfff",
  "x".repeat(300),
  "word ".repeat(40),
];

const command = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 6 })), {
    minLength: 1,
    maxLength: 24,
  })
  .map((parts) => parts.join(""))
  .filter((text) => text.trim() !== "");

/** Not a key: the clock moves on a second, as the countdown's timer would see it. */
const TICK = "<a second passes>";
const PASTES = ["\x1b[200~pasted \u202e text\r\nline two\t!\x1b[201~", "\x1b[200~\x1b[31m\u200b\x1b[201~", "\x1b[200~a\x1b[201~"];
const KEY = fc.constantFrom(
  KEYS.up,
  KEYS.down,
  KEYS.enter,
  KEYS.esc,
  KEYS.tab,
  KEYS.shiftTab,
  KEYS.ctrlR,
  KEYS.ctrlG,
  KEYS.ctrlC,
  KEYS.ctrlO,
  KEYS.ctrlT,
  TICK,
  KEYS.newline,
  KEYS.backspace,
  KEYS.pageDown,
  KEYS.pageUp,
  KEYS.home,
  KEYS.end,
  KEYS.killLine,
  "\x15",
  "\x1b[C",
  "\x1b[D",
  "\x1b[3~",
  "1",
  "2",
  "3",
  "4",
  "j",
  "k",
  "a",
  "Z",
  " ",
  "é",
  "漢",
  "🙂",
  "\u202e",
  "\x1b[8238u",
  "\x1b[97;5u",
  ...PASTES,
  // pi hands over characters outside the BMP one UTF-16 unit at a time.
  "\ud83d",
  "\ude42",
  "\u200d",
  "❤",
  "\ufe0f",
);

const KNOWN_SEQUENCES = /\x1b\[[0-9;]*m|\x1b_pi:c\x07/g;
const FORBIDDEN = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Colours as SGR codes, as pi's theme paints: invisible, but they tell a dim line from another. */
const CODES: Record<Tone, number> = { accent: 36, border: 90, dim: 2, muted: 37, text: 39, warning: 33, error: 31, success: 32 };
const sgr: Paint = { fg: (tone, text) => `\x1b[${CODES[tone]}m${text}\x1b[39m`, bold: (text) => `\x1b[1m${text}\x1b[22m` };
const SIDE = sgr.fg("border", "│");
/** pi-tui's Editor draws its cursor as reverse video ended by a full reset; an Input ends it with 27m. */
const isEditorCursorLine = (line: string) => /\x1b\[7m[^\x1b]*\x1b\[0m/.test(line);
/**
 * The note in edit mode is a line dim from end to end (the "Note to agent" label is the other), or
 * one cut short by the frame, which ends it with a reset of its own.
 */
const isDimLine = (line: string) => {
  if (!line.startsWith("\x1b[2m")) return false;
  const end = line.indexOf("\x1b[39m");
  return end === -1 || end === line.trimEnd().length - 5;
};

function checkFrame(lines: string[], width: number, rows: number) {
  if (lines.length > rows) throw new Error(`${lines.length} lines on a terminal of ${rows} rows`);
  for (const line of lines) {
    if (visibleWidth(line) !== width) throw new Error(`line of width ${visibleWidth(line)} at ${width}: ${JSON.stringify(line)}`);
    const bare = line.replace(KNOWN_SEQUENCES, "");
    // A ZWJ inside an emoji sequence is part of the picture.
    if (FORBIDDEN.test(bare.replace(/(\p{Extended_Pictographic}\p{M}*\ufe0f?)\u200d(?=\p{Extended_Pictographic})/gu, "$1"))) {
      throw new Error(`control or invisible character reached the terminal: ${JSON.stringify(line)}`);
    }
  }
}

/** Every way the countdown can be drawn `width` columns wide with `seconds` left: whole, or cut short. */
function countdownRows(seconds: number, width: number): Set<string> {
  const lines = wrap(sgr.fg("dim", countdownLine(seconds)), width - 4);
  return new Set(lines.flatMap((_, index) => clip(lines, index + 1, width - 4, sgr)).map((line) => line.trimEnd()));
}

/** The grant step as it must show: the rule's rows, its scopes, and whether the terminal holds them. */
interface GrantStep {
  ruleRows: string[];
  scopes: string[];
  fits: boolean;
}

function grantStep(rule: string, scopes: readonly GrantScopeName[], width: number, rows: number): GrantStep {
  const ruleRows = wrap(sgr.bold(toVisible(rule)), width - 4).map((line) => line.replace(KNOWN_SEQUENCES, "").trimEnd());
  return { ruleRows, scopes: scopes.map((scope) => GRANT_SCOPE_WORDS[scope]), fits: ruleRows.length + scopes.length <= rows - 2 };
}

/**
 * What must always show: every choice in select mode; the rule, whole, and every scope in the grant
 * step, when the terminal holds them; the Editor's cursor line and the note in edit mode (the
 * countdown, dim too, is not the note).
 */
function checkContent(lines: string[], labels: string[], countdown: Set<string>, grant: GrantStep | undefined) {
  const inside = lines.slice(1, -1).map((line) => line.slice(SIDE.length + 1, -(SIDE.length + 1)));
  const plainText = inside.map((line) => line.replace(KNOWN_SEQUENCES, "").trimEnd());
  // A narrow frame cuts a choice's line short, with "...".
  const shows = (choice: string) =>
    plainText.some((line) => line === choice || (line.endsWith("...") && choice.startsWith(line.slice(0, -3))));
  const missingOf = (labels: readonly string[]) =>
    labels
      .map((label, index) => [choiceLine(index, label, true), choiceLine(index, label, false)] as const)
      .filter(([selected, other]) => !shows(selected) && !shows(other))
      .map(([, other]) => other.trim());
  const grantProblem = () => {
    if (!grant) return "no grant was offered";
    const hidden = missingOf(grant.scopes);
    if (hidden.length > 0) return `the grant step without ${hidden.join(", ")}`;
    const { ruleRows } = grant;
    const whole = plainText.some((_, index) => ruleRows.every((row, offset) => plainText[index + offset] === row));
    return whole ? undefined : `the grant step without the whole rule ${JSON.stringify(ruleRows)}`;
  };
  if (grant?.fits && grantProblem() === undefined) return;
  const missing = missingOf(labels);
  if (missing.length < labels.length) {
    // Cut short by a narrow frame, the first rows of a grant step too big for the terminal read as choices.
    if (missing.length > 0 && !(grant && !grant.fits)) throw new Error(`select mode without ${missing.join(", ")}`);
    return;
  }
  if (grant && !inside.some(isEditorCursorLine)) {
    if (grant.fits) throw new Error(grantProblem());
    return;
  }
  if (!inside.some(isEditorCursorLine)) throw new Error("edit mode without the line being edited");
  const notes = inside.filter(
    (line, index) => isDimLine(line) && plainText[index] !== EDIT_LABELS.note && !countdown.has(line.trimEnd()),
  );
  if (notes.length === 0) throw new Error("edit mode without the note");
}

function checkOutcome(outcomes: PromptOutcome[], original: string, rule: string | undefined, scopes: readonly GrantScopeName[]) {
  if (outcomes.length > 1) throw new Error(`more than one outcome: ${JSON.stringify(outcomes)}`);
  const outcome = outcomes[0];
  if (!outcome) return;
  if (!["authorize", "abort", "edit"].includes(outcome.kind)) throw new Error(`unknown outcome ${outcome.kind}`);
  if (outcome.note !== undefined && (outcome.note.trim() === "" || outcome.note !== outcome.note.trim())) {
    throw new Error(`untrimmed or empty note ${JSON.stringify(outcome.note)}`);
  }
  if (outcome.kind === "edit" && (outcome.command === original || outcome.command.trim() === "")) {
    throw new Error(`an edit that runs ${JSON.stringify(outcome.command)}`);
  }
  if (outcome.kind === "authorize" && outcome.grant && (outcome.grant.rule !== rule || !scopes.includes(outcome.grant.scope))) {
    throw new Error(`a grant that was not offered: ${JSON.stringify(outcome.grant)}`);
  }
}

describe("the prompt under random input", () => {
  test(`${RUNS} random key sequences: no throw, never wider or taller than the terminal, choices or the edited line and note in view, nothing raw, defined outcomes`, () => {
    fc.assert(
      fc.property(
        command,
        fc.array(KEY, { maxLength: 20 }),
        fc.integer({ min: 10, max: 160 }),
        fc.integer({ min: 6, max: 50 }),
        fc.boolean(),
        fc.option(command, { nil: undefined }),
        fc.option(command, { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
        fc.option(command, { nil: undefined }),
        fc.constantFrom<GrantScopeName[]>(["branch", "project", "user"], ["branch", "user"]),
        (detail, keys, width, rows, editable, origin, script, timeoutSeconds, grantRule, grantScopes) => {
          const request = gitCommitRequest({
            detail,
            editable,
            highlights: [{ start: 0, end: 3 }],
            origin,
            script,
            grantRule,
            grantScopes,
          });
          const grant = grantRule === undefined ? undefined : grantStep(grantRule, grantScopes, width, rows);
          const labels = editable ? ["Authorize", "Edit", "Abort"] : ["Authorize", "Abort"];
          const timeoutMs = timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000;
          const prompt = openPrompt(request, { rows, width, paint: sgr, timeoutMs });
          const check = () => {
            const lines = prompt.lines();
            checkFrame(lines, width, rows);
            const left = timeoutMs === undefined ? 0 : Math.max(0, Math.ceil((timeoutMs - prompt.now()) / 1000));
            if (prompt.outcomes.length === 0) checkContent(lines, labels, countdownRows(left, width), grant);
          };
          check();
          for (const key of keys) {
            if (key === TICK) prompt.advance(1_000);
            else prompt.press(key);
            check();
          }
          checkOutcome(prompt.outcomes, detail, grantRule, grantRule === undefined ? [] : grantScopes);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);

  test("an untouched submit runs the original bytes, whatever was moved over", () => {
    const navigation = fc.array(fc.constantFrom(KEYS.up, KEYS.down, KEYS.home, KEYS.end, "\x1b[C", "\x1b[D", KEYS.pageUp), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(command, navigation, fc.integer({ min: 10, max: 160 }), (detail, moves, width) => {
        const prompt = openPrompt(gitCommitRequest({ detail }), { width });
        prompt.press("2", ...moves, KEYS.enter);
        expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
      }),
      { numRuns: Math.max(1_000, RUNS / 20), seed: SEED },
    );
  });

  test("typing and deleting the same text is untouched; an edit keeps every byte it did not touch", () => {
    fc.assert(
      fc.property(
        command,
        fc.string({ minLength: 1, maxLength: 10 }).filter((text) => /^[a-z ]+$/.test(text)),
        (detail, typed) => {
          const untouched = openPrompt(gitCommitRequest({ detail }));
          untouched.press("2");
          untouched.type(typed);
          untouched.press(...Array<string>(typed.length).fill(KEYS.backspace), KEYS.enter);
          expect(untouched.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
          const edited = openPrompt(gitCommitRequest({ detail }));
          edited.press("2");
          edited.type(typed);
          edited.press(KEYS.enter);
          expect(edited.outcomes).toEqual([{ kind: "edit", command: detail + typed, note: undefined }]);
        },
      ),
      { numRuns: Math.max(1_000, RUNS / 20), seed: SEED },
    );
  });
});
