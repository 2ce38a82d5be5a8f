/**
 * Checks that the public functions a newcomer calls carry a doc comment (docs/ARCHITECTURE.md §2):
 * every exported function, class and const arrow function in the folders below, one line per miss
 * naming file:line. It parses each file with the TypeScript compiler, without type-checking, so it
 * takes seconds, not a build, and a declaration spread over lines, overloaded or wrapped in `as` is read
 * as the compiler reads it rather than guessed at by a pattern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { packageRoot } from '../src/packageRoot.js';

/** The folders (and single files) whose exports must be documented; a folder counts with its subfolders. */
export const CHECKED = [
  'src/content',
  'src/diff',
  'src/evaluate',
  'src/growover',
  'src/labels',
  'src/llm',
  'src/net',
  'src/parse',
  'src/select',
  'src/sources',
  'src/timeline',
  'src/store',
  'src/release',
  'src/audit',
];

/** An exported declaration without a doc comment: where it is, what kind of thing, and its name. */
export interface UndocumentedExport {
  line: number;
  kind: 'function' | 'class' | 'const function';
  name: string;
}

/**
 * The exported functions, classes and const function expressions of one module that have no doc
 * comment with text (a comment of tags alone, or a plain `//` comment, does not count).
 *
 * @param fileName - the module's path, for the parser (its extension picks TS or TSX) and nothing else
 * @param text - the module's source text
 * @returns the undocumented exports in source order; an overloaded function counts as documented
 *   when any of its signatures is
 * @example
 * undocumentedExports('a.ts', 'export function f() {}'); // [{ line: 1, kind: 'function', name: 'f' }]
 */
export function undocumentedExports(fileName: string, text: string): UndocumentedExport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const documentedFunctions = new Set<string>();
  const missing: UndocumentedExport[] = [];
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isFunctionDeclaration(statement)) {
      const name = statement.name?.text ?? 'default';
      if (hasDocText(statement)) documentedFunctions.add(name);
      else if (!missing.some((entry) => entry.kind === 'function' && entry.name === name)) missing.push({ line: lineOf(statement), kind: 'function', name });
    } else if (ts.isClassDeclaration(statement)) {
      if (!hasDocText(statement)) missing.push({ line: lineOf(statement), kind: 'class', name: statement.name?.text ?? 'default' });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!declaration.initializer || !isFunctionValue(declaration.initializer) || hasDocText(declaration)) continue;
        missing.push({ line: lineOf(declaration), kind: 'const function', name: declaration.name.getText(source) });
      }
    }
  }
  return missing.filter((entry) => entry.kind !== 'function' || !documentedFunctions.has(entry.name));
}

function isExported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

/** An arrow or function expression, seen through parentheses, `as`, `satisfies` and `!`. */
function isFunctionValue(expression: ts.Expression): boolean {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner) || ts.isNonNullExpression(inner)) inner = inner.expression;
  return ts.isArrowFunction(inner) || ts.isFunctionExpression(inner);
}

/** A `/** … *\/` comment above the declaration (above its `export const` statement for a variable) that says something besides tags. */
function hasDocText(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).some((doc) => ts.isJSDoc(doc) && (ts.getTextOfJSDocComment(doc.comment) ?? '').trim() !== '');
}

/** The TypeScript modules of a folder and its subfolders (declaration files left out), or the one file named. */
function modulesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (path.endsWith('.ts')) return [path];
  return readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? modulesUnder(root, join(path, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [join(path, entry.name)] : []))
    .sort();
}

function main(): number {
  const root = packageRoot();
  let files = 0;
  let misses = 0;
  for (const path of CHECKED.flatMap((folder) => modulesUnder(root, folder))) {
    files++;
    for (const entry of undocumentedExports(path, readFileSync(join(root, path), 'utf8'))) {
      misses++;
      process.stdout.write(`${relative(root, join(root, path))}:${entry.line}: exported ${entry.kind} ${entry.name} has no doc comment\n`);
    }
  }
  process.stdout.write(`docs: ${misses === 0 ? 'no' : misses} undocumented export${misses === 1 ? '' : 's'} in ${files} modules of ${CHECKED.join(', ')}\n`);
  return misses === 0 ? 0 : 1;
}

// Run as a script (npm run check:docs), not when a test imports undocumentedExports.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
