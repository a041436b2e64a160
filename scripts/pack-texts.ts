// A build pass after the minifiers: the bundle's texts for people (string and template literals;
// see isProse) move into one Brotli-compressed table, unpacked the first time a text is read; each
// becomes a call `T(index, ...its substitutions)`, the table written in base64. About 3 KB off
// dist/hooks.js. Comparisons keep their literals: a call on every evaluation would slow them.
import { brotliCompressSync, constants } from "node:zlib";
import { type Node, parse } from "acorn";
import { visit } from "./alias-strings.ts";

const MIN_LENGTH = 10;

/**
 * A text for people: long enough, with a space. Names, paths, flags and module specifiers have none,
 * and stay where they are, readable in the bundle.
 */
const isProse = (text: string) => text.length >= MIN_LENGTH && text.includes(" ");
/** Between the texts of the table, and where a substitution goes in one; no text holds either. */
const TEXT_END = "\0";
const SUBSTITUTION = "\x01";

type Template = Node & { quasis: (Node & { value: { cooked: string | null } })[]; expressions: Node[] };

/** `code`, an ES module, with its texts read from a packed table. */
export function packTexts(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const names = new Set<string>();
  const packed: { node: Node; parts: string[]; expressions: Node[] }[] = [];
  visit(program, null, (node, parent) => {
    if (node.type === "Identifier") names.add((node as Node & { name: string }).name);
    if (!packable(node, parent)) return;
    if (node.type === "Literal") {
      const { value } = node as Node & { value: unknown };
      if (typeof value === "string" && isProse(value)) packed.push({ node, parts: [value], expressions: [] });
    } else if (node.type === "TemplateLiteral") {
      const { quasis, expressions } = node as Template;
      const parts = quasis.map((quasi) => quasi.value.cooked ?? "");
      if (isProse(parts.join(""))) packed.push({ node, parts, expressions });
    }
  });
  if (packed.length === 0) return code;
  const texts = packed.map(({ parts }) => parts.join(SUBSTITUTION));
  if (texts.some((text) => text.includes(TEXT_END))) throw new Error("a text holds a NUL; pack-texts can't table it");
  const [table, unpacked, read] = ["T", "X", "Z"].map((name) => fresh(name, names));
  const indexes = new Map(packed.map(({ node }, index) => [node, index]));
  // `code` from `from` to `to` with the texts in it replaced; a text's substitutions may hold texts too.
  const emit = (from: number, to: number): string => {
    let out = "";
    let at = from;
    for (const { node, expressions } of packed) {
      if (node.start < at || node.end > to) continue;
      // A substitution may be a sequence (`${a = f(), g(a)}`), which an argument list would split.
      const arg = (expression: Node) => {
        const text = emit(expression.start, expression.end);
        return expression.type === "SequenceExpression" ? `(${text})` : text;
      };
      const args = [String(indexes.get(node)), ...expressions.map(arg)];
      const space = /[\p{ID_Continue}$]/u.test(code.charAt(node.start - 1)) ? " " : "";
      out += `${code.slice(at, node.start)}${space}${table}(${args.join(",")})`;
      at = node.end;
    }
    return out + code.slice(at, to);
  };
  const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };
  const encoded = brotliCompressSync(texts.join(TEXT_END), { params }).toString("base64");
  // base64, not a denser code of our own: Buffer decodes it natively, where a decoder in the bundle
  // runs once, before the JIT compiles it, at every start (about 2 ms for the table).
  const prelude =
    `import{brotliDecompressSync as ${read}}from"node:zlib";let ${unpacked};` +
    `const ${table}=(i,...v)=>(${unpacked}??=${read}(Buffer.from("${encoded}","base64")).toString().split("\\0"))[i]` +
    `.replace(/\\x01/g,()=>v.shift());`;
  return prelude + emit(0, code.length);
}

/** Texts compared (`===`, `in`, `case`) stay literals: they are read on every evaluation. Joined with `+`, they are texts. */
function packable(node: Node, parent: Node | null): boolean {
  if (parent === null) return false;
  switch (parent.type) {
    case "Property":
    case "MethodDefinition":
    case "PropertyDefinition":
      return (parent as Node & { key: Node }).key !== node || (parent as Node & { computed: boolean }).computed;
    case "BinaryExpression":
      return (parent as Node & { operator: string }).operator === "+";
    case "SwitchCase":
    case "TaggedTemplateExpression":
    case "ImportDeclaration":
    case "ImportExpression":
    case "ImportSpecifier":
    case "ExportNamedDeclaration":
    case "ExportAllDeclaration":
    case "ExportSpecifier":
      return false;
    case "ExpressionStatement":
      return !("directive" in parent);
    default:
      return true;
  }
}

/** `name`, or `name` with a number, that no identifier in the code has. */
function fresh(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let suffix = 0; taken.has(candidate); suffix++) candidate = `${name}${suffix}`;
  taken.add(candidate);
  return candidate;
}
