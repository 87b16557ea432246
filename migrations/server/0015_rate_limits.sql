-- Rate-limit counters on the control plane, so every server sharing it shares each limit
-- (src/server/platform/http/rate-limit.ts). One row per limiter and key: the fixed window it counts in
-- ends at `window_ends_ms` (milliseconds since the epoch, from the servers' clocks). A row
-- whose window has ended counts as empty; the prune loop deletes them (start.ts).
-- Unlogged: a count is written on every limited request and is worth nothing after a crash,
-- so it costs no WAL (nor a replica's time), and it is never replicated or synced.
-- No index beyond the key: every write changes window_ends_ms or count, and an index on either
-- would cost each one; the prune's scan runs every 15 minutes over a window's keys.
create unlogged table rate_limits (
  limiter text not null,
  key text not null,
  window_ends_ms bigint not null,
  count integer not null,
  primary key (limiter, key)
);

-- Admits one request against every (limiter, key) pair, each with its own limit and window, or
-- against none: answers 0 when admitted (every count went up by one), else the milliseconds
-- until the last full window among them ends (nothing counted). The rows are locked in one
-- order, so two servers admitting at once wait for each other instead of both slipping under
-- a limit, and never deadlock.
create function rate_limit_admit(
  limiters text[],
  keys text[],
  limits integer[],
  windows_ms bigint[],
  now_ms bigint
) returns bigint language plpgsql as $$
declare
  wait_ms bigint;
begin
  insert into rate_limits (limiter, key, window_ends_ms, count)
  select limiter, key, 0, 0
  from unnest(limiters, keys) as asked(limiter, key)
  order by limiter, key
  on conflict do nothing;

  perform 1
  from rate_limits r
  join unnest(limiters, keys) as asked(limiter, key) using (limiter, key)
  order by r.limiter, r.key
  for update of r;

  select max(r.window_ends_ms) - now_ms into wait_ms
  from rate_limits r
  join unnest(limiters, keys, limits) as asked(limiter, key, lim) using (limiter, key)
  where r.window_ends_ms > now_ms and r.count >= asked.lim;
  if wait_ms is not null then
    return wait_ms;
  end if;

  update rate_limits r
  set count = case when r.window_ends_ms > now_ms then r.count + 1 else 1 end,
    window_ends_ms = case
      when r.window_ends_ms > now_ms then r.window_ends_ms
      else now_ms + asked.window_ms
    end
  from unnest(limiters, keys, windows_ms) as asked(limiter, key, window_ms)
  where (r.limiter, r.key) = (asked.limiter, asked.key);
  return 0;
end;
$$;
