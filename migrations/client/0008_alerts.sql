-- A team's alert destinations and delivery log (server migration 0010_alerts.sql), as the
-- gateway's /v1/alert-destinations and /v1/alert-delivery-attempts send them: never a secret.
-- Followed only for teams whose page a tab shows (followed_teams, client migration 0006).
create table alert_destinations (
  id uuid primary key,
  team_id uuid not null,
  url text not null,
  created_by uuid,
  created_at timestamptz not null,
  deleted_at timestamptz,
  synced_txids bigint[]
);
create index alert_destinations_team_id on alert_destinations (team_id);

create table alert_delivery_attempts (
  id uuid primary key,
  team_id uuid not null,
  delivery_id uuid not null,
  destination_id uuid not null,
  event text not null,
  state text not null,
  attempt integer not null,
  status_code integer,
  error text,
  delivered boolean not null,
  attempted_at timestamptz not null,
  synced_txids bigint[]
);
create index alert_delivery_attempts_team_id on alert_delivery_attempts (team_id, attempted_at desc);
