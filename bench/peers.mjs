// The peers' bundles, built in the same run as ours from their npm packages (dev dependencies), the way a shop
// would bundle them: Adyen Web for UPI alone (AdyenCheckout and UPI from its ES entry, plus its stylesheet) and
// bitcoin-connect (its web components, started with init(); one of its dependencies imports Node's `crypto`,
// which is stubbed as Vite does), with its UMD file as shipped beside it. A peer
// that is not installed is reported as such, never guessed. `node bench/peers.mjs` prints them alone;
// bench/sizes.mjs compares them with ours.
import { readFileSync } from 'node:fs';
import { bundleSnippet, gzipSize } from './support/bundle.mjs';
import { kB } from './support/format.mjs';
import { at } from './support/stack.mjs';

// Read from node_modules directly: neither package exports its package.json.
function versionOf(name) {
  try {
    return JSON.parse(readFileSync(at(`node_modules/${name}/package.json`), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const ADYEN_UPI = `
import { AdyenCheckout, UPI } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';
window.startUpi = async (configuration) => {
  const checkout = await AdyenCheckout(configuration);
  return new UPI(checkout).mount('#upi');
};`;

const BITCOIN_CONNECT = `
import { init, launchModal } from '@getalby/bitcoin-connect';
init({ appName: 'Shop' });
window.pay = () => launchModal();`;

export async function measurePeers() {
  const peers = {};
  const adyen = versionOf('@adyen/adyen-web');
  peers.adyen = adyen
    ? {
        name: `Adyen Web ${adyen} (UPI only)`,
        version: adyen,
        ...(await bundleSnippet(ADYEN_UPI).catch((error) => ({ error: error.message }))),
      }
    : { name: 'Adyen Web', error: '@adyen/adyen-web is not installed: npm install --save-dev @adyen/adyen-web' };
  const alby = versionOf('@getalby/bitcoin-connect');
  if (alby) {
    const bundled = await bundleSnippet(BITCOIN_CONNECT, { empty: ['crypto'] }).catch((error) => ({ error: error.message }));
    let umd;
    try {
      umd = gzipSize(readFileSync(at('node_modules/@getalby/bitcoin-connect/dist/index.umd.js')));
    } catch {
      umd = undefined;
    }
    peers.bitcoinConnect = { name: `bitcoin-connect ${alby}`, version: alby, ...bundled, umd };
  } else {
    peers.bitcoinConnect = {
      name: 'bitcoin-connect',
      error: '@getalby/bitcoin-connect is not installed: npm install --save-dev @getalby/bitcoin-connect',
    };
  }
  return peers;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const peers = await measurePeers();
  for (const peer of Object.values(peers)) {
    console.log(
      peer.error
        ? `${peer.name}: ${peer.error}`
        : `${peer.name}: JS ${kB(peer.js)}, CSS ${kB(peer.css)}${peer.umd ? `, UMD ${kB(peer.umd)}` : ''}`,
    );
  }
}
