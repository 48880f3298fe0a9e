/**
 * Which client an address stands for, for the per-client limits. An IPv4 address is one client (many people behind
 * one NAT share it). An IPv6 client is given a whole /64 network: a home line, a phone on a mobile network, a
 * server, each picks addresses in it at will (privacy extensions change them every day), so limits counted per
 * IPv6 address would let anyone take 2^64 fresh quotas by changing the last half of the address. Without code for
 * node:net, so that it runs on every runtime the proxy does.
 */

const HEXTET = /^[0-9a-f]{1,4}$/i;

/**
 * An address written with its port, as some web servers write X-Forwarded-For (Azure Application Gateway:
 * `203.0.113.7:51234`, `[2001:db8::1]:51234`): the port is the client's connection, a new one each time, and
 * counted with it every connection was a fresh client.
 */
const WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$|^\[([^\]]*)\]:\d{1,5}$/;

/** The /64 of an IPv6 address as `2001:db8:1:2::/64`, the IPv4 of a mapped one, anything else as it is. */
export function clientNetwork(address: string): string {
  const withPort = WITH_PORT.exec(address);
  const host = withPort ? (withPort[1] ?? withPort[2]!) : address;
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''); // [brackets] and a %zone aside
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1]!;
  const groups = hextets(bare);
  if (!groups) return withPort ? host : address;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The eight groups of an IPv6 address written with or without `::`, or undefined when it is no IPv6 address. */
function hextets(text: string): string[] | undefined {
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head, tail] = halves.map((half) => (half === '' ? [] : half.split(':')));
  const given = [...head!, ...(tail ?? [])];
  if (!given.every((g) => HEXTET.test(g))) return undefined;
  if (tail === undefined) return given.length === 8 ? given : undefined;
  if (given.length > 7) return undefined;
  return [...head!, ...Array<string>(8 - given.length).fill('0'), ...tail];
}
