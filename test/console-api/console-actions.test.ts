/**
 * What the console says of an action whose work is done when the ledger fails to take its line in the audit log:
 * the action happened (the shop heard the redelivery, the re-check recorded the service's answer), so the operator
 * must not be told that nothing was done and to try again, which would do it twice.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyLogger } from '../../src/proxy/logger.js';
import { consoleSetup } from './console-harness.js';

function recordingLogger() {
  const lines: string[] = [];
  const logger: ProxyLogger = {
    info: () => {},
    warn: () => {},
    error: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  };
  return { lines, logger };
}

describe('an action whose audit line cannot be written', () => {
  it('answers the redelivery the shop took, says the audit log missed it, and logs the line instead', async () => {
    let down = true;
    const heard: string[] = [];
    const log = recordingLogger();
    const world = consoleSetup({
      logger: log.logger,
      onPaymentUpdate: (payment) => {
        heard.push(payment.state);
        if (down) throw new Error('the shop database is down');
      },
    });
    await world.signIn();
    const { body } = await world.create('A-1');
    const id = body.payment.id;
    down = false;
    heard.length = 0;
    world.store.appendAudit = () => Promise.reject(new Error('the ledger database is down'));

    const done = await world.post<{ result: string }>(`/api/payments/${id}/redeliver`);
    expect(done.answer.status).toBe(200);
    expect(done.body.result).toMatch(/^sent: the shop took it \(not in the audit log: the ledger could not be written\)$/);
    expect(heard).toEqual(['pending']);
    expect(log.lines.some((line) => line.includes('audit') && line.includes('redeliver') && line.includes(id))).toBe(true);
  });

  it('keeps a refusal as it was, not a ledger outage, when its audit line cannot be written', async () => {
    let holding = false;
    let release: () => void = () => {};
    const world = consoleSetup({
      onPaymentUpdate: () => (holding ? new Promise<void>((resolve) => (release = resolve)) : undefined),
    });
    await world.signIn();
    const { body } = await world.create('A-2');
    const id = body.payment.id;
    world.store.appendAudit = () => Promise.reject(new Error('the ledger database is down'));
    // One redelivery holds the payment's lease while the shop's hook takes its time; a second one is refused.
    holding = true;
    const first = world.post(`/api/payments/${id}/redeliver`);
    const second = await world.post<{ error: { code: string; message: string } }>(`/api/payments/${id}/redeliver`);
    release();
    await first;
    expect(second.answer.status).toBe(409);
    expect(second.body.error.message).toMatch(/already being redelivered/);
  });
});
