// One standalone proxy server for the cluster storms, as a process of its own (so that a test can kill -9 it):
// the compiled package's startStandalone, configured by the PAYIN_* variables like `payin-checkout proxy`, with
// the limits raised so that a storm of one client address (the shoppers, the service's callbacks and their replays
// all come from 127.0.0.1) is neither rate-limited nor cut at 100 connections, and the leases (LEASE_MS) and the
// time between sweeps (RECONCILE_EVERY_MS) so that the work of a killed process is taken over within seconds
// instead of minutes. Argument: the compiled build's folder.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const build = process.argv[2];
const { readStandaloneConfig, startStandalone } = await import(pathToFileURL(join(build, 'standalone/index.js')).href);
const leaseMs = Number(process.env.LEASE_MS);
const server = await startStandalone(readStandaloneConfig(process.env), {
  reconcileEveryMs: Number(process.env.RECONCILE_EVERY_MS),
  limits: { createsPerMinute: 1_000_000, statusPerMinute: 1_000_000, streamsPerClient: 1_000 },
  maxConnectionsPerClient: 1_000,
  timeouts: { claimLeaseMs: leaseMs, hookLeaseMs: leaseMs, sweepLeaseMs: leaseMs },
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
