import { describe, expect, it } from 'vitest';
import { SAMPLES, ServiceClock } from '../../../src/proxy/infrastructure/service-clock.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

describe("the service's clock as the proxy learns it", () => {
  it('goes by its own clock until the service has answered, and after answers that agree within 2 s', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    expect(service.now()).toBe(clock.now());
    service.heard(seconds(clock.now() + 1_400), clock.now(), clock.now() + 300);
    expect(service.now()).toBe(clock.now());
  });

  it('keeps one offset while answers differ from it by a second or two, so that serverTime never jitters', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    service.heard(seconds(clock.now() + 600_000), clock.now(), clock.now() + 100);
    const learned = service.now() - clock.now();
    expect(Math.abs(learned - 600_000)).toBeLessThanOrEqual(1_000);
    for (const late of [0, 400, 900, 1_500]) {
      service.heard(seconds(clock.now() + 600_000), clock.now(), clock.now() + late);
      expect(service.now() - clock.now()).toBe(learned);
    }
    expect(service.toLocal(clock.now() + learned)).toBe(clock.now());
  });

  it('follows the service when its clock is set right, once most of its last answers say so, and ignores an answer without a time', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    for (let i = 0; i < SAMPLES; i++) service.heard(seconds(clock.now() - 3_600_000), clock.now(), clock.now());
    service.heard(undefined, clock.now(), clock.now());
    service.heard('soon', clock.now(), clock.now());
    expect(Math.abs(service.now() - clock.now() + 3_600_000)).toBeLessThanOrEqual(1_000);
    const majority = Math.floor(SAMPLES / 2) + 1;
    for (let i = 1; i <= majority; i++) {
      service.heard(seconds(clock.now()), clock.now(), clock.now());
      expect(service.now() === clock.now()).toBe(i === majority);
    }
  });

  it('is not moved by one answer far ahead and then one far behind (a replayed answer, a garbled datetime)', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    service.heard(seconds(clock.now() + 600_000), clock.now(), clock.now());
    const learned = service.now() - clock.now();
    service.heard(seconds(clock.now() + 600_000 + 23 * 3_600_000), clock.now(), clock.now());
    expect(service.now() - clock.now()).toBe(learned);
    service.heard(seconds(clock.now() + 600_000 - 23 * 3_600_000), clock.now(), clock.now());
    expect(service.now() - clock.now()).toBe(learned);
  });

  it('believes the second answer after a start over a first one far off, as over a second one far off', () => {
    const clock = new ManualClock();
    for (const order of [
      [3_600_000, 600_000],
      [600_000, 3_600_000],
    ]) {
      const service = new ServiceClock(clock);
      for (const ahead of order) service.heard(seconds(clock.now() + ahead), clock.now(), clock.now());
      expect(Math.abs(service.now() - clock.now() - 600_000)).toBeLessThanOrEqual(1_000);
    }
  });

  it("keeps the clock of most of the service's answers when one answer in three comes from a node of it an hour off", () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    const offsets: number[] = [];
    for (let i = 0; i < 4 * SAMPLES; i++) {
      const off = i % 3 === 2 ? 3_600_000 : 0;
      service.heard(seconds(clock.now() + off), clock.now(), clock.now());
      offsets.push(service.now() - clock.now());
    }
    expect(new Set(offsets)).toEqual(new Set([0]));
  });

  it('does not believe a datetime more than a day away: milliseconds read as seconds, or a garbled answer', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    service.heard(seconds(clock.now() + 600_000), clock.now(), clock.now());
    const learned = service.now() - clock.now();
    service.heard(clock.now(), clock.now(), clock.now());
    service.heard(seconds(clock.now() - 25 * 3_600_000), clock.now(), clock.now());
    expect(service.now() - clock.now()).toBe(learned);
  });
});
