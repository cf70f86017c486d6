/**
 * The source folders' layering (ARCHITECTURE.md, "The pieces"): which folder may import which, and no
 * import cycle between modules. Type-only imports count too: a cycle of them is still two modules that
 * cannot be read apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every module under src/ (POSIX, relative to src/) with the src/ modules it imports. */
function graph(): Map<string, string[]> {
  const modules = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const source = fs.readFileSync(full, 'utf8');
        const imports: string[] = [];
        for (const match of source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'|\bimport\('(\.{1,2}\/[^']+)'\)/gm)) {
          const specifier = match[1] ?? match[2] ?? match[3];
          imports.push(path.relative(SRC, path.resolve(path.dirname(full), specifier.replace(/\.js$/, '.ts'))).split(path.sep).join('/'));
        }
        modules.set(path.relative(SRC, full).split(path.sep).join('/'), imports);
      }
    }
  };
  walk(SRC);
  return modules;
}

/** The import cycles of `modules` (Tarjan's strongly connected components of more than one module, or a self-import). */
function cycles(modules: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of modules.get(node) ?? []) {
      if (!modules.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (modules.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of modules.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('source layers', () => {
  const modules = graph();

  it('finds the modules and their imports', () => {
    // The test means something only if it sees the graph: the plugin entry imports the core.
    expect(modules.get('plugin/index.ts')).toContain('core/plan.ts');
    expect(modules.size).toBeGreaterThan(40);
  });

  it('has no import cycle', () => {
    expect(cycles(modules)).toEqual([]);
  });

  it('imports only downwards: core from nothing above it, io from core at most, report and runtime never from plugin', () => {
    const layer = (module: string) => module.split('/')[0];
    const allowed: Record<string, string[]> = {
      core: ['core'],
      io: ['io', 'core'],
      runtime: ['runtime', 'core'],
      report: ['report', 'io', 'core', 'runtime'],
      plugin: ['plugin', 'io', 'core', 'runtime', 'report'],
    };
    const upward: string[] = [];
    for (const [module, imports] of modules) {
      for (const target of imports) if (!(allowed[layer(module)] ?? []).includes(layer(target))) upward.push(`${module} -> ${target}`);
    }
    expect(upward).toEqual([]);
  });

  it('keeps the runtime in three parts with imports one way: judge/ never imports evals/, only index.ts does, and the registry only core', () => {
    const runtime = [...modules].filter(([m]) => m.startsWith('runtime/'));
    const evals = (module: string) => module.startsWith('runtime/evals/');
    const judge = (module: string) => module.startsWith('runtime/judge/');
    // The parts are there to be kept apart: the run loop and the model adapter are in their folders.
    expect(modules.has('runtime/evals/run-evals.ts') && modules.has('runtime/judge/model.ts')).toBe(true);
    expect(modules.get('runtime/index.ts')).toContain('runtime/evals/run-evals.ts');
    // evals/ may use the judge (its tracker) and the scorer; nothing below it reaches back up.
    const intoEvals = runtime.flatMap(([m, imports]) =>
      evals(m) || m === 'runtime/index.ts' ? [] : imports.filter(evals).map((t) => `${m} -> ${t}`),
    );
    expect(intoEvals).toEqual([]);
    const judgeIntoEvals = runtime.filter(([m]) => judge(m)).flatMap(([m, imports]) => imports.filter(evals).map((t) => `${m} -> ${t}`));
    expect(judgeIntoEvals).toEqual([]);
    // agent-scorers/registry is in every scorer bundle: no model, judge or eval code comes with it.
    const registry = modules.get('runtime/registry.ts') ?? [];
    expect(registry.length).toBeGreaterThan(0);
    expect(registry.filter((t) => !t.startsWith('core/'))).toEqual([]);
  });

  it('keeps the dev inspector in its folder: entered through its index and env only, and exec.ts imports nothing', () => {
    const inspector = (module: string) => module.startsWith('plugin/inspector/');
    expect([...modules.keys()].filter(inspector).length).toBeGreaterThan(5);
    // The plugin wires the server (index.ts) and serves the bridge (env.ts); the rest is the inspector's own.
    const entries = ['plugin/inspector/index.ts', 'plugin/inspector/env.ts'];
    const reachedIn: string[] = [];
    for (const [module, imports] of modules) {
      if (inspector(module)) continue;
      for (const target of imports) if (inspector(target) && !entries.includes(target)) reachedIn.push(`${module} -> ${target}`);
    }
    expect(reachedIn).toEqual([]);
    // exec.ts runs inside the app's environment too (a Worker in workerd), served by path: no other module comes with it.
    expect(modules.get('plugin/inspector/exec.ts')).toEqual([]);
    // Nothing of the inspector is a plugin-wide module: it uses the core and its own files only.
    const outside = [...modules].filter(([m]) => inspector(m)).flatMap(([m, imports]) => imports.filter((t) => !inspector(t) && !t.startsWith('core/')).map((t) => `${m} -> ${t}`));
    expect(outside).toEqual([]);
  });
});
