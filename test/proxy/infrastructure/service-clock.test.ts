import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../../src/proxy/infrastructure/service-clock.js';
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

  it('follows the service when its clock is set right, and ignores an answer without a time', () => {
    const clock = new ManualClock();
    const service = new ServiceClock(clock);
    service.heard(seconds(clock.now() - 3_600_000), clock.now(), clock.now());
    service.heard(undefined, clock.now(), clock.now());
    service.heard('soon', clock.now(), clock.now());
    expect(Math.abs(service.now() - clock.now() + 3_600_000)).toBeLessThanOrEqual(1_000);
    service.heard(seconds(clock.now()), clock.now(), clock.now());
    expect(service.now()).toBe(clock.now());
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
