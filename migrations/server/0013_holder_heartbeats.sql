-- A hung holder (alive, not answering: stopped, swapped out, stuck) keeps its claims connection
-- and so its advisory locks for ever. Each claim now records the control-plane backend holding
-- its lock (pid and start time: a pid alone may be reused) and the holder refreshes
-- `heartbeat_at` on a timer. A server of the region that sees a heartbeat older than
-- SLUICE_HOLDER_STALE_MS ends that backend (pg_terminate_backend), which frees the locks, and
-- claims the sources at its next pass.
alter table source_holders
  add column backend_pid integer,
  add column backend_start timestamptz,
  add column heartbeat_at timestamptz not null default now();
create index source_holders_heartbeat on source_holders (heartbeat_at);
