// A build pass after the minifiers, which leave every string literal where it is written: a string
// the bundle repeats often enough (and `void 0`) is declared once, as a module-level constant with a
// short name nothing else uses, and each use names it. About 2 KB off dist/hooks.js.
import { type Node, parse } from "acorn";

/** `code`, an ES module, with its repeated string literals aliased wherever that makes it shorter. */
export function aliasStrings(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const names = new Set<string>();
  const uses = new Map<string, Node[]>();
  visit(program, null, (node, parent) => {
    if (node.type === "Identifier") names.add((node as Node & { name: string }).name);
    else if (
      node.type === "Literal" &&
      typeof (node as Node & { value: unknown }).value === "string" &&
      aliasable(node, parent)
    ) {
      const raw = code.slice(node.start, node.end);
      uses.set(raw, [...(uses.get(raw) ?? []), node]);
    } else if (isUndefined(node) && parent?.type !== "BinaryExpression") {
      // `void 0` too, but not where it is compared: engines test `x === void 0` without a lookup.
      uses.set("void 0", [...(uses.get("void 0") ?? []), node]);
    }
  });
  const fresh = freshNames(names);
  const declarations: string[] = [];
  const replacements: { node: Node; name: string }[] = [];
  // The strings that save most get the shortest names.
  const bySaving = [...uses].sort(([a, aUses], [b, bUses]) => b.length * bUses.length - a.length * aUses.length);
  for (const [raw, nodes] of bySaving) {
    const name = fresh.peek();
    // Each use shrinks from the literal to the name; the declaration `name=raw,` costs once.
    if (nodes.length * (raw.length - name.length) <= name.length + raw.length + 2) continue;
    fresh.take();
    declarations.push(`${name}=${raw}`);
    for (const node of nodes) replacements.push({ node, name });
  }
  if (declarations.length === 0) return code;
  let aliased = code;
  for (const { node, name } of replacements.sort((a, b) => b.node.start - a.node.start)) {
    // A name next to a keyword or another name needs the space a quote did not: `return"a"`, `"a"in b`.
    const before = IDENTIFIER_CHARACTER.test(aliased.charAt(node.start - 1)) ? " " : "";
    const after = IDENTIFIER_CHARACTER.test(aliased.charAt(node.end)) ? " " : "";
    aliased = aliased.slice(0, node.start) + before + name + after + aliased.slice(node.end);
  }
  // First, before any code that runs as the module loads: imports are hoisted wherever they stand.
  return `const ${declarations.join(",")};${aliased}`;
}

const isUndefined = (node: Node) =>
  node.type === "UnaryExpression" &&
  (node as Node & { operator: string }).operator === "void" &&
  (node as Node & { argument: Node & { value?: unknown } }).argument.value === 0;

const IDENTIFIER_CHARACTER = /[\p{ID_Continue}$\u200c\u200d]/u;

/**
 * Whether a string literal may become a name: not a property key or a module specifier, where only a
 * literal may stand, and not compared with a `typeof`, which engines compile to a type check only
 * when the other side is a literal.
 */
function aliasable(literal: Node, parent: Node | null): boolean {
  if (parent === null) return false;
  const { type } = parent;
  if (type === "Property" || type === "MethodDefinition" || type === "PropertyDefinition") {
    const member = parent as Node & { key: Node; computed: boolean };
    return member.key !== literal || member.computed;
  }
  if (type === "BinaryExpression") {
    const { left, right } = parent as Node & { left: Node; right: Node };
    const other = left === literal ? right : left;
    return !(other.type === "UnaryExpression" && (other as Node & { operator: string }).operator === "typeof");
  }
  return !MODULE_SYNTAX.has(type) && !(type === "ExpressionStatement" && "directive" in parent);
}

const MODULE_SYNTAX = new Set([
  "ImportDeclaration",
  "ImportExpression",
  "ImportSpecifier",
  "ExportNamedDeclaration",
  "ExportAllDeclaration",
  "ExportSpecifier",
]);

/** Every node below `node`, each with its parent. */
export function visit(node: Node, parent: Node | null, onNode: (node: Node, parent: Node | null) => void): void {
  onNode(node, parent);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (typeof child === "object" && child !== null && typeof child.type === "string") visit(child, node, onNode);
    }
  }
}

const FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$";
const RESERVED = new Set(["do", "if", "in"]);

/** Names no identifier in the code has, shortest first. */
function freshNames(taken: Set<string>): { peek(): string; take(): void } {
  const candidates = (function* () {
    for (const first of FIRST) yield first;
    for (const first of FIRST) for (const second of `${FIRST}0123456789`) yield first + second;
  })();
  // Not a for…of, which would close the generator on its first return.
  const next = (): string => {
    for (let step = candidates.next(); !step.done; step = candidates.next()) {
      if (!taken.has(step.value) && !RESERVED.has(step.value)) return step.value;
    }
    throw new Error("no fresh names left");
  };
  let current = next();
  return {
    peek: () => current,
    take: () => {
      current = next();
    },
  };
}
