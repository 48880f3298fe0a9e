// One proxy server for the stores figure, in a process of its own (two of them on one PostgreSQL are two
// servers, as a shop runs them): the proxy from dist/ on a loopback socket, asking the sandbox served by the
// parent, on the store that PAYIN_STORE_URL-style `storeUrl` names. 'start' answers its URL.
import { serveRequests } from './child.mjs';
import { at, startStack } from './stack.mjs';

const { storeFromUrl } = await import(at('dist/server/index.js').href);
let stack;
let store;

serveRequests({
  async start({ storeUrl, sandboxUrl }) {
    store = await storeFromUrl(storeUrl);
    stack = await startStack({ sockets: true, sandboxUrl, store });
    return { url: stack.proxyUrl };
  },
});

process.on('SIGTERM', async () => {
  await stack?.close();
  await store?.close?.();
  process.exit(0);
});
