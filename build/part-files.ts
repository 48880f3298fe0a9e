/**
 * dist/payin-checkout.<part>.part.js for each on-demand part (src/widget/parts/<part>.ts): an ES module whose
 * default export takes the kit, what the script's core hands its parts (src/widget/parts/kit-modules.ts: Lit, the
 * QR drawing, shared template helpers), and answers the part. Built like the language files (beside-the-script.ts), with the
 * templates minified as in the script. An import of a kit module is served from the kit instead of bundled again
 * (a second Lit would render templates the first one does not know); an import of any other package stops the
 * build, so that a part never carries a copy of what the core has or a dependency nobody weighed, except the
 * packages a part is listed with in OWN_PACKAGES (weighed by the budget test like every part).
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin as EsbuildPlugin } from 'esbuild';
import { type Plugin, parseSync } from 'vite';
import { KIT_MODULES } from '../src/widget/parts/kit-modules.js';
import { buildBesideTheScript } from './beside-the-script.js';
import { minifyTemplateLiterals } from './minify-templates.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WIDGET = `${ROOT}src/widget/`;
const SRC = `${ROOT}src/`;
const KIT = 'payin-kit';

/**
 * The packages a part bundles itself, each allowed by name for one part: the qr-encoder part carries a QR encoder,
 * which the core has not (the proxy sends the QR's matrix). lean-qr's nano build, deliberately: an ES module with no
 * dependencies, made to be small in a browser (about 2 kB gzip), so the fallback part stays within the 3 kB budget
 * of every part; and it is not Lit, so the rule above (no second copy of what the core has) still holds.
 */
const OWN_PACKAGES: Record<string, string[]> = { 'qr-encoder': ['lean-qr/nano'] };

export function partFiles(parts: string[]): Plugin {
  return {
    name: 'payin-part-files',
    apply: 'build',
    async closeBundle() {
      for (const part of parts) {
        // A first pass finds the kit names the part imports, so that the file binds only those.
        const used = new Set<string>();
        await buildPart(part, kitPlugin(part, Object.values(KIT_MODULES).flat(), used), false);
        await buildPart(part, kitPlugin(part, [...used]), true);
      }
    },
  };
}

function buildPart(part: string, kit: EsbuildPlugin, write: boolean) {
  const names = exportedNames(`${WIDGET}parts/${part}.ts`).join(', ');
  return buildBesideTheScript(
    {
      stdin: {
        // The kit is bound before the part's functions run; a part reads kit names only inside them.
        contents: `import { bindKit } from '${KIT}';
import { ${names} } from './src/widget/parts/${part}.ts';
export default (kit) => (bindKit(kit), { ${names} });`,
        resolveDir: ROOT,
        loader: 'ts',
      },
      outfile: `dist/payin-checkout.${part}.part.js`,
      plugins: [kit],
    },
    write,
  );
}

/** The names a part's entry exports (`export { a } from ...`, `export const b = ...`, `export function c`). */
function exportedNames(path: string): string[] {
  const program = parseSync(path, readFileSync(path, 'utf8'), { lang: 'ts' }).program as unknown as {
    body: {
      type: string;
      exportKind?: string;
      specifiers?: { exported: { name: string } }[];
      declaration?: { id?: { name: string }; declarations?: { id: { name: string } }[] } | null;
    }[];
  };
  const names = program.body.flatMap((statement) => {
    if (statement.type !== 'ExportNamedDeclaration' || statement.exportKind === 'type') return [];
    const declared = statement.declaration;
    if (declared) return declared.declarations?.map((d) => d.id.name) ?? (declared.id ? [declared.id.name] : []);
    return statement.specifiers?.map((s) => s.exported.name) ?? [];
  });
  if (names.length === 0) throw new Error(`${path} exports nothing: a part's entry exports what the element draws from it`);
  return names;
}

/** The names that the file `path` imports from kit modules (type-only imports aside). */
function kitImports(code: string, path: string): string[] {
  const program = parseSync(path, code, { lang: 'ts' }).program as unknown as {
    body: {
      type: string;
      importKind?: string;
      source?: { value: string };
      specifiers?: { type: string; importKind?: string; imported?: { name: string } }[];
    }[];
  };
  return program.body.flatMap((statement) => {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') return [];
    const source = statement.source!.value;
    if (!kitModule(source.startsWith('.') ? resolve(dirname(path), source) : source)) return [];
    return (statement.specifiers ?? []).flatMap((s) => (s.type === 'ImportSpecifier' && s.importKind !== 'type' ? [s.imported!.name] : []));
  });
}

/** The module (a path from src/widget without extension, or a package) that `path` names, if it is in the kit. */
function kitModule(path: string): keyof typeof KIT_MODULES | undefined {
  const key = path.startsWith(SRC) ? relative(WIDGET, path).replace(/\.[jt]s$/, '') : path;
  return Object.hasOwn(KIT_MODULES, key) ? (key as keyof typeof KIT_MODULES) : undefined;
}

/** Serves kit imports from the kit module, which exports `names`; the names the part's files import go into `used`. */
function kitPlugin(part: string, names: readonly string[], used?: Set<string>): EsbuildPlugin {
  return {
    name: 'payin-kit',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${KIT}$`) }, () => ({ path: KIT, namespace: KIT }));
      // A package: served from the kit, or refused.
      build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
        if (kitModule(path)) return { path: KIT, namespace: KIT };
        if (OWN_PACKAGES[part]?.includes(path)) return undefined; // bundled: resolved as esbuild does
        return {
          errors: [
            {
              text: `the ${part} part imports "${path}" (in ${relative(ROOT, importer)}): a part may use only what the core hands it (src/widget/parts/kit-modules.ts)`,
            },
          ],
        };
      });
      // One of the core's modules that is in the kit: served from it.
      build.onResolve({ filter: /^\./ }, ({ path, resolveDir }) => {
        return kitModule(resolve(resolveDir, path)) ? { path: KIT, namespace: KIT } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: KIT }, () => ({
        // A part that takes nothing from the kit (the qr-encoder) still gets a bindKit, which binds nothing.
        contents: names.length
          ? `export let ${names.join(', ')};\nexport function bindKit(kit) { ({ ${names.join(', ')} } = kit); }\n`
          : 'export function bindKit() {}\n',
        loader: 'js',
      }));
      build.onLoad({ filter: /\/src\/widget\/.*\.ts$/ }, ({ path }) => {
        const code = readFileSync(path, 'utf8');
        if (used) for (const name of kitImports(code, path)) used.add(name);
        return { contents: minifyTemplateLiterals(code, path) ?? code, loader: 'ts' };
      });
    },
  };
}
