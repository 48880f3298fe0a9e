/**
 * Which client an address stands for, for the per-client limits. An IPv4 address is one client (many people behind
 * one NAT share it). An IPv6 client is given a whole /64 network: a home line, a phone on a mobile network, a
 * server, each picks addresses in it at will (privacy extensions change them every day), so limits counted per
 * IPv6 address would let anyone take 2^64 fresh quotas by changing the last half of the address. ipaddr.js reads
 * the address (the proxy's bank-logo route already relies on it): plain JavaScript, so it runs on every runtime the
 * proxy does. Never imported by the widget.
 */
import ipaddr from 'ipaddr.js';

/** The /64 of an IPv6 address as `2001:db8:1:2::/64`, the IPv4 of a mapped one, anything else as it is. */
export function clientNetwork(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1'); // an address as a URL writes it
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare); // an IPv4-mapped IPv6 address is the IPv4 client it is
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const [a, b, c, d] = (parsed as ipaddr.IPv6).parts.map((part) => part.toString(16));
  return `${a}:${b}:${c}:${d}::/64`;
}
