/**
 * Which connections the per-client cap counts together: the same client as the per-client rate limits
 * (client-network.ts), whatever form its address takes. Loopback has one IPv6 address and, on a dual-stack server,
 * writes every IPv4 peer mapped, so the forms are handed over here as node:net hands them to the server.
 */
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { capConnectionsPerClient } from '../../src/server/connections-per-client.js';

/** A server capped at `max` per client, and a way to open a connection from an address: whether it was kept. */
function cappedServer(max: number) {
  const server = new EventEmitter();
  capConnectionsPerClient(server as unknown as Server, max);
  const connect = (remoteAddress: string) => {
    const socket = Object.assign(new EventEmitter(), { remoteAddress, destroyed: false });
    (socket as unknown as Socket).destroy = () => {
      socket.destroyed = true;
      socket.emit('close');
      return socket as unknown as Socket;
    };
    server.emit('connection', socket);
    return !socket.destroyed;
  };
  return { connect };
}

describe('the connection cap per client', () => {
  it('counts an IPv4 address and its IPv4-mapped IPv6 form as one client', () => {
    const { connect } = cappedServer(2);
    expect(connect('203.0.113.7')).toBe(true);
    expect(connect('::ffff:203.0.113.7')).toBe(true);
    expect(connect('::ffff:203.0.113.7')).toBe(false);
    expect(connect('203.0.113.8')).toBe(true);
  });

  it('counts the addresses of one IPv6 /64 as one client, and another /64 apart', () => {
    const { connect } = cappedServer(2);
    expect(connect('2001:db8:1:2::5')).toBe(true);
    expect(connect('2001:db8:1:2:abcd:ef01:2345:6789')).toBe(true);
    expect(connect('2001:db8:1:2::ffff')).toBe(false);
    expect(connect('2001:db8:1:3::5')).toBe(true);
  });
});
