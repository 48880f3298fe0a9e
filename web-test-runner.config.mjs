// Browser tests of the <payin-checkout> element (test/widget), in Chromium. TypeScript goes through esbuild with
// the project's tsconfig (legacy decorators); CommonJS-only packages (qrcode's core, jsqr) are bundled to ES
// modules on the fly. Two kinds of backend are mounted on the dev server: a fake of the proxy contract under
// /fake/<scenario>/payin for what cannot be made to happen on cue, and the real proxy (under /payin) in front of
// a real sandbox for the main flows (test/widget/support/real-backend.mjs).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROME_ARGS, findChrome } from './test/tools/find-chrome.mjs';
import { fakeProxyMiddleware } from './test/widget/support/fake-proxy.mjs';
import { realBackend } from './test/widget/support/real-backend.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Serves CommonJS files as ES modules. Each package's folder (e.g. qrcode's lib/core) is bundled once with esbuild
 * into one shared module, and each requested file becomes a stub that re-exports its part: one instance per
 * file, as in a real bundle (qrcode compares error-correction levels by identity across its files).
 */
function commonJsPlugin(folders) {
  const bundles = new Map();
  const entries = Object.entries(folders).map(([pkg, dir]) => {
    const base = `node_modules/${pkg}/${dir}/`;
    return { pkg, base, files: readdirSync(root + base).filter((f) => f.endsWith('.js')) };
  });
  async function shared({ pkg, base, files }) {
    if (!bundles.has(pkg)) {
      const members = files.map((f) => `${JSON.stringify(f)}: require(${JSON.stringify(root + base + f)})`);
      const result = await build({
        stdin: { contents: `export const modules = { ${members.join(', ')} };`, resolveDir: root, loader: 'js' },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      });
      bundles.set(pkg, result.outputFiles[0].text);
    }
    return bundles.get(pkg);
  }
  return {
    name: 'commonjs-on-the-fly',
    async serve(context) {
      for (const entry of entries) {
        if (context.path === `/__commonjs__/${entry.pkg}.js`) return { body: await shared(entry), type: 'js' };
        const file = context.path.startsWith(`/${entry.base}`) ? context.path.slice(entry.base.length + 1) : '';
        if (!entry.files.includes(file)) continue;
        const names = Object.keys(require(root + entry.base + file)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
        const body =
          `import { modules } from '/__commonjs__/${entry.pkg}.js';\n` +
          `const m = modules[${JSON.stringify(file)}];\nexport default m;\n` +
          (names.length ? `export const { ${names.join(', ')} } = m;\n` : '');
        return { body, type: 'js' };
      }
      return undefined;
    },
  };
}

/** A strict Content Security Policy (the demo's strict page has the same) on the fixture pages that the CSP test loads with `?csp`. */
function strictCspMiddleware() {
  const policy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'";
  return async (ctx, next) => {
    await next();
    if (ctx.path.startsWith('/test/widget/fixtures/') && ctx.path.endsWith('.html') && ctx.query.csp !== undefined) {
      ctx.set('content-security-policy', policy);
    }
  };
}

export default {
  rootDir: root,
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: process.env.CHROME_PATH || findChrome(), args: CHROME_ARGS, headless: true },
    }),
  ],
  middleware: [strictCspMiddleware(), fakeProxyMiddleware(), realBackend.middleware],
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' }),
    commonJsPlugin({ qrcode: 'lib/core', jsqr: 'dist' }),
    realBackend.plugin,
  ],
};
