// Module hooks for the create-walk tracer (registered with `module.register`, so they run on Node's loader
// thread). The proxy is traced from its TypeScript sources, not from dist/, so the measure needs no build and
// cannot read stale output: a `.js` import inside src/ that has a `.ts` beside it resolves to the `.ts`, which
// esbuild strips to JavaScript with the compiler settings that change emitted code (ES2022, define-less class
// fields). Files under src/proxy, src/shared and src/server then get one statement at the start of every
// function body, `__payinWalk(file, name)`, placed with acorn's parse of that JavaScript; the tracer defines
// `__payinWalk` on the main thread (trace.mjs). An arrow with an expression body gets a block around it.
// Nothing else in the code changes.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { transformSync } from 'esbuild';

const SRC = new URL('../../../src/', import.meta.url).href;
const TRACED = ['proxy/', 'shared/', 'server/'].map((dir) => SRC + dir);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.startsWith(SRC) && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const asTs = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(asTs))) return { url: asTs.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith(SRC) || !url.endsWith('.ts')) return nextLoad(url, context);
  const { code } = transformSync(readFileSync(fileURLToPath(url), 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
    sourcefile: fileURLToPath(url),
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, experimentalDecorators: true, verbatimModuleSyntax: true } },
  });
  const traced = TRACED.some((dir) => url.startsWith(dir));
  return { format: 'module', source: traced ? instrument(code, url.slice(SRC.length)) : code, shortCircuit: true };
}

/** `code` with a recorder call first in every function body; each function is named by its own or its key's name. */
export function instrument(code, file) {
  const inserts = [];
  const visit = (node, key) => {
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTIONS.has(node.type)) {
      const line = code.slice(0, node.start).split('\n').length;
      const call = `__payinWalk(${JSON.stringify(file)}, ${JSON.stringify(`${node.id?.name ?? key ?? '<anonymous>'}:${line}`)});`;
      if (node.body.type === 'BlockStatement') inserts.push({ at: node.body.start + 1, text: call });
      else {
        inserts.push({ at: node.body.start, text: `{ ${call} return (` });
        inserts.push({ at: node.body.end, text: '); }' });
      }
    }
    for (const [field, value] of Object.entries(node)) {
      if (field === 'type' || field === 'start' || field === 'end') continue;
      const name =
        node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition' ? keyName(node.key) : undefined;
      if (Array.isArray(value)) for (const child of value) visit(child, name);
      else if (value && typeof value === 'object') visit(value, name ?? (node.type === 'VariableDeclarator' ? node.id?.name : undefined));
    }
  };
  visit(parse(code, { ecmaVersion: 'latest', sourceType: 'module', preserveParens: true }));
  inserts.sort((a, b) => b.at - a.at);
  let out = code;
  for (const { at, text } of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

function keyName(key) {
  if (!key) return undefined;
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal') return String(key.value);
  return undefined;
}
