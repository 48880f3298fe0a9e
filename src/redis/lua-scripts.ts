/**
 * The store operations that read and then write, as Lua scripts: Redis runs a script without interleaving any
 * other client's command, so a check and its write cannot be split by another proxy instance (WATCH/MULTI would
 * need a retry loop and a round trip more). ioredis sends each script by its SHA1 and loads it once when the
 * server does not know it yet (after a restart, or on a fresh server), so the text crosses the wire rarely.
 *
 * Operations that are a single command (the order claim is SET NX PX, the announcement claim too) need no script.
 */
import type { Redis } from 'ioredis';

export interface LuaScript {
  /** The command name ioredis gives the script on a connection; prefixed so that it cannot shadow a real command. */
  readonly name: string;
  readonly numberOfKeys: number;
  readonly lua: string;
}

/**
 * Deletes KEYS[1] only while it still holds ARGV[1]. Releasing an order's claim needs it (only its owner may
 * give it back: a create that outlived its lease must not free the claim of the create that came after it), and
 * so does releasing an announcement (a committed one must stay). Returns 1 when it deleted.
 */
export const DELETE_IF_EQUALS: LuaScript = {
  name: 'payinDeleteIfEquals',
  numberOfKeys: 1,
  lua: `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`,
};

/**
 * Compare-and-set of a payment: writes `version` = ARGV[2] and `record` = ARGV[3] and sets the expiry ARGV[4]
 * only when the stored version is ARGV[1] (0 standing for "no payment stored"). Returns 1 when it wrote. The
 * version sits in its own hash field so that the script compares it without decoding the record.
 */
export const PUT_IF_VERSION: LuaScript = {
  name: 'payinPutIfVersion',
  numberOfKeys: 1,
  lua: `
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`,
};

/**
 * INCRBY and PEXPIRE as one step, returning the new value: two separate commands could leave a counter without
 * an expiry (a crash between them) and so a client rate-limited for good.
 */
export const COUNT_WITH_EXPIRY: LuaScript = {
  name: 'payinCountWithExpiry',
  numberOfKeys: 1,
  lua: `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return value`,
};

const SCRIPTS = [DELETE_IF_EQUALS, PUT_IF_VERSION, COUNT_WITH_EXPIRY];

/** Teaches a connection the scripts, under their names. Call once per connection that runs them. */
export function defineScripts(connection: Redis): void {
  for (const { name, numberOfKeys, lua } of SCRIPTS) connection.defineCommand(name, { numberOfKeys, lua });
}

type ScriptCommand = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Runs a script defined by defineScripts. ioredis adds such commands at run time, so they are looked up by name
 * here rather than declared on ioredis's own types (which would change them for every user of ioredis).
 */
export async function runScript(connection: Redis, script: LuaScript, keys: string[], args: (string | number)[]): Promise<number> {
  const command = (connection as unknown as Record<string, ScriptCommand | undefined>)[script.name];
  if (typeof command !== 'function') throw new Error(`the Redis script ${script.name} was not defined on this connection`);
  if (keys.length !== script.numberOfKeys) throw new Error(`the Redis script ${script.name} takes ${script.numberOfKeys} keys`);
  return Number(await command.apply(connection, [...keys, ...args]));
}
