// A build pass after the minifiers, which leave every string literal and global name where it is
// written: a string the bundle repeats often enough (and `void 0`, a built-in such as `Object`, and
// a function of one such as `Math.max`) is declared once, as a module-level constant with a short
// name nothing else uses, and each use names it. About 2.8 KB off dist/hooks.js.
import { type Node, parse } from "acorn";

/** `code`, an ES module, with its repeated string literals and built-ins aliased wherever that makes it shorter. */
export function aliasStrings(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const names = new Set<string>();
  const uses = new Map<string, Node[]>();
  const functions = new Map<string, Member[]>();
  const declared = declaredNames(program);
  const assigned = inPatterns(program);
  visit(program, null, (node, parent) => {
    if (assigned.has(node)) return;
    const fn = node.type === "MemberExpression" ? thisFreeFunction(node as Member, declared) : undefined;
    if (fn !== undefined && isGlobalRead(node, parent)) {
      functions.set(fn, [...(functions.get(fn) ?? []), node as Member]);
    } else if (node.type === "Identifier") {
      const { name } = node as Node & { name: string };
      names.add(name);
      if (BUILT_INS.has(name) && !declared.has(name) && isGlobalRead(node, parent))
        uses.set(name, [...(uses.get(name) ?? []), node]);
    } else if (
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
  // A function such as `Math.max` is named on its own where that pays even with a two-letter name;
  // otherwise its uses stay uses of its built-in.
  for (const [fn, members] of functions) {
    if (!pays(members.length, fn, "ab")) continue;
    uses.set(fn, members);
    const objects = new Set<Node>(members.map(({ object }) => object));
    const builtIn = members[0].object.name;
    const otherUses = (uses.get(builtIn) ?? []).filter((node) => !objects.has(node));
    uses.set(builtIn, otherUses);
  }
  const fresh = freshNames(names);
  const declarations: string[] = [];
  const replacements: { node: Node; name: string }[] = [];
  // The strings that save most get the shortest names.
  const bySaving = [...uses].sort(([a, aUses], [b, bUses]) => b.length * bUses.length - a.length * aUses.length);
  for (const [raw, nodes] of bySaving) {
    const name = fresh.peek();
    if (!pays(nodes.length, raw, name)) continue;
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

/** Whether naming `raw` pays: each use shrinks from `raw` to `name`; the declaration `name=raw,` costs once. */
const pays = (uses: number, raw: string, name: string) => uses * (raw.length - name.length) > name.length + raw.length + 2;

const isUndefined = (node: Node) =>
  node.type === "UnaryExpression" &&
  (node as Node & { operator: string }).operator === "void" &&
  (node as Node & { argument: Node & { value?: unknown } }).argument.value === 0;

/**
 * Built-ins the code reads as plain names, all fixed for the life of the process. Not `Date`,
 * `setTimeout` and the like, which fake timers in tests replace after the bundle loads.
 */
const BUILT_INS = new Set([
  "Array",
  "Boolean",
  "Error",
  "JSON",
  "Map",
  "Math",
  "Number",
  "Object",
  "Promise",
  "RegExp",
  "Set",
  "String",
  "WeakMap",
  "process",
]);

/**
 * Functions of built-ins that don't read `this` (unlike `Promise.resolve` or `Array.from`), so that
 * called by a name of their own they do what they do called as methods; fixed, as the built-ins are.
 */
const THIS_FREE_FUNCTIONS = new Set([
  "Array.isArray",
  "JSON.parse",
  "JSON.stringify",
  "Math.ceil",
  "Math.floor",
  "Math.max",
  "Math.min",
  "Number.isFinite",
  "Number.isInteger",
  "Number.isNaN",
  "Number.isSafeInteger",
  "Number.parseInt",
  "Object.assign",
  "Object.entries",
  "Object.freeze",
  "Object.fromEntries",
  "Object.keys",
  "String.fromCharCode",
  "String.fromCodePoint",
]);

type Member = Node & { object: Node & { name: string }; property: Node & { name: string }; computed: boolean; optional: boolean };

/** `Math.max` where `member` is that function of the built-in, read by its plain name. */
function thisFreeFunction(member: Member, declared: Set<string>): string | undefined {
  const { object, property, computed, optional } = member;
  if (computed || optional || object.type !== "Identifier" || declared.has(object.name)) return undefined;
  const fn = `${object.name}.${property.name}`;
  return THIS_FREE_FUNCTIONS.has(fn) ? fn : undefined;
}

/**
 * Whether an identifier (or a member such as `Math.max`) is read: not a property, a key or a label,
 * not under `typeof` or `delete`, not left of an operator (an assignment's).
 */
function isGlobalRead(identifier: Node, parent: Node | null): boolean {
  if (parent === null || NOT_VARIABLES.has(parent.type) || MODULE_SYNTAX.has(parent.type)) return false;
  const { property, key, computed, shorthand, left, operator } = parent as Node & {
    property?: Node;
    key?: Node;
    computed?: boolean;
    shorthand?: boolean;
    left?: Node;
    operator?: string;
  };
  if (property === identifier || key === identifier) return computed === true;
  return !shorthand && left !== identifier && operator !== "typeof" && operator !== "delete";
}

const NOT_VARIABLES = new Set(["LabeledStatement", "BreakStatement", "ContinueStatement", "UpdateExpression"]);

/** Every name `program` declares, in any scope: a built-in's name declared there is not the built-in. */
function declaredNames(program: Node): Set<string> {
  const declared = new Set<string>();
  visit(program, null, (node) => {
    const { id, params, param, local } = node as Node & { id?: Node | null; params?: Node[]; param?: Node | null; local?: Node };
    for (const binding of [id, param, local, ...(params ?? [])])
      if (binding) for (const name of boundNames(binding)) declared.add(name);
  });
  return declared;
}

/** Everything inside a destructuring pattern (`[a, b.c] = …`): what it assigns to is no read to rewrite. */
function inPatterns(program: Node): Set<Node> {
  const inside = new Set<Node>();
  visit(program, null, (node) => {
    if (node.type === "ArrayPattern" || node.type === "ObjectPattern") visit(node, null, (child) => inside.add(child));
  });
  return inside;
}

/** The names a binding pattern declares: `a`, `{a, b: [c]}`, `...d`, `e = 1`. */
export function boundNames(pattern: Node): string[] {
  switch (pattern.type) {
    case "Identifier":
      return [(pattern as Node & { name: string }).name];
    case "ObjectPattern":
      return (pattern as Node & { properties: Node[] }).properties.flatMap((property) =>
        boundNames(property.type === "Property" ? (property as Node & { value: Node }).value : property),
      );
    case "ArrayPattern":
      return (pattern as Node & { elements: (Node | null)[] }).elements.flatMap((element) =>
        element ? boundNames(element) : [],
      );
    case "RestElement":
      return boundNames((pattern as Node & { argument: Node }).argument);
    case "AssignmentPattern":
      return boundNames((pattern as Node & { left: Node }).left);
    default:
      return [];
  }
}

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
