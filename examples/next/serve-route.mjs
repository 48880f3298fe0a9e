// Serves the route handler module the way Next's App Router calls it (one exported function per HTTP method,
// given the Fetch Request), so that the example runs without a Next build: the module is compiled from
// TypeScript with esbuild, as Next would, and served on node:http. Run: `node examples/next/serve-route.mjs`.
import { createServer } from 'node:http';
import { build } from 'esbuild';
import { toNodeListener } from 'payin-checkout/node';

const outfile = new URL('./.build/route.mjs', import.meta.url).pathname;
await build({
  entryPoints: [new URL('./app/payin/[...route]/route.ts', import.meta.url).pathname],
  outfile,
  format: 'esm',
  logLevel: 'error',
});
const route = await import(outfile);
const listener = toNodeListener(async (request) => {
  const handler = route[request.method];
  return handler ? handler(request) : new Response(null, { status: 405 });
});
createServer(listener).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
