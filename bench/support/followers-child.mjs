// Browsers following one payment, simulated in a process of their own: pollers POST {basePath}/status every
// poll interval with the widget's +-20 % jitter, each starting at a random point of the first interval, and
// event-stream clients hold GET {basePath}/events open with the widget's 15 s safety poll beside it. All of them
// stop at `durationMs`. Counts what they sent and received.
import http from 'node:http';
import { serveRequests } from './child.mjs';

const SAFETY_POLL_MS = 15_000;

function post(url, body) {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
    });
    request.setTimeout(10_000, () => request.destroy());
    request.once('error', () => resolve(0));
    request.end(body);
  });
}

async function follow({ proxyUrl, basePath, paymentId, token, pollers, streams, pollMs, durationMs }) {
  const statusUrl = `${proxyUrl}${basePath}/status`;
  const body = JSON.stringify({ paymentId, token });
  const stats = { polls: 0, pollErrors: 0, streamsOpened: 0, streamErrors: 0, events: 0, safetyPolls: 0 };
  const timers = new Set();
  const later = (fn, delay) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, delay);
    timers.add(timer);
  };
  const jitter = () => pollMs * (0.8 + Math.random() * 0.4);
  const started = Date.now();
  const running = () => Date.now() - started < durationMs;

  for (let i = 0; i < pollers; i++) {
    const poll = async () => {
      if (!running()) return;
      const status = await post(statusUrl, body);
      stats.polls += 1;
      if (status !== 200) stats.pollErrors += 1;
      later(poll, jitter());
    };
    later(poll, Math.random() * pollMs);
  }
  const requests = [];
  for (let i = 0; i < streams; i++) {
    const url = `${proxyUrl}${basePath}/events?paymentId=${encodeURIComponent(paymentId)}&token=${encodeURIComponent(token)}`;
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) stats.streamErrors += 1;
      else stats.streamsOpened += 1;
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        stats.events += chunk.split('event: payment').length - 1;
      });
      response.on('error', () => {});
    });
    request.on('error', () => (stats.streamErrors += 1));
    requests.push(request);
    const safety = async () => {
      if (!running()) return;
      await post(statusUrl, body);
      stats.safetyPolls += 1;
      later(safety, SAFETY_POLL_MS);
    };
    later(safety, SAFETY_POLL_MS);
  }
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  for (const timer of timers) clearTimeout(timer);
  for (const request of requests) request.destroy();
  return { ...stats, elapsedMs: Date.now() - started };
}

serveRequests({ follow });
