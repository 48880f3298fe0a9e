/**
 * Which client an address stands for, for the per-client limits. An IPv4 address is one client (many people behind
 * one NAT share it). An IPv6 client is given a whole /64 network: a home line, a phone on a mobile network, a
 * server, each picks addresses in it at will (privacy extensions change them every day), so limits counted per
 * IPv6 address would let anyone take 2^64 fresh quotas by changing the last half of the address. ipaddr.js reads
 * the address (the proxy's bank-logo route already relies on it): plain JavaScript, so it runs on every runtime the
 * proxy does. Never imported by the widget.
 */
import ipaddr from 'ipaddr.js';

/**
 * An address written with its port, as some web servers write X-Forwarded-For (Azure Application Gateway:
 * `203.0.113.7:51234`, `[2001:db8::1]:51234`): the port is the client's connection, a new one each time, and
 * counted with it every connection was a fresh client.
 */
const WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$|^\[([^\]]*)\]:\d{1,5}$/;

/** The /64 of an IPv6 address as `2001:db8:1:2::/64`, the IPv4 of a mapped one, anything else as it is. */
export function clientNetwork(address: string): string {
  const withPort = WITH_PORT.exec(address);
  // Without a port, an IPv6 address may still come in the [brackets] of a URL.
  const host = withPort ? (withPort[1] ?? withPort[2]!) : address.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(host)) return withPort ? host : address;
  const parsed = ipaddr.process(host); // an IPv4-mapped IPv6 address is the IPv4 client it is
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const [a, b, c, d] = (parsed as ipaddr.IPv6).parts.map((part) => part.toString(16));
  return `${a}:${b}:${c}:${d}::/64`;
}
