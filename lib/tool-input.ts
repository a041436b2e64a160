import type {
  BashToolInput,
  EditToolInput,
  FindToolInput,
  GrepToolInput,
  LsToolInput,
  ReadToolInput,
  WriteToolInput,
} from "@earendil-works/pi-coding-agent";
import type { EditReplacement, McpTool, PermissionTool, WrapperSpec } from "./api.ts";
import { fileURLToPath, homedir, isAbsolute, relative, resolve, sep } from "./node.ts";
import * as present from "./presenter.ts";
import { realPath } from "./real-path.ts";
import { type ParsedShell, parseShell } from "./shell-parse.ts";
import { isRecord, isString } from "./values.ts";

/** Tools whose input is one shell command: the prompt offers Edit for them. */
export const isCommandTool = (name: string): name is "bash" | "powershell" => name === "bash" || name === "powershell";

/**
 * The fields of one of pi's tool inputs, each still to be checked. pi validates arguments against
 * its own tools' schemas, but another extension may register a tool under the same name.
 */
type Unchecked<Input> = { [Field in keyof Input]?: unknown };

/** picc-edit's Claude-Code-shaped edit input (see the README). */
interface ClaudeEditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * Turns one pending tool call into the typed `tool` a hook receives. Never throws on odd input.
 * `wrappers`: the wrapper table with the Authors' entries (`api.wrappers`), when they added any.
 */
export function normalizeToolInput(
  name: string,
  rawInput: unknown,
  cwd: string,
  wrappers?: Record<string, WrapperSpec>,
): PermissionTool {
  const input = isRecord(rawInput) ? rawInput : {};
  // picc-edit may register its Claude-Code-shaped edit tool as "Edit"; hooks see one edit tool.
  const kind = name === "Edit" && isString(input.file_path) ? "edit" : name;
  switch (kind) {
    case "bash":
    case "powershell": {
      const fields: Unchecked<BashToolInput> = input;
      const command = text(fields.command);
      const timeout = number(fields.timeout);
      if (kind === "powershell") return { name: kind, input, detail: command, command, timeout };
      let parsed: ParsedShell | undefined;
      const parse = () => (parsed ??= parseShell(command, wrappers));
      return {
        name: kind,
        input,
        detail: command,
        command,
        timeout,
        get commands() {
          return parse().commands;
        },
        get commandsComplete() {
          return parse().complete;
        },
      };
    }
    case "read": {
      const fields: Unchecked<ReadToolInput> = input;
      const path = text(fields.path);
      const offset = number(fields.offset);
      const limit = number(fields.limit);
      return fileTool(path, cwd, { name: kind, offset, limit, input, detail: present.readDetail(path, offset, limit) });
    }
    case "write": {
      const fields: Unchecked<WriteToolInput> = input;
      const path = text(fields.path);
      const content = text(fields.content);
      return fileTool(path, cwd, { name: kind, input, content, detail: present.writeDetail(path, lineCount(content)) });
    }
    case "ls": {
      const fields: Unchecked<LsToolInput> = input;
      const path = text(fields.path) || ".";
      return fileTool(path, cwd, { name: kind, input, limit: number(fields.limit), detail: path });
    }
    case "edit":
      return editTool(input, cwd);
    case "grep":
    case "find": {
      const fields: Unchecked<GrepToolInput | FindToolInput> = input;
      const pattern = text(fields.pattern);
      const path = isString(fields.path) ? fields.path : undefined;
      // Without a path pi searches cwd.
      return Object.assign(resolvedPath(path || ".", cwd), {
        name: kind,
        input,
        pattern,
        path,
        detail: present.searchDetail(pattern, path),
      });
    }
    default:
      return mcpTool(name, input) ?? { name, input, detail: stableJson(input) };
  }
}

/** pi 1.x names an MCP server's tool `mcp__<server>__<tool>`, and splits such a name the same way. */
const MCP_TOOL_NAME = /^mcp__(.+?)__(.+)$/;

function mcpTool(name: string, input: Record<string, unknown>): McpTool | undefined {
  const match = MCP_TOOL_NAME.exec(name);
  if (!match) return undefined;
  const [, server = "", tool = ""] = match;
  const args: [string, present.ArgumentText][] = [];
  for (const key of Object.keys(input).sort()) {
    const value = input[key];
    if (isString(value) && value.includes("\n")) args.push([key, { lines: value }]);
    else {
      const json = oneLineJson(value);
      if (json) args.push([key, { json }]);
    }
  }
  return { name: name as McpTool["name"], input, server, tool, detail: present.mcpDetail(server, tool, args) };
}

/** pi's edit (`path`, `edits[]`) and the Claude-Code shape (`file_path`, `old_string`, `new_string`, `replace_all`). */
function editTool(input: Record<string, unknown>, cwd: string): PermissionTool {
  const pi: Unchecked<EditToolInput> = input;
  const claude: Unchecked<ClaudeEditInput> = input;
  const claudeShape = isString(claude.file_path);
  const path = text(claudeShape ? claude.file_path : pi.path);
  const edits: EditReplacement[] = claudeShape
    ? [{ oldText: text(claude.old_string), newText: text(claude.new_string) }]
    : (Array.isArray(pi.edits) ? pi.edits : []).filter(isRecord).map((edit) => {
        const replacement: Unchecked<EditReplacement> = edit;
        return { oldText: text(replacement.oldText), newText: text(replacement.newText) };
      });
  const replaceAll = claudeShape && claude.replace_all === true;
  return fileTool(path, cwd, {
    name: "edit" as const,
    input,
    edits,
    replaceAll,
    detail: present.editDetail(path, edits.length, replaceAll),
  });
}

/** Lines of a file's content, counted without copying it. */
function lineCount(content: string): number {
  if (!content) return 0;
  let lines = 1;
  for (let at = content.indexOf("\n"); at !== -1 && at < content.length - 1; at = content.indexOf("\n", at + 1)) lines++;
  return lines;
}

/** A file tool: its path fields, then its own, assigned onto them to keep `realPath` lazy. */
const fileTool = <Fields extends object>(path: string, cwd: string, fields: Fields) =>
  Object.assign(resolvedPath(path, cwd), { path }, fields);

function resolvedPath(path: string, cwd: string) {
  const absolutePath = resolvePath(path, cwd);
  const fromCwd = relative(cwd, absolutePath);
  const inside = !fromCwd || (!fromCwd.startsWith(`..${sep}`) && fromCwd !== ".." && !isAbsolute(fromCwd));
  let real: string | undefined;
  return {
    absolutePath,
    projectPath: inside ? fromCwd || "." : undefined,
    // Resolved on first access: most hooks never ask, and it costs file system calls.
    get realPath() {
      real ??= realPath(absolutePath);
      return real;
    },
  };
}

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Resolves the way pi's file tools do: odd spaces as spaces, no leading `@`, `~` as home, `file://` URLs. */
function resolvePath(path: string, cwd: string): string {
  const spaced = path.replace(UNICODE_SPACES, " ");
  const bare = spaced.startsWith("@") ? spaced.slice(1) : spaced;
  if (bare === "~") return homedir();
  if (bare.startsWith("~/")) return resolve(homedir(), bare.slice(2));
  if (bare.startsWith("file://")) return fileUrlPath(bare) ?? resolve(cwd, bare);
  return resolve(cwd, bare);
}

function fileUrlPath(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

/** Pretty JSON with sorted keys, so the same arguments always read the same. */
export const stableJson = (value: unknown): string => JSON.stringify(sortKeys(value), null, 2) ?? "";

/** JSON on one line with sorted keys; undefined for what JSON can't show (functions, undefined). */
export const oneLineJson = (value: unknown): string | undefined => JSON.stringify(sortKeys(value));

function sortKeys(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || !value) return value;
  if (seen.has(value)) return present.CIRCULAR;
  seen.add(value);
  const sorted = Array.isArray(value)
    ? value.map((item) => sortKeys(item, seen))
    : Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, sortKeys((value as Record<string, unknown>)[key], seen)]),
      );
  seen.delete(value);
  return sorted;
}

const text = (value: unknown): string => (isString(value) ? value : "");

const number = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
