/**
 * The Lua scripts of the Redis store. Each runs atomically in Redis, so instances never interleave inside
 * one decision. Keys are passed in KEYS, except the per-user budget lists, named from a prefix in ARGV.
 */

/**
 * The budget (rules of fair-budget.ts, same order and waits) and the shared 429 pause, on Redis's clock.
 * KEYS: team list ("at|user"), askers zset, pause key. ARGV: per-user list prefix, user, limit, window, reserve.
 * Returns {1} or {0, reason, retryAfterMs}.
 */
export const budgetScript = `
local team, asked, pause = KEYS[1], KEYS[2], KEYS[3]
local userPrefix, user = ARGV[1], ARGV[2]
local limit, window, reserve = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = tonumber(redis.call('GET', pause) or '0')
if now < paused then return {0, 'paused', paused - now} end
local since = now - window
local function atOf(entry) return tonumber(string.sub(entry, 1, string.find(entry, '|', 1, true) - 1)) end
while true do
  local head = redis.call('LINDEX', team, 0)
  if not head or atOf(head) > since then break end
  redis.call('LPOP', team)
  redis.call('LPOP', userPrefix .. string.sub(head, string.find(head, '|', 1, true) + 1))
end
redis.call('ZREMRANGEBYSCORE', asked, '-inf', since)
redis.call('ZADD', asked, now, user)
redis.call('PEXPIRE', asked, window * 2)
local mykey = userPrefix .. user
local live = redis.call('LLEN', team)
local mine = redis.call('LLEN', mykey)
local function wait(at) return math.max(1, at + window - now) end
if live >= limit then return {0, 'team', wait(atOf(redis.call('LINDEX', team, live - limit)))} end
if mine > 0 and live >= limit - reserve then
  return {0, 'team', wait(atOf(redis.call('LINDEX', team, live - limit + reserve)))}
end
local active = redis.call('ZCARD', asked)
if active > 1 then
  local share = math.max(1, math.floor(limit / active))
  if mine >= share then return {0, 'fair_share', wait(tonumber(redis.call('LINDEX', mykey, mine - share)))} end
end
redis.call('RPUSH', team, now .. '|' .. user)
redis.call('RPUSH', mykey, now)
redis.call('PEXPIRE', team, window * 2)
redis.call('PEXPIRE', mykey, window * 2)
return {1}
`;

/** Raises the pause to ARGV[1] (epoch ms) unless it is already later. KEYS: pause key. */
export const pauseScript = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = tonumber(ARGV[1])
if untilMs > current then redis.call('SET', KEYS[1], ARGV[1], 'PXAT', untilMs) end
return 1
`;

/**
 * Creates or updates a project summary for its owner. KEYS: project hash, owner's project zset.
 * ARGV: project id, user, at (ms), at (ISO), then field/value pairs of the patch.
 */
export const noteProjectScript = `
redis.call('HSETNX', KEYS[1], 'owner', ARGV[2])
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then return 0 end
if redis.call('HSETNX', KEYS[1], 'created_at', ARGV[4]) == 1 then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
redis.call('HSET', KEYS[1], 'updated_at', ARGV[4])
for index = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[index], ARGV[index + 1]) end
return 1
`;

/**
 * Starts a generation: appends the turn, empties the event stream, marks the generation running (kept at
 * most ARGV[5] ms if its instance dies). KEYS: turns list, events stream, generation hash, project hash,
 * owner's project zset. ARGV: turn JSON, project id, user, at ms, running TTL ms, at ISO.
 */
export const beginGenerationScript = `
local generation = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[3], 'generation', generation, 'ended', '0')
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('HSETNX', KEYS[4], 'owner', ARGV[3])
if redis.call('HSETNX', KEYS[4], 'created_at', ARGV[6]) == 1 then
  redis.call('HSET', KEYS[4], 'updated_at', ARGV[6])
  redis.call('ZADD', KEYS[5], ARGV[4], ARGV[2])
end
return generation
`;

/**
 * Appends one event if its generation is still the latest. KEYS: generation hash, events stream.
 * ARGV: generation, event id, data, max length, running TTL ms.
 */
export const appendEventScript = `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '0-' .. ARGV[2], 'd', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
`;

/**
 * Ends a generation: its outcome into its turn, and the retention time on its events.
 * KEYS: generation hash, events stream, turns list. ARGV: generation, outcome JSON, retention ms.
 */
export const endGenerationScript = `
local index = tonumber(ARGV[1]) - 1
local turn = redis.call('LINDEX', KEYS[3], index)
if turn then
  local decoded = cjson.decode(turn)
  decoded.outcome = cjson.decode(ARGV[2])
  redis.call('LSET', KEYS[3], index, cjson.encode(decoded))
end
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'ended', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`;

/**
 * Reads the latest generation after an id, atomically with its state. KEYS: generation hash, events stream.
 * ARGV: after. Returns {} when nothing is recorded, else {generation, ended, id1, data1, id2, data2, ...}.
 */
export const readEventsScript = `
local state = redis.call('HMGET', KEYS[1], 'generation', 'ended')
if not state[1] then return {} end
local out = {state[1], state[2]}
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[1], '+', 'COUNT', 1000)) do
  out[#out + 1] = string.sub(entry[1], 3)
  out[#out + 1] = entry[2][2]
end
return out
`;

/** Counts one generation in a quota window if under the limit (KEYS: counter; ARGV: limit, expires at ms); returns { counted, used }. */
export const takeQuotaScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return {1, used}
`;

/** Gives one generation back to a quota window, never below zero (KEYS: counter). */
export const returnQuotaScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;
