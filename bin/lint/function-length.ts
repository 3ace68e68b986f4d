/**
 * How long each function and class of a TypeScript source is, measured with the compiler's own
 * parser, and the rule `npm run lint` applies to functions/, lib/ and clients/ (issue 25): nothing
 * longer than FUNCTION_LENGTH_LIMIT lines, except the entries of FUNCTION_LENGTH_ALLOWED.
 */
import ts from 'typescript';

/** Past this many lines a function or class holds more than one idea; split it. */
export const FUNCTION_LENGTH_LIMIT = 150;

export interface Measured {
  file: string;
  /** 1-based line where the node starts (its leading comment excluded). */
  line: number;
  /** `name`, `class Name`, or `<anonymous>` inside its nearest named parent (`outer/<anonymous>`). */
  name: string;
  lines: number;
}

/**
 * Known offenders another change is about to split (issue 25, next on the list). An entry that no
 * longer exceeds the limit fails the check too, so the list cannot outlive the reason for it.
 */
const FUNCTION_LENGTH_ALLOWED: ReadonlyArray<{ file: string; name: string }> = [
  // Face rendering is being reworked on its own branch; split it when that lands.
  { file: 'functions/render/face/warp.ts', name: 'buildFaceModel' },
  // The fal adapter is being edited on its own branch; split it when that lands.
  { file: 'functions/adapters/engines/fal/queue-client.ts', name: 'class FalQueueClient' },
];

function nameOf(node: ts.Node, sourceFile: ts.SourceFile): string | undefined {
  if (ts.isClassLike(node)) return `class ${node.name?.text ?? '<anonymous>'}`;
  if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) && node.name) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) return node.name.getText(sourceFile);
  // An arrow or function expression is known by what it is assigned to.
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sourceFile);
  return undefined;
}

const isMeasured = (node: ts.Node): boolean => ts.isFunctionLike(node) || ts.isClassLike(node);

/** Every function-like node (declarations, expressions, arrows, methods, accessors) and class in `text`. */
export function measureSource(file: string, text: string): Measured[] {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Measured[] = [];
  const visit = (node: ts.Node, parentName: string | undefined): void => {
    let name = parentName;
    // Signatures without a body (overloads, interface members, declared functions) hold no code.
    const hasBody = ts.isClassLike(node) || (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined);
    if (isMeasured(node) && hasBody) {
      const own = nameOf(node, sourceFile);
      name = own ?? (parentName ? `${parentName}/<anonymous>` : '<anonymous>');
      const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: start + 1, name, lines: end - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sourceFile, undefined);
  return found;
}

/** What breaks the rule: nodes over the limit that are not allowed, and allowed entries that no longer exceed it. */
export function lengthViolations(
  measured: readonly Measured[],
  limit = FUNCTION_LENGTH_LIMIT,
  allowed: ReadonlyArray<{ file: string; name: string }> = FUNCTION_LENGTH_ALLOWED,
): { tooLong: Measured[]; stale: Array<{ file: string; name: string }> } {
  const over = measured.filter((m) => m.lines > limit);
  const isAllowed = (m: Measured) => allowed.some((a) => a.file === m.file && a.name === m.name);
  return {
    tooLong: over.filter((m) => !isAllowed(m)),
    stale: allowed.filter((a) => !over.some((m) => m.file === a.file && m.name === a.name)),
  };
}

export const formatMeasured = (m: Measured): string => `${m.file}:${m.line} ${m.name} ${m.lines}`;
