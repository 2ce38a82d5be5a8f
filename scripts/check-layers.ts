/**
 * Checks the import rules of docs/ARCHITECTURE.md §1 and fails with one line per violation: the
 * module rules are dependency-cruiser's (.dependency-cruiser.cjs); folder-level cycles are found
 * here, over its dependency graph collapsed to folders, because its own folder scope counts every
 * parent folder too (src would then "import" pipelines through src/cli) and its collapse option
 * does not look for cycles again after collapsing.
 */
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { packageRoot } from '../src/packageRoot.js';

const ROOTS = ['src', 'pipelines', 'testkit', 'scripts', 'tests'];

/**
 * The folder a module belongs to: the first folder under src/, pipelines/, scripts/ or tests/ (its
 * subfolders included, as src/store/schema is part of src/store), or testkit. A file at the top of
 * src/ or pipelines/ (errors.ts, weekly.ts) is a component of its own, so it stands for itself.
 */
export function folderOf(path: string): string {
  return /^((src|pipelines|scripts|tests)\/[^/]+|testkit)\//.exec(path)?.[1] ?? path;
}

/** Import edges between different folders, each with one import that makes it (for the message). */
export function folderEdges(modules: ICruiseResult['modules']): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const module of modules) {
    for (const dependency of module.dependencies) {
      if (dependency.coreModule || dependency.couldNotResolve || !ROOTS.some((root) => dependency.resolved.startsWith(`${root}/`))) continue;
      const from = folderOf(module.source);
      const to = folderOf(dependency.resolved);
      if (from === to) continue;
      const targets = edges.get(from) ?? new Map<string, string>();
      if (!targets.has(to)) targets.set(to, `${module.source} imports ${dependency.resolved}`);
      edges.set(from, targets);
    }
  }
  return edges;
}

/** One shortest cycle through each group of folders that reach each other. */
export function folderCycles(edges: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  const covered = new Set<string>();
  for (const start of [...edges.keys()].sort()) {
    if (covered.has(start)) continue;
    const path = shortestPath(edges, start, start);
    if (!path) continue;
    path.forEach((folder) => covered.add(folder));
    cycles.push(path);
  }
  return cycles;
}

/** Breadth-first, so the cycle shown is the shortest; `from === to` finds a way back to the start. */
function shortestPath(edges: Map<string, Map<string, string>>, from: string, to: string): string[] | null {
  const cameFrom = new Map<string, string>();
  const queue = [from];
  for (let at = 0; at < queue.length; at++) {
    const folder = queue[at] as string;
    for (const next of [...(edges.get(folder)?.keys() ?? [])].sort()) {
      if (next === to) {
        const path = [to];
        for (let step: string | undefined = folder; step !== undefined && step !== from; step = cameFrom.get(step)) path.unshift(step);
        return [from, ...path];
      }
      if (cameFrom.has(next) || next === from) continue;
      cameFrom.set(next, folder);
      queue.push(next);
    }
  }
  return null;
}

/** One line per violated rule; a module cycle is reported once, not once per import in it. */
function moduleViolationLines(violations: readonly IViolation[]): string[] {
  const lines = new Set<string>();
  for (const violation of violations) {
    if (violation.cycle) {
      const names = violation.cycle.map((step) => step.name);
      const first = names.indexOf([...names].sort()[0] as string);
      const rotated = [...names.slice(first), ...names.slice(0, first)];
      lines.add(`${violation.rule.name}: ${[...rotated, rotated[0]].join(' → ')}`);
    } else {
      lines.add(`${violation.rule.name}: ${violation.from} → ${violation.to}`);
    }
  }
  return [...lines];
}

async function main(): Promise<number> {
  process.chdir(packageRoot());
  const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
  const { output } = await cruise(ROOTS, options, {}, { tsConfig: extractTSConfig('tsconfig.json') });
  if (typeof output === 'string') throw new Error('dependency-cruiser gave a report instead of its result');
  const edges = folderEdges(output.modules);
  const lines = [
    ...moduleViolationLines(output.summary.violations),
    ...folderCycles(edges).map((cycle) => {
      const imports = cycle.slice(1).map((folder, k) => edges.get(cycle[k] as string)?.get(folder));
      return `no-folder-cycles: ${cycle.join(' → ')} (${imports.join('; ')})`;
    }),
  ];
  for (const line of lines) process.stdout.write(`${line}\n`);
  process.stdout.write(`layers: ${lines.length === 0 ? 'no' : lines.length} violations in ${output.summary.totalCruised} modules\n`);
  return lines.length === 0 ? 0 : 1;
}

process.exitCode = await main();
