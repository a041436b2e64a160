// A build pass after the others: the minifiers name the module's bindings before the passes after
// them add the most used ones (alias-strings' constants), which get the names left over, two letters
// long. Here the module-level bindings trade names so that the most used get the shortest.
import { type Node, parse } from "acorn";
import { boundNames, visit } from "./alias-strings.ts";

type Property = Node & { key: Node; value: Node; shorthand: boolean; computed: boolean };
type Specifier = Node & { local: Node; exported: Node };

/** `code`, an ES module, with its module-level names given out again, the shortest to the most used. */
export function shortenNames(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" }) as Node & { body: Node[] };
  const moduleLevel = new Set<string>();
  // A name bound anywhere else (a parameter, a block's `let`, an import) keeps its binding: a reference
  // inside that scope would read the inner binding once given to another.
  const boundElsewhere = new Set<string>();
  const shorthands = new Set<Node>();
  visit(program, null, (node, parent) => {
    const declared = parent === program ? moduleLevel : boundElsewhere;
    for (const name of declaredNames(node)) declared.add(name);
    for (const name of scopeNames(node)) boundElsewhere.add(name);
    if (node.type === "Property" && (node as Property).shorthand) {
      const { value } = node as Property;
      shorthands.add(value.type === "AssignmentPattern" ? (value as Node & { left: Node }).left : value);
    }
  });
  const movable = [...moduleLevel].filter((name) => !boundElsewhere.has(name));
  const uses = new Map<string, Node[]>(movable.map((name) => [name, []]));
  const exportedAsNamed = new Set<Node>();
  visit(program, null, (node, parent) => {
    if (node.type !== "Identifier" || !isVariable(node, parent)) return;
    uses.get((node as Node & { name: string }).name)?.push(node);
    if (parent?.type === "ExportSpecifier" && (parent as Specifier).exported.start === node.start) exportedAsNamed.add(node);
  });
  // The shortest names to the bindings used most.
  const names = [...movable].sort((a, b) => a.length - b.length);
  const bindings = [...movable].sort((a, b) => (uses.get(b) as Node[]).length - (uses.get(a) as Node[]).length);
  const edits = new Map<number, { end: number; text: string }>();
  bindings.forEach((binding, index) => {
    const name = names[index];
    if (name === binding) return;
    for (const node of uses.get(binding) as Node[]) {
      // A shorthand's key and value are one place in the text: `{a}` becomes `{a:b}`, `export{a}` `export{b as a}`.
      let text = name;
      if (shorthands.has(node)) text = `${binding}:${name}`;
      else if (exportedAsNamed.has(node)) text = `${name} as ${binding}`;
      edits.set(node.start, { end: node.end, text });
    }
  });
  let shortened = code;
  for (const at of [...edits.keys()].sort((a, b) => b - a)) {
    const { end, text } = edits.get(at) as { end: number; text: string };
    shortened = shortened.slice(0, at) + text + shortened.slice(end);
  }
  return shortened;
}

/** The names a declaration binds in the scope it stands in: a variable, a function's or a class's name. */
function declaredNames(node: Node): string[] {
  if (node.type === "VariableDeclaration")
    return (node as Node & { declarations: (Node & { id: Node })[] }).declarations.flatMap(({ id }) => boundNames(id));
  if (node.type === "FunctionDeclaration" || node.type === "ClassDeclaration") {
    const { id } = node as Node & { id: Node | null };
    return id ? boundNames(id) : [];
  }
  return [];
}

/** The names bound in a scope of their own: parameters, a catch's, an expression's own name, imports. */
function scopeNames(node: Node): string[] {
  const { params, param, id, specifiers } = node as Node & {
    params?: Node[];
    param?: Node | null;
    id?: Node | null;
    specifiers?: Specifier[];
  };
  const patterns = [...(params ?? []), ...(param ? [param] : [])];
  if ((node.type === "FunctionExpression" || node.type === "ClassExpression") && id) patterns.push(id);
  if (node.type === "ImportDeclaration") patterns.push(...(specifiers ?? []).map((specifier) => specifier.local));
  return patterns.flatMap(boundNames);
}

/** Whether an identifier names a variable: not a property, a key, a label, nor a name outside the module. */
function isVariable(identifier: Node, parent: Node | null): boolean {
  if (parent === null) return true;
  switch (parent.type) {
    case "MemberExpression": {
      const { property, computed } = parent as Node & { property: Node; computed: boolean };
      return property !== identifier || computed;
    }
    case "Property": {
      const { key, value, computed } = parent as Property;
      return key !== identifier || computed || value === identifier;
    }
    case "MethodDefinition":
    case "PropertyDefinition": {
      const { key, computed } = parent as Property;
      return key !== identifier || computed;
    }
    case "ExportSpecifier":
      return (parent as Specifier).local === identifier;
    case "ImportSpecifier":
    case "LabeledStatement":
    case "BreakStatement":
    case "ContinueStatement":
    case "MetaProperty":
      return false;
    default:
      return true;
  }
}
