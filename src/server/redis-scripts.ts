/**
 * The Lua scripts of the Redis store. Each runs atomically in Redis, so instances never interleave inside
 * one decision. Keys are passed in KEYS. The scripts that record a generation publish on the name of its
 * events key, which wakes followers on every instance.
 */

/** Redis's clock in ms, for the scripts that keep time on it (every instance then agrees). */
const redisNow = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * The budget (rules of fair-budget.ts, same order and waits) and the shared 429 pause, on Redis's clock.
 * KEYS: log list (times), served zset (user -> last served), waiting zset (user -> last served when refused),
 * waiting-until zset (user -> until), pause key. ARGV: user, limit, holdMs, burst, spreadMs, graceMs,
 * maxPauseMs (a stored pause further away than this is clamped when read; -1: no clamp).
 * Returns {1} or {0, reason, retryAfterMs}.
 */
export const budgetScript = `
local log, served, waiting, waitingUntil, pause = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local user = ARGV[1]
local limit, hold, burst = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local spread, grace = tonumber(ARGV[5]), tonumber(ARGV[6])
${redisNow}local paused = tonumber(redis.call('GET', pause) or '0')
local maxPause = tonumber(ARGV[7])
if maxPause >= 0 and paused > now + maxPause then paused = now + maxPause end
if now < paused then return {0, 'paused', paused - now} end
while true do
  local head = redis.call('LINDEX', log, 0)
  if not head or tonumber(head) > now - hold then break end
  redis.call('LPOP', log)
end
redis.call('ZREMRANGEBYSCORE', served, '-inf', now - 2 * hold)
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', waitingUntil, '-inf', now)) do redis.call('ZREM', waiting, gone) end
redis.call('ZREMRANGEBYSCORE', waitingUntil, '-inf', now)
local mine = redis.call('ZSCORE', served, user) or '-inf'
local ahead = redis.call('ZCOUNT', waiting, '-inf', '(' .. mine)
local live = redis.call('LLEN', log)
local function roomAt(need)
  local function within(cap, span)
    local index = live - cap + need - 1
    if index < 0 then return now end
    if index >= live then
      local newest = now
      if live > 0 then newest = math.max(now, tonumber(redis.call('LINDEX', log, -1))) end
      return newest + span
    end
    return tonumber(redis.call('LINDEX', log, index)) + span
  end
  return math.max(within(limit, hold), within(burst, spread))
end
local free = roomAt(ahead + 1)
local ttl = hold * 2
if free <= now then
  redis.call('RPUSH', log, now)
  redis.call('ZADD', served, now, user)
  redis.call('ZREM', waiting, user)
  redis.call('ZREM', waitingUntil, user)
  redis.call('PEXPIRE', log, ttl)
  redis.call('PEXPIRE', served, ttl)
  return {1}
end
local wait = free - now
local told = math.max(1, math.ceil(wait / 1000)) * 1000
redis.call('ZADD', waiting, mine, user)
redis.call('ZADD', waitingUntil, now + told + grace, user)
for _, key in ipairs({waiting, waitingUntil}) do redis.call('PEXPIRE', key, ttl + told + grace) end
local reason = 'team'
if ahead > 0 and roomAt(1) <= now then reason = 'fair_share' end
return {0, reason, wait}
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
 * Starts a generation: numbers it (the project's count of generations; a project recorded before the count was
 * kept counts its turns); a record another user owns (only if the owner key was lost) is dropped first, as the memory
 * store drops it, so nothing of it becomes the new owner's; appends the turn and keeps the newest ARGV[7], empties the event stream, marks the
 * generation running (kept at most ARGV[5] ms if its instance dies). KEYS: turns list, events stream, generation
 * hash, project hash, owner's project zset. ARGV: turn JSON, project id, user, at ms, running TTL ms, at ISO, max
 * turns, max event logs per user. Also KEYS[6], the user's event logs (a zset of projects by when their latest
 * generation began): past ARGV[8] of them, the least recently begun leave it and are returned after the number, for
 * the store to drop their logs (`dropEventLogScript`).
 */
export const beginGenerationScript = `
local owner = redis.call('HGET', KEYS[4], 'owner')
if owner and owner ~= ARGV[3] then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
end
if redis.call('HEXISTS', KEYS[4], 'generations') == 0 then
  redis.call('HSET', KEYS[4], 'generations', redis.call('LLEN', KEYS[1]))
end
local generation = redis.call('HINCRBY', KEYS[4], 'generations', 1)
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[7]), -1)
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[3], 'generation', generation, 'ended', '0', 'bytes', '0')
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('HSETNX', KEYS[4], 'owner', ARGV[3])
if redis.call('HSETNX', KEYS[4], 'created_at', ARGV[6]) == 1 then
  redis.call('HSET', KEYS[4], 'updated_at', ARGV[6])
  redis.call('ZADD', KEYS[5], ARGV[4], ARGV[2])
end
redis.call('ZADD', KEYS[6], ARGV[4], ARGV[2])
redis.call('PEXPIRE', KEYS[6], ARGV[5])
local over = redis.call('ZCARD', KEYS[6]) - tonumber(ARGV[8])
local evicted = over > 0 and redis.call('ZRANGE', KEYS[6], 0, over - 1) or {}
local dropped = {}
for _, project in ipairs(evicted) do
  if project ~= ARGV[2] then
    redis.call('ZREM', KEYS[6], project)
    dropped[#dropped + 1] = project
  end
end
redis.call('PUBLISH', KEYS[2], generation)
return {generation, unpack(dropped)}
`;

/**
 * Drops a generation's event log (one its user's newer logs pushed out): its events and its state, so what its relay
 * still appends is not kept. KEYS: generation hash, events stream.
 */
export const dropEventLogScript = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', KEYS[2], 'end')
return 1
`;

/**
 * Appends events, in order, if their generation is still the latest, then drops the oldest events while the log
 * holds more than the most events or bytes (the newest always stays); wakes followers once. KEYS: generation hash,
 * events stream. ARGV: generation, max events, running TTL ms, max bytes, then each event's id and data.
 */
export const appendEventsScript = `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
local added = 0
for index = 5, #ARGV - 1, 2 do
  redis.call('XADD', KEYS[2], '0-' .. ARGV[index], 'd', ARGV[index + 1])
  added = added + string.len(ARGV[index + 1])
end
local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', added)
local maxEvents, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[4])
while redis.call('XLEN', KEYS[2]) > 1 and (bytes > maxBytes or redis.call('XLEN', KEYS[2]) > maxEvents) do
  local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1]
  bytes = redis.call('HINCRBY', KEYS[1], 'bytes', -string.len(oldest[2][2]))
  redis.call('XDEL', KEYS[2], oldest[1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', KEYS[2], ARGV[#ARGV - 1])
return 1
`;

/**
 * Ends a generation: its outcome into its turn (unless the turn was trimmed as one of the oldest), and the
 * retention time on its events. KEYS: generation hash, events stream, turns list, project hash. ARGV: generation,
 * outcome JSON, retention ms.
 */
export const endGenerationScript = `
local count = tonumber(redis.call('HGET', KEYS[4], 'generations') or redis.call('LLEN', KEYS[3]))
local index = redis.call('LLEN', KEYS[3]) - (count - tonumber(ARGV[1])) - 1
local turn = index >= 0 and redis.call('LINDEX', KEYS[3], index)
if turn then
  local decoded = cjson.decode(turn)
  decoded.outcome = cjson.decode(ARGV[2])
  redis.call('LSET', KEYS[3], index, cjson.encode(decoded))
end
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'ended', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', KEYS[2], 'end')
return 1
`;

/**
 * Reads the latest generation after an id, atomically with its state: a page of at most 1,000 events and, with
 * ARGV[2], at most that many bytes of data (at least one event). KEYS: generation hash, events stream.
 * ARGV: after, max bytes (optional). Returns {} when nothing is recorded, else {generation, ended, id1, data1, ...}.
 */
export const readEventsScript = `
local state = redis.call('HMGET', KEYS[1], 'generation', 'ended')
if not state[1] then return {} end
local out = {state[1], state[2]}
local maxBytes, bytes = tonumber(ARGV[2]), 0
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[1], '+', 'COUNT', 1000)) do
  bytes = bytes + string.len(entry[2][2])
  if maxBytes and bytes > maxBytes and #out > 2 then break end
  out[#out + 1] = string.sub(entry[1], 3)
  out[#out + 1] = entry[2][2]
end
return out
`;

/**
 * Counts one generation in a quota window if under the limit (KEYS: counter; ARGV: limit, the window's end in ms,
 * the longest clock skew kept up with in ms); returns { counted, used }. The counter outlives its window's end by the
 * skew: an instance whose clock is behind Redis's still counts in that window, and must find its count there.
 */
export const takeQuotaScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]))
return {1, used}
`;

/** Gives one generation back to a quota window, never below zero (KEYS: counter). */
export const returnQuotaScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/**
 * Holds or renews a relay's lease (KEYS: the project's relay zset, holder -> expiry on Redis's clock; ARGV: holder,
 * ttl ms): expired holders go, and the key lives as long as its latest lease.
 */
export const holdRelayScript = `${redisNow}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], latest[2])
return 0
`;

/** Whether any relay's lease of the project is unexpired (KEYS: the project's relay zset); 1 or 0. */
export const isRelayedScript = `${redisNow}
if redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf') > 0 then return 1 end
return 0
`;
