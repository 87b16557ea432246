-- The browser's copy of the dashboard's shapes, one table per shape family, columns exactly as
-- the gateway sends them (src/server/gateway/definitions.ts). pglite-sync writes them; the app
-- only reads them.

create table users (
  id uuid primary key,
  name text not null,
  email text not null,
  team_id uuid,
  created_at timestamptz not null
);

create table user_teams (
  user_id uuid not null,
  team_id uuid not null,
  name text not null,
  primary key (user_id, team_id)
);

create table team_members (
  team_id uuid not null,
  user_id uuid not null,
  name text not null,
  email text not null,
  primary key (team_id, user_id)
);

create table sources (
  id uuid primary key,
  team_id uuid not null,
  name text,
  state text not null,
  region text not null,
  connection_url text not null,
  source_secret text not null,
  deleted_at timestamptz,
  target_electric_url text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index sources_team_id on sources (team_id);

create table source_event_logs (
  id uuid primary key,
  source_id uuid not null,
  event_name text not null,
  event_details jsonb not null,
  instance_id text not null,
  emitted_at timestamptz not null
);
create index source_event_logs_source on source_event_logs (source_id, emitted_at desc);

-- Who the local copy belongs to: a different user signing in empties it first.
create table local_owner (
  singleton boolean primary key default true check (singleton),
  user_id uuid not null
);
