/**
 * The store operations that read and then write, as Lua scripts: Redis runs a script without interleaving any
 * other client's command, so a check and its write cannot be split by another proxy instance (WATCH/MULTI would
 * need a retry loop and a round trip more). ioredis sends each script by its SHA1 and loads it once when the
 * server does not know it yet (after a restart, or on a fresh server), so the text crosses the wire rarely.
 *
 * Operations that are a single command (a lease is SET NX PX) need no script.
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
 * Sets KEYS[1] to expire ARGV[2] ms from now only while it still holds ARGV[1]: a create renewing its order's lease,
 * which must not lengthen the lease of the create that came after one whose lease lapsed. Returns 1 when it did.
 */
export const EXPIRE_IF_EQUALS: LuaScript = {
  name: 'payinExpireIfEquals',
  numberOfKeys: 1,
  lua: `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`,
};

/**
 * The console's listing sets of one payment (redis-console.ts), as a Lua function: `index(hash, version, prefix,
 * member, tags, orderId, expiry)`, for the payment hash `hash`, the version just written (nothing happens for
 * another: a newer write indexes itself), the key prefix, its member, its filters as a JSON array, its orderId and
 * its expiry in ms or ''. The member, filters and order it was listed under last are kept in the hash (lm, lt, lo),
 * to take it out of those first.
 */
const INDEX_FUNCTION = `
local function index(hash, version, p, member, tags, orderId, expiry)
  if tonumber(redis.call('HGET', hash, 'version') or '0') ~= tonumber(version) then
    return 0
  end
  local old = redis.call('HGET', hash, 'lm')
  if old then
    for _, t in ipairs(cjson.decode(redis.call('HGET', hash, 'lt'))) do
      redis.call('ZREM', p .. 'list:' .. t, old)
    end
    redis.call('ZREM', p .. 'list-order:' .. redis.call('HGET', hash, 'lo'), old)
    redis.call('ZREM', p .. 'open-expiry', old)
  end
  local open = false
  for _, t in ipairs(cjson.decode(tags)) do
    redis.call('ZADD', p .. 'list:' .. t, 0, member)
    if t == 'open' then open = true end
  end
  redis.call('ZADD', p .. 'list-order:' .. orderId, 0, member)
  if open and expiry ~= '' then
    redis.call('ZADD', p .. 'open-expiry', tonumber(expiry), member)
  end
  redis.call('HSET', hash, 'lm', member, 'lt', tags, 'lo', orderId)
  return 1
end
`;

/**
 * Indexes one payment as its record `version` puts it (INDEX_FUNCTION): KEYS[1] its hash, ARGV[1] the version,
 * ARGV[2..6] the prefix, member, filters, orderId and expiry. For payments written before the console's sets
 * existed; every write indexes its payment in its own script.
 */
export const INDEX_PAYMENT: LuaScript = {
  name: 'payinIndexPayment',
  numberOfKeys: 1,
  lua: `${INDEX_FUNCTION}
return index(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])`,
};

/** The compare-and-set of PUT_IF_VERSION, shared with PUT_AND_ENQUEUE. */
const PUT_IF_VERSION_BODY = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
if tonumber(ARGV[4]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  redis.call('PERSIST', KEYS[1])
end
if ARGV[6] == '1' then
  redis.call('ZADD', KEYS[2], 0, ARGV[5])
else
  redis.call('ZREM', KEYS[2], ARGV[5])
end`;

/**
 * Compare-and-set of a payment: writes `version` = ARGV[2] and `record` = ARGV[3] only when the stored version
 * is ARGV[1] (0 standing for "no payment stored"), then keeps it for ARGV[4] ms (0: for good, a final payment)
 * and puts the id ARGV[5] in the follow index KEYS[2] when ARGV[6] is '1', else takes it out; and moves it in the
 * console's listing sets (ARGV[7..11]: INDEX_FUNCTION's prefix, member, filters, orderId and expiry) in the same
 * script, so that a process that dies after the write leaves no payment listed as it was before. Returns 1 when it
 * wrote. The version sits in its own hash field so that the script compares it without decoding the record.
 */
export const PUT_IF_VERSION: LuaScript = {
  name: 'payinPutIfVersion',
  numberOfKeys: 2,
  lua: `${INDEX_FUNCTION}${PUT_IF_VERSION_BODY}
index(KEYS[1], ARGV[2], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11])
return 1`,
};

/**
 * PUT_IF_VERSION and, only when it wrote, ENQUEUE_ANNOUNCEMENT, as one script: the payment's state, its listing and
 * its announcement are written together or not at all. KEYS[1..2] and ARGV[1..11] as for PUT_IF_VERSION; KEYS[3]
 * the "announced" marker, KEYS[4] the entry hash, KEYS[5] the outbox, ARGV[12] the outbox member, ARGV[13] when
 * it is due. Returns 1 when the payment was written.
 */
export const PUT_AND_ENQUEUE: LuaScript = {
  name: 'payinPutAndEnqueue',
  numberOfKeys: 5,
  lua: `${INDEX_FUNCTION}${PUT_IF_VERSION_BODY}
index(KEYS[1], ARGV[2], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11])
if redis.call('EXISTS', KEYS[3]) == 0 and redis.call('EXISTS', KEYS[4]) == 0 then
  redis.call('HSET', KEYS[4], 'attempts', 0, 'dueAt', ARGV[13])
  redis.call('ZADD', KEYS[5], ARGV[13], ARGV[12])
end
return 1`,
};

/**
 * Queues an announcement: KEYS[1] the "announced" marker, KEYS[2] the entry hash, KEYS[3] the outbox (a sorted
 * set of members ARGV[1] scored by when they are due, ARGV[2]). Nothing happens, and 0 is returned, when the
 * pair was announced or is queued already.
 */
export const ENQUEUE_ANNOUNCEMENT: LuaScript = {
  name: 'payinEnqueueAnnouncement',
  numberOfKeys: 3,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], 'attempts', 0, 'dueAt', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1`,
};

/** Lua lines that set `now` to Redis's own clock in epoch ms: leases are measured there, whichever instance holds them. */
const NOW_ON_REDIS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Takes an outbox entry (KEYS[1] its hash, KEYS[2] the outbox) for ARGV[2] ms unless it is held: the entry's
 * score in the outbox becomes the end of the lease, so that it is not listed as due while held. The lease is
 * measured on Redis's clock, so it lapses even when the holder's instance is gone. Returns {attempts, dueAt},
 * or 0 when the entry is held or gone.
 */
export const CLAIM_ANNOUNCEMENT: LuaScript = {
  name: 'payinClaimAnnouncement',
  numberOfKeys: 2,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
${NOW_ON_REDIS}local held = tonumber(redis.call('HGET', KEYS[1], 'heldUntil') or '0')
if held > now then
  return 0
end
redis.call('HSET', KEYS[1], 'heldUntil', now + tonumber(ARGV[2]))
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
return {tonumber(redis.call('HGET', KEYS[1], 'attempts')), tonumber(redis.call('HGET', KEYS[1], 'dueAt'))}`,
};

/**
 * The deliverer is still at work: a held entry (KEYS[1]) is held until ARGV[2] ms from now, on Redis's clock, and
 * its score in the outbox (KEYS[2]) moves with it. 0 when it is not held (the lease lapsed) or gone.
 */
export const EXTEND_ANNOUNCEMENT: LuaScript = {
  name: 'payinExtendAnnouncement',
  numberOfKeys: 2,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
${NOW_ON_REDIS}local held = tonumber(redis.call('HGET', KEYS[1], 'heldUntil') or '0')
if held <= now then
  return 0
end
redis.call('HSET', KEYS[1], 'heldUntil', now + tonumber(ARGV[2]))
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
return 1`,
};

/** The hook succeeded: the entry (KEYS[1]) leaves the outbox (KEYS[2]) and the marker KEYS[3] is set for good. */
export const COMMIT_ANNOUNCEMENT: LuaScript = {
  name: 'payinCommitAnnouncement',
  numberOfKeys: 3,
  lua: `
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], '1')
return 1`,
};

/**
 * The hook failed: ARGV[3] more attempts counted (1; 0 when the hook was not called, its order busy), the claim given
 * back, the entry due again at ARGV[2].
 */
export const RESCHEDULE_ANNOUNCEMENT: LuaScript = {
  name: 'payinRescheduleAnnouncement',
  numberOfKeys: 2,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'attempts', tonumber(ARGV[3] or '1'))
redis.call('HSET', KEYS[1], 'dueAt', ARGV[2], 'heldUntil', 0)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
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

const SCRIPTS = [
  INDEX_PAYMENT,
  DELETE_IF_EQUALS,
  EXPIRE_IF_EQUALS,
  PUT_IF_VERSION,
  PUT_AND_ENQUEUE,
  COUNT_WITH_EXPIRY,
  ENQUEUE_ANNOUNCEMENT,
  CLAIM_ANNOUNCEMENT,
  EXTEND_ANNOUNCEMENT,
  COMMIT_ANNOUNCEMENT,
  RESCHEDULE_ANNOUNCEMENT,
];

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
  return Number(await runScriptRaw(connection, script, keys, args));
}

/** runScript for a script that answers something other than a number. */
export async function runScriptRaw(connection: Redis, script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  const command = (connection as unknown as Record<string, ScriptCommand | undefined>)[script.name];
  if (typeof command !== 'function') throw new Error(`the Redis script ${script.name} was not defined on this connection`);
  if (keys.length !== script.numberOfKeys) throw new Error(`the Redis script ${script.name} takes ${script.numberOfKeys} keys`);
  return command.apply(connection, [...keys, ...args]);
}
