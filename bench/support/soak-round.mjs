// One round of the memory soak, played from outside the proxy's process over loopback: what the browsers and
// the payment service do to a live proxy that holds a fixed set of payments. The browsers of the watched
// payments poll their status; event streams are opened on some of them, read, and closed by the browser (or by
// the proxy, once the payment is final); the sandbox moves a few payments on (pending -> in_check, and the ones
// moved last round in_check -> finished) and its signed callbacks reach the proxy. The set never grows: the
// payments that become final stay in it and are still polled, as a paid checkout keeps its page open. Every
// answer is checked, so a round that stopped working cannot pass for a flat one.
import { eachLimited } from './soak-fill.mjs';
import { BASE_PATH } from './stack.mjs';

/** POST /status for each payment, as their pages poll it. */
async function pollAll(proxyUrl, polled, concurrency) {
  await eachLimited(polled, concurrency, async ({ id, token }) => {
    const answer = await fetch(`${proxyUrl}${BASE_PATH}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentId: id, token }),
    });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`a status poll of ${id} answered ${answer.status}: ${text.slice(0, 200)}`);
  });
}

/**
 * An open event stream, read block by block. `next(predicate)` resolves with the version of the first payment
 * event after those already read that satisfies it; the stream ends with close() (the browser leaves).
 */
async function openStream(proxyUrl, { id, token }, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`the event stream of ${id} was still open after ${timeoutMs} ms`)), timeoutMs);
  const answer = await fetch(`${proxyUrl}${BASE_PATH}/events?paymentId=${encodeURIComponent(id)}&token=${token}`, {
    signal: controller.signal,
  });
  if (answer.status !== 200) {
    clearTimeout(timer);
    controller.abort();
    throw new Error(`the event stream of ${id} answered ${answer.status}`);
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const next = async (wanted) => {
    for (let chunks = 0; chunks < 1_000; chunks++) {
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop();
      for (const block of blocks) {
        const version = Number(/^id: (\d+)$/m.exec(block)?.[1]);
        if (/^event: payment$/m.test(block) && wanted(version, block)) return version;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream of ${id} ended before the awaited event`);
      buffered += value;
    }
    throw new Error(`the event stream of ${id} sent 1,000 chunks without the awaited event`);
  };
  const close = () => {
    clearTimeout(timer);
    controller.abort();
    reader.cancel().catch(() => {});
  };
  return { next, close };
}

/**
 * One round. `polled` are polled; streams are opened on `moving` (this round's payments to put in check),
 * `paying` (last round's, to be paid) and `others`, which are only read and closed. Resolves with what it did.
 */
export async function soakRound({ proxyUrl, sandbox, polled, moving, paying, others, concurrency = 16, timeoutMs = 60_000 }) {
  await pollAll(proxyUrl, polled, concurrency);

  const followed = [...moving, ...paying, ...others];
  /** Each followed payment's open stream and the version of the last event it sent. */
  const open = new Map();
  try {
    await eachLimited(followed, concurrency, async (payment) => {
      const stream = await openStream(proxyUrl, payment, timeoutMs);
      open.set(payment.id, { stream, version: 0 });
      open.get(payment.id).version = await stream.next(() => true);
    });
    // The service moves the payments on; its callbacks reach the proxy, whose broadcasts reach the open streams.
    for (const { id } of moving) sandbox.act(id, 'in-check');
    for (const { id } of paying) sandbox.act(id, 'pay');
    await Promise.all([
      ...moving.map(({ id }) => open.get(id).stream.next((version) => version > open.get(id).version)),
      ...paying.map(({ id }) => open.get(id).stream.next((version, block) => version > open.get(id).version && /"final":true/.test(block))),
    ]);
  } finally {
    for (const { stream } of open.values()) stream.close();
  }
  await sandbox.idle();
  return { polls: polled.length, streams: followed.length, changed: moving.length + paying.length };
}
