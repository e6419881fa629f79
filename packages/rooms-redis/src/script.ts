// The store's one Lua script. Every call is one EVALSHA of it, so each store operation is atomic on the server:
// seqs are allocated and appended in one step (HINCRBY, then XADD with that seq as the entry ID and MAXLEN equal to
// the ring's capacity), and no two brokers can interleave inside a join, a post or a departure.
//
// ARGV: 1 op, 2 key prefix, 3 epoch, 4 broker id, 5 capacity, 6 max rooms, 7 max members, 8 max retained cursors,
// 9 max post keys, 10 activity entries kept per inbox, 11 member TTL (ms), then the op's own arguments from 12.
// Replies are arrays whose first element says how it went: "ok", "reset" (the epoch is not ours: the data was
// lost), or a refusal ("not-member", "room-limit", "member-limit", "refused", "no-room"), "replay" for a post key,
// or "recovering" (a join that would create a room while the store recovers from a reset: ask again later).
//
// Keys are built from the prefix and are not declared in KEYS: the store targets a standalone Redis (or a primary
// with replicas), not Redis Cluster.
export const STORE_SCRIPT = String.raw`
local op, P, epoch, B = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local capacity, maxRooms, maxMembers = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local maxRetained, maxKeys, activityMax, ttl = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Names are length-prefixed inside keys, so no room, role or broker name can reach another's keys.
local function R(room) return P .. 'room:' .. string.len(room) .. ':' .. room end
local function ROLE(role) return P .. 'role:' .. string.len(role) .. ':' .. role end
local function BROKER(b) return P .. 'broker:' .. string.len(b) .. ':' .. b end
local function json_list(t) if #t == 0 then return '[]' end return cjson.encode(t) end
local function INBOX(b) return BROKER(b) .. ':inbox' end

-- Broker b holds role (has an open connection of it); kept both ways, so activity finds the brokers of its recipients.
local function hold(b, role)
  redis.call('SADD', BROKER(b) .. ':roles', role)
  redis.call('SADD', ROLE(role) .. ':brokers', b)
end
local function release(b, role)
  redis.call('SREM', ROLE(role) .. ':brokers', b)
  return redis.call('SREM', BROKER(b) .. ':roles', role)
end

-- Body-free activity goes to the inbox of every broker that holds a recipient, once each, except the broker whose
-- call caused it (its call's result already named the recipients): a broker reads one stream, and only what it must
-- deliver, and no broker wakes for its own posts.
local function activity(room, kind, role, seq, cause, recipients)
  local to = json_list(recipients)
  local sent = {}
  for _, r in ipairs(recipients) do
    for _, b in ipairs(redis.call('SMEMBERS', ROLE(r) .. ':brokers')) do
      if b ~= cause and not sent[b] then
        sent[b] = true
        redis.call('XADD', INBOX(b), 'MAXLEN', '~', activityMax, '*', 'k', kind, 'r', room, 'p', role, 's', seq, 'to', to)
      end
    end
  end
end

-- Takes role out of room: its cursor joins the departed (the earliest dropped past maxRetained); the others hear it.
local function leave_room(room, role, kind, cause)
  local r = R(room)
  if redis.call('SREM', r .. ':members', role) == 0 then return nil end
  redis.call('SREM', ROLE(role) .. ':rooms', room)
  redis.call('ZADD', r .. ':departed', redis.call('HINCRBY', r, 'departures', 1), role)
  if redis.call('ZCARD', r .. ':departed') > maxRetained then
    local oldest = redis.call('ZPOPMIN', r .. ':departed', 1)
    redis.call('HDEL', r .. ':cursors', oldest[1])
  end
  local recipients = redis.call('SMEMBERS', r .. ':members')
  if kind == 'leave' then table.insert(recipients, role) end
  activity(room, kind, role, 0, cause, recipients)
  return recipients
end

-- Whether role has an open connection on any broker whose heartbeat has not expired.
local function present(role, now)
  for _, b in ipairs(redis.call('SMEMBERS', ROLE(role) .. ':brokers')) do
    local expiry = tonumber(redis.call('ZSCORE', P .. 'brokers', b))
    if expiry ~= nil and expiry >= now then return true end
  end
  return false
end

-- A role held by no broker leaves every room it is in, in room order; flat reply of room, recipients (JSON).
local function depart(role, cause, out)
  local rooms = redis.call('SMEMBERS', ROLE(role) .. ':rooms')
  table.sort(rooms)
  for _, room in ipairs(rooms) do
    local recipients = leave_room(room, role, 'disconnect', cause)
    if recipients ~= nil then
      table.insert(out, room)
      table.insert(out, json_list(recipients))
    end
  end
end

-- Broker b is gone (closed, or its heartbeat expired): its roles that no other broker holds leave their rooms.
local function drop_broker(b, cause, now)
  local key = BROKER(b) .. ':roles'
  local roles = redis.call('SMEMBERS', key)
  for _, role in ipairs(roles) do redis.call('SREM', ROLE(role) .. ':brokers', b) end
  redis.call('DEL', key, INBOX(b))
  redis.call('ZREM', P .. 'brokers', b)
  table.sort(roles)
  for _, role in ipairs(roles) do
    if not present(role, now) then depart(role, cause, {}) end
  end
end

if op == 'open' then
  redis.call('HSETNX', P .. 'meta', 'epoch', epoch)
  redis.call('HSETNX', P .. 'meta', 'limits', ARGV[12])
  return {'ok', redis.call('HGET', P .. 'meta', 'epoch'), redis.call('HGET', P .. 'meta', 'limits')}
end

if op == 'recover' then
  -- The first broker to notice a reset writes the new epoch and opens the recovery window (ARGV[14] ms): until it
  -- closes, no join creates a room, so every running broker can seed the rooms it knew before anyone starts one
  -- again at 1. The others take the epoch up. Every broker seeds the rooms it knew at the highest seq it saw, so
  -- numbers continue instead of starting again.
  if redis.call('HSETNX', P .. 'meta', 'epoch', ARGV[12]) == 1 then
    redis.call('HSET', P .. 'meta', 'recoveringUntil', now_ms() + tonumber(ARGV[14]))
  end
  redis.call('HSETNX', P .. 'meta', 'limits', ARGV[13])
  for i = 15, #ARGV, 2 do
    local room, floor = ARGV[i], tonumber(ARGV[i + 1])
    redis.call('SADD', P .. 'rooms', room)
    if (tonumber(redis.call('HGET', R(room), 'seq')) or 0) < floor then redis.call('HSET', R(room), 'seq', floor) end
  end
  return {'ok', redis.call('HGET', P .. 'meta', 'epoch')}
end

local found = redis.call('HGET', P .. 'meta', 'epoch')
if found ~= epoch then return {'reset', found or ''} end

if op == 'heartbeat' then
  local now = now_ms()
  local missing = redis.call('ZSCORE', P .. 'brokers', B) == false
  redis.call('ZADD', P .. 'brokers', now + ttl, B)
  -- The roles this broker holds are exactly the ones it names: added if missing (its entry was swept, or Redis lost
  -- them), and dropped if it no longer holds them (a detach that failed while Redis was away) and nobody else does.
  local held = {}
  for i = 12, #ARGV do
    held[ARGV[i]] = true
    hold(B, ARGV[i])
  end
  local stale = {}
  for _, role in ipairs(redis.call('SMEMBERS', BROKER(B) .. ':roles')) do
    if not held[role] then table.insert(stale, role) end
  end
  table.sort(stale)
  for _, role in ipairs(stale) do
    release(B, role)
    if not present(role, now) then depart(role, '', {}) end
  end
  local expired = redis.call('ZRANGEBYSCORE', P .. 'brokers', '-inf', '(' .. now)
  for _, b in ipairs(expired) do drop_broker(b, '', now) end
  return {'ok', missing and 1 or 0, #expired}
end

if op == 'close' then
  drop_broker(B, B, now_ms())
  return {'ok'}
end

if op == 'attach' then
  hold(B, ARGV[12])
  return {'ok'}
end

if op == 'detach' then
  local role = ARGV[12]
  local out = {'ok'}
  if release(B, role) == 0 then return out end
  if present(role, now_ms()) then return out end
  depart(role, B, out)
  return out
end

if op == 'join' then
  local room, role = ARGV[12], ARGV[13]
  local r = R(room)
  local created = redis.call('SISMEMBER', P .. 'rooms', room) == 0
  if created then
    -- A room that no broker has seeded yet may be one a running broker knew: wait until the window closes.
    local left = (tonumber(redis.call('HGET', P .. 'meta', 'recoveringUntil')) or 0) - now_ms()
    if left > 0 then return {'recovering', left} end
  end
  if created and redis.call('SCARD', P .. 'rooms') >= maxRooms then return {'room-limit'} end
  local joined = redis.call('SISMEMBER', r .. ':members', role) == 0
  if joined and redis.call('SCARD', r .. ':members') >= maxMembers then return {'member-limit'} end
  if created then
    redis.call('SADD', P .. 'rooms', room)
    redis.call('HSETNX', r, 'seq', 0)
    redis.call('HSETNX', r, 'chars', 0)
  end
  hold(B, role)
  local seq = tonumber(redis.call('HGET', r, 'seq'))
  if joined then
    redis.call('SADD', r .. ':members', role)
    redis.call('SADD', ROLE(role) .. ':rooms', room)
    -- A returning role whose cursor was retained resumes there; a new one starts before the oldest retained message.
    if redis.call('ZREM', r .. ':departed', role) == 0 then
      redis.call('HSET', r .. ':cursors', role, seq - redis.call('XLEN', r .. ':log'))
    end
  end
  local members = redis.call('SMEMBERS', r .. ':members')
  if joined then activity(room, 'join', role, 0, B, members) end
  local out = {'ok', created and 1 or 0, joined and 1 or 0, seq, tonumber(redis.call('HGET', r .. ':cursors', role))}
  for _, m in ipairs(members) do table.insert(out, m) end
  return out
end

if op == 'leave' then
  local recipients = leave_room(ARGV[12], ARGV[13], 'leave', B)
  if recipients == nil then return {'ok', 0} end
  local out = {'ok', 1}
  for _, m in ipairs(recipients) do table.insert(out, m) end
  return out
end

if op == 'members' then
  local room = ARGV[12]
  if redis.call('SISMEMBER', P .. 'rooms', room) == 0 then return {'no-room'} end
  local out = {'ok'}
  for _, m in ipairs(redis.call('SMEMBERS', R(room) .. ':members')) do table.insert(out, m) end
  return out
end

if op == 'list' then
  local role = ARGV[12]
  local rooms = redis.call('SMEMBERS', P .. 'rooms')
  table.sort(rooms)
  local out = {'ok'}
  for _, room in ipairs(rooms) do
    local r = R(room)
    local joined = redis.call('SISMEMBER', r .. ':members', role)
    table.insert(out, {room, redis.call('SCARD', r .. ':members'), tonumber(redis.call('HGET', r, 'seq')) or 0,
      redis.call('XLEN', r .. ':log'), joined, joined == 1 and tonumber(redis.call('HGET', r .. ':cursors', role)) or -1})
  end
  return out
end

-- UTF-16 code units of a UTF-8 string (what JavaScript's length counts): one per character, two past U+FFFF.
local function u16(text)
  local _, chars = string.gsub(text, '[^\128-\191]', '')
  local _, astral = string.gsub(text, '[\240-\247]', '')
  return chars + astral
end

-- Characters of a stored message: its 'c' field, else (a message stored before rooms counted) its body and headline.
local function entry_chars(fields)
  local chars = 0
  for i = 1, #fields, 2 do
    if fields[i] == 'c' then return tonumber(fields[i + 1]) end
    if fields[i] == 'b' then chars = chars + u16(fields[i + 1])
    elseif fields[i] == 'h' then chars = chars + u16(fields[i + 1]) - 1 end
  end
  return chars
end

-- Rooms as a watcher sees them, read without membership: every room in name order, or the one named. A room's
-- characters are kept by each post (the room's 'chars'); a room without the count gets it once, read from its log.
if op == 'view' then
  local rooms
  if ARGV[12] == '' then
    rooms = redis.call('SMEMBERS', P .. 'rooms')
    table.sort(rooms)
  elseif redis.call('SISMEMBER', P .. 'rooms', ARGV[12]) == 1 then
    rooms = {ARGV[12]}
  else
    rooms = {}
  end
  local out = {'ok'}
  for _, room in ipairs(rooms) do
    local r = R(room)
    local seq = tonumber(redis.call('HGET', r, 'seq')) or 0
    local chars = tonumber(redis.call('HGET', r, 'chars'))
    if chars == nil then
      chars = 0
      for _, entry in ipairs(redis.call('XRANGE', r .. ':log', '-', '+')) do chars = chars + entry_chars(entry[2]) end
      redis.call('HSET', r, 'chars', chars)
    end
    local members = {}
    for _, m in ipairs(redis.call('SMEMBERS', r .. ':members')) do
      table.insert(members, m)
      table.insert(members, seq - (tonumber(redis.call('HGET', r .. ':cursors', m)) or seq))
    end
    table.insert(out, {room, seq, redis.call('XLEN', r .. ':log'), chars, members})
  end
  return out
end

-- Retained messages without membership: forward from an afterSeq, else back from a beforeSeq (or the newest).
if op == 'peek' then
  local room, after, before, limit = ARGV[12], ARGV[13], ARGV[14], tonumber(ARGV[15])
  if redis.call('SISMEMBER', P .. 'rooms', room) == 0 then return {'no-room'} end
  local r = R(room)
  local seq = tonumber(redis.call('HGET', r, 'seq')) or 0
  local high = seq
  if before ~= '' then high = math.min(seq, tonumber(before) - 1) end
  local entries = {}
  if after ~= '' then
    if high > tonumber(after) then
      entries = redis.call('XRANGE', r .. ':log', tonumber(after) + 1, high, 'COUNT', limit)
    end
  elseif high > 0 then
    local newest = redis.call('XREVRANGE', r .. ':log', high, '-', 'COUNT', limit)
    for i = #newest, 1, -1 do table.insert(entries, newest[i]) end
  end
  return {'ok', seq, redis.call('XLEN', r .. ':log'), entries}
end

-- The rest act for a member; the JS side may already know the request is refused ("1" in ARGV[12]) and asks only
-- whether membership (or, for a post, an earlier post under the same key) answers first, as the memory store does.
local refuse, room, role = ARGV[12], ARGV[13], ARGV[14]
local r = R(room)

if op == 'post' then
  local key = ARGV[17]
  if key ~= '' then
    -- seq:postedAt:author. A repeat by the same author with the same text (or of a message no longer retained)
    -- answers with the earlier post; anything else is a reuse, refused: someone else's seq would be a lie.
    local earlier = redis.call('HGET', r .. ':keys', key)
    if earlier then
      local seq, t, author = string.match(earlier, '^(%d+):(%d+):(.*)$')
      if author ~= role then return {'key-reused', seq} end
      local kept = redis.call('XRANGE', r .. ':log', seq .. '-0', seq .. '-0')
      if #kept == 1 then
        local body, headline = nil, ''
        local fields = kept[1][2]
        for i = 1, #fields, 2 do
          if fields[i] == 'b' then body = fields[i + 1] elseif fields[i] == 'h' then headline = fields[i + 1] end
        end
        if body ~= ARGV[15] or headline ~= ARGV[16] then return {'key-reused', seq} end
      end
      return {'replay', seq .. ':' .. t}
    end
  end
  if redis.call('SISMEMBER', r .. ':members', role) == 0 then return {'not-member'} end
  if refuse == '1' then return {'refused'} end
  -- A headline arrives behind a one-character marker ('' is none), so an empty headline stays apart from none.
  local body, headline = ARGV[15], ARGV[16]
  local seq = redis.call('HINCRBY', r, 'seq', 1)
  local t = now_ms()
  -- The room's characters follow its log: the message that the ring evicts leaves them, this one joins them.
  local chars = ARGV[18]
  -- A caller that names no count (an older store's argument list) has it worked out here.
  if chars == nil or chars == '' then
    chars = u16(body) + (headline == '' and 0 or u16(headline) - 1)
  end
  local counted = redis.call('HEXISTS', r, 'chars') == 1
  if counted and redis.call('XLEN', r .. ':log') >= capacity then
    local oldest = redis.call('XRANGE', r .. ':log', '-', '+', 'COUNT', 1)[1]
    if oldest then redis.call('HINCRBY', r, 'chars', -entry_chars(oldest[2])) end
  end
  if headline == '' then
    redis.call('XADD', r .. ':log', 'MAXLEN', capacity, seq .. '-0', 'a', role, 'b', body, 't', t, 'c', chars)
  else
    redis.call('XADD', r .. ':log', 'MAXLEN', capacity, seq .. '-0', 'a', role, 'b', body, 't', t, 'c', chars, 'h', headline)
  end
  if counted then redis.call('HINCRBY', r, 'chars', chars) end
  if tonumber(redis.call('HGET', r .. ':cursors', role)) == seq - 1 then redis.call('HSET', r .. ':cursors', role, seq) end
  if key ~= '' and maxKeys > 0 then
    redis.call('HSET', r .. ':keys', key, seq .. ':' .. t .. ':' .. role)
    redis.call('RPUSH', r .. ':key-order', key)
    if redis.call('LLEN', r .. ':key-order') > maxKeys then
      redis.call('HDEL', r .. ':keys', redis.call('LPOP', r .. ':key-order'))
    end
  end
  local members = redis.call('SMEMBERS', r .. ':members')
  activity(room, 'post', role, seq, B, members)
  local out = {'ok', seq, t}
  for _, m in ipairs(members) do table.insert(out, m) end
  return out
end

if redis.call('SISMEMBER', r .. ':members', role) == 0 then return {'not-member'} end
if refuse == '1' then return {'refused'} end
local newest = tonumber(redis.call('HGET', r, 'seq'))
local cursor = tonumber(redis.call('HGET', r .. ':cursors', role))

if op == 'read' then
  local after = ARGV[15] == '' and cursor or tonumber(ARGV[15])
  local limit = ARGV[16] == '' and capacity or tonumber(ARGV[16])
  local entries = {}
  if limit > 0 then entries = redis.call('XRANGE', r .. ':log', after + 1, '+', 'COUNT', limit) end
  return {'ok', newest, redis.call('XLEN', r .. ':log'), cursor, after, entries}
end

if op == 'mark-read' then
  local target = math.min(tonumber(ARGV[15]), newest)
  if target > cursor then
    redis.call('HSET', r .. ':cursors', role, target)
    cursor = target
  end
  return {'ok', cursor}
end

return redis.error_reply('ERR unknown store op ' .. tostring(op))
`;
