// One standalone proxy server for the cluster storms, as a process of its own (so that a test can kill -9 it):
// the compiled package's startStandalone, configured by the PAYIN_* variables like `payin-checkout proxy`, with
// the limits and leases shortened so that a storm of one client address is not rate-limited and the work of a
// killed process is taken over within seconds instead of minutes. Argument: the compiled build's folder.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const build = process.argv[2];
const { readStandaloneConfig, startStandalone } = await import(pathToFileURL(join(build, 'standalone/index.js')).href);
const server = await startStandalone(readStandaloneConfig(process.env), {
  reconcileEveryMs: 2_000,
  limits: { createsPerMinute: 1_000_000, statusPerMinute: 1_000_000, streamsPerClient: 1_000 },
  timeouts: { claimLeaseMs: 3_000, hookLeaseMs: 3_000, sweepLeaseMs: 3_000 },
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
