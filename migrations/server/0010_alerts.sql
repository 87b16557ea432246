-- Alerts (issue 19): a team's webhook destinations, the incidents the alert monitor opens and
-- resolves (one alert when opened, one when resolved), the deliveries it queues for the
-- delivery worker, and a log row per delivery attempt. Destinations and the attempt log are
-- synced to the team's browsers through fixed column lists that never name the secret.

-- A webhook's signing secret is made by the server, shown once, and kept only sealed
-- (AES-256-GCM under the 'alert-secrets' key, the destination id as associated data).
-- Deleting a destination only sets deleted_at: the delivery log keeps naming it.
create table alert_destinations (
  id uuid primary key,
  team_id uuid not null references teams (id) on delete cascade,
  url text not null check (length(url) between 1 and 2000),
  encrypted_secret bytea not null,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index alert_destinations_team_id on alert_destinations (team_id);

-- A team's thresholds; a team without a row uses the defaults written here.
create table alert_settings (
  team_id uuid primary key references teams (id) on delete cascade,
  wal_retained_threshold_bytes bigint not null default 1073741824
    check (wal_retained_threshold_bytes > 0),
  reconnecting_minutes integer not null default 5
    check (reconnecting_minutes between 1 and 1440)
);

-- One row per incident: (team, source, kind) has at most one open incident, which is what
-- deduplicates alerts when several servers' monitors see the same condition. source_id has
-- no foreign key: a delete_failed incident outlives its source row, whose removal resolves it.
create table alert_incidents (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  source_id uuid not null,
  kind text not null check (kind in (
    'source_error', 'delete_failed', 'replication_health_warning', 'source_reconnecting')),
  message text not null,
  opened_at timestamptz not null default now(),
  resolved_at timestamptz
);
create unique index alert_incidents_open on alert_incidents (team_id, source_id, kind)
  where resolved_at is null;

-- One webhook call to make: its JSON payload (signed when sent), its attempts and when the
-- next is due. lease_until keeps two workers from sending the same delivery at once.
create table alert_deliveries (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  destination_id uuid not null references alert_destinations (id) on delete cascade,
  incident_id uuid references alert_incidents (id) on delete set null,
  event text not null,
  state text not null check (state in ('firing', 'resolved')),
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  created_at timestamptz not null default now()
);
create index alert_deliveries_due on alert_deliveries (next_attempt_at) where status = 'pending';

-- The delivery log: every attempt with the answer's status code or Sluice's own error text
-- (never the receiver's body). Synced to the team's browsers.
create table alert_delivery_attempts (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  delivery_id uuid not null references alert_deliveries (id) on delete cascade,
  destination_id uuid not null references alert_destinations (id) on delete cascade,
  event text not null,
  state text not null,
  attempt integer not null,
  status_code integer,
  error text,
  delivered boolean not null,
  attempted_at timestamptz not null default now()
);
create index alert_delivery_attempts_team_id on alert_delivery_attempts (team_id, attempted_at desc);
