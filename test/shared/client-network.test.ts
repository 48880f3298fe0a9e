/** Which client an address stands for (src/shared/client-network.ts): an IPv4 address, or an IPv6 /64. */
import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/shared/client-network.js';
import { resolveOptions } from '../../src/proxy/resolved-options.js';
import { clientIdFromHeader } from '../../src/standalone/client-ip-header.js';

describe('the client an address stands for', () => {
  it('is the /64 of an IPv6 address, however it is written', () => {
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:a:b:c:d',
      '2001:0DB8:0001:0002:ffff::',
      '[2001:db8:1:2::9]',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(clientNetwork(address), address).toBe('2001:db8:1:2::/64');
    }
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    // NAT64 writes the IPv4 it translates in the last 32 bits: still one /64.
    expect(clientNetwork('64:ff9b::203.0.113.7')).toBe(clientNetwork('64:ff9b::198.51.100.1'));
  });

  it('is an IPv4 address itself, mapped into IPv6 or not, and leaves anything else as it is', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    for (const other of ['unknown', 'user:42', '1::2::3', '2001:db8:1:2:3:4:5:6:7', 'g::1']) expect(clientNetwork(other)).toBe(other);
  });

  it('leaves out a port written after the address: each connection comes from another one', () => {
    expect(clientNetwork('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientNetwork('[2001:db8:1:2::9]:51234')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('[::ffff:203.0.113.7]:443')).toBe('203.0.113.7');
    // Without brackets the last group is part of the IPv6 address, never a port.
    expect(clientNetwork('2001:db8:1:2::443')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::443')).toBe('2001:db8:0:0::/64');
  });

  it("is what the standalone server's PAYIN_CLIENT_IP_HEADER counts by", () => {
    // The header's address as the proxy counts it, given clientIdFromHeader as its clientId (as the server gives it).
    const { clientId } = resolveOptions({
      resolveOrder: () => null,
      clientId: clientIdFromHeader('X-Real-IP'),
      env: {
        PAYIN_BASE_URL: 'http://127.0.0.1:9',
        PAYIN_MERCHANT_ID: 'merchant',
        PAYIN_TOKEN: 'token',
        PAYIN_SECRET: 'secret',
        PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/payin/callback',
      },
    });
    const from = (address: string) => clientId(new Request('http://127.0.0.1/payin/payments', { headers: { 'x-real-ip': address } }));
    expect(from('2001:db8:1:2::1')).toBe(from('2001:db8:1:2::ffff'));
    expect(from('203.0.113.7')).toBe('203.0.113.7');
  });
});
