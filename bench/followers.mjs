// Figure 4, upstream load: 100 browsers follow one pending payment for BENCH_FOLLOW_MS (default 10 s; 60 s for
// the full figure), half polling POST /status every poll interval (the widget's default 3 s, with its
// jitter), half on the event stream (with its 15 s safety poll), from a second process. The proxy runs as a shop
// runs it (default coalescing, pings, its 30 s reconcile loop) on loopback, and every status call it makes to the
// sandbox is counted. A proxy that forwarded each poll would make one call per follower per interval.
import { startCompanion } from './support/child.mjs';
import { verdict } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import { BASE_PATH, createPayment, startStack, waitForStatus } from './support/stack.mjs';

const durationMs = envNumber('BENCH_FOLLOW_MS', 10_000, { min: 1_000, max: 600_000 });
const followers = envNumber('BENCH_FOLLOWERS', 100, { min: 2, max: 5_000 });
const pollMs = envNumber('BENCH_FOLLOW_POLL_MS', 3_000, { min: 250, max: 60_000 });
const command = commandOf('followers.mjs', { BENCH_FOLLOW_MS: process.env.BENCH_FOLLOW_MS });

const stack = await startStack({ sockets: true, reconcileEveryMs: 30_000, maxConnections: followers * 4 + 100 });
const crowd = await startCompanion('followers-child.mjs');
try {
  const created = await createPayment(stack);
  await waitForStatus(stack, created, (p) => p.state === 'pending');
  const pollers = Math.ceil(followers / 2);
  const streams = followers - pollers;
  stack.resetCalls();
  const seen = await crowd.request(
    {
      cmd: 'follow',
      proxyUrl: stack.proxyUrl,
      basePath: BASE_PATH,
      paymentId: created.payment.id,
      token: created.token,
      pollers,
      streams,
      pollMs,
      durationMs,
    },
    durationMs + 60_000,
  );
  const intervals = seen.elapsedMs / pollMs;
  const perInterval = stack.calls.status / intervals;
  await report({
    id: 'followers',
    title: `Upstream load: ${followers} followers of one payment for ${(durationMs / 1000).toFixed(0)} s (${pollers} polling, ${streams} on the event stream)`,
    note:
      `The followers sent ${seen.polls} polls and ${seen.safetyPolls} safety polls and held ${seen.streamsOpened} streams ` +
      `(${seen.pollErrors + seen.streamErrors} errors); the proxy made ${stack.calls.status} status calls to the sandbox ` +
      `in ${(seen.elapsedMs / 1000).toFixed(1)} s, that is ${intervals.toFixed(1)} poll intervals of ${pollMs} ms. ` +
      "The coalescing window is 3 s, the element's poll interval, so the proxy asks at most once an interval while anyone follows.",
    rows: [
      {
        figure: 'upstream status calls per poll interval',
        value: perInterval.toFixed(2),
        target: '<= 1',
        compared: `naive: ${followers} (one call per follower per interval)`,
        verdict: verdict(perInterval <= 1),
        command,
      },
      {
        figure: 'requests from followers per upstream call',
        value: stack.calls.status ? ((seen.polls + seen.safetyPolls) / stack.calls.status).toFixed(1) : 'n/a',
        compared: `${seen.polls + seen.safetyPolls} status requests, ${seen.streamsOpened} streams`,
        command,
      },
    ],
    raw: { followers, pollers, streams, pollMs, durationMs, seen, upstreamStatusCalls: stack.calls.status },
  });
} finally {
  await crowd.stop();
  await stack.close();
}
