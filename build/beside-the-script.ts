/**
 * How every file beside the script is built (a language, a part): esbuild bundles it into one ES module, which the
 * script imports by URL, and Oxc minifies it, the minifier Vite itself minifies the script with, so that every file
 * of the script-tag build is minified alike. UTF-8 throughout, so that the texts stay readable and small.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type BuildOptions, build as esbuild } from 'esbuild';
import { minifySync } from 'vite';

export interface BesideTheScript extends BuildOptions {
  outfile: string;
}

/**
 * Bundles `options.outfile`'s module and, with `write` (a dry run bundles only, for its plugins to see what it
 * imports), writes it minified.
 */
export async function buildBesideTheScript(options: BesideTheScript, write = true): Promise<void> {
  const result = await esbuild({
    bundle: true,
    format: 'esm',
    target: 'es2022',
    charset: 'utf8',
    logLevel: 'warning',
    ...options,
    minify: false,
    write: false,
  });
  if (!write) return;
  const [bundled] = result.outputFiles;
  // A module's top level is its own, so its names are shortened too; only its exports keep theirs.
  const { code, errors } = minifySync(options.outfile, bundled!.text, {
    module: true,
    compress: { target: 'es2022' },
    mangle: { toplevel: true },
  });
  if (errors.length) throw new Error(`${options.outfile}: ${errors.map((error) => error.message).join('; ')}`);
  mkdirSync(dirname(options.outfile), { recursive: true });
  writeFileSync(options.outfile, code);
}
