-- Control-plane schema: people, teams, sessions, and the sources the engine serves.

create function touch_updated_at() returns trigger language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;

create table teams (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger teams_touch before update on teams
  for each row execute function touch_updated_at();

create table users (
  id uuid primary key default gen_random_uuid(),
  name text not null default '',
  email text not null,
  -- the personal team created at first sign-in
  team_id uuid references teams (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger users_touch before update on users
  for each row execute function touch_updated_at();

-- One row per way of signing in; users are found by (provider, subject), never by email alone.
create table identities (
  provider text not null check (provider in ('github', 'google', 'local')),
  subject text not null,
  user_id uuid not null references users (id) on delete cascade,
  email text not null,
  created_at timestamptz not null default now(),
  primary key (provider, subject)
);
create index identities_user_id on identities (user_id);

create table memberships (
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null default 'member' check (role in ('owner', 'member')),
  created_at timestamptz not null default now(),
  primary key (team_id, user_id)
);
create index memberships_user_id on memberships (user_id);

-- Sessions are stored by the SHA-256 of their token: a leaked table signs nobody in.
create table sessions (
  id text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_id on sessions (user_id);

-- Pending OAuth sign-ins: single use (deleted when redeemed), bound to a browser cookie.
create table oauth_states (
  id text primary key,
  provider text not null,
  binding_hash text not null,
  code_verifier text,
  nonce text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create table sources (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  name text,
  state text not null default 'initializing' check (state in (
    'initializing', 'waiting', 'active', 'reconnecting', 'error', 'stopping',
    'delete_failed', 'preparing_transfer', 'transferring')),
  region text not null check (region in ('us-east-1', 'eu-west-1')),
  -- the connection URL without its password; the password lives encrypted beside it
  connection_url text not null,
  encrypted_password bytea,
  source_secret text not null,
  deleted_at timestamptz,
  target_electric_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sources_team_id on sources (team_id);
create trigger sources_touch before update on sources
  for each row execute function touch_updated_at();

create table source_event_logs (
  id uuid primary key default gen_random_uuid(),
  source_id uuid not null references sources (id) on delete cascade,
  event_name text not null,
  event_details jsonb not null default '{}'::jsonb,
  instance_id text not null,
  emitted_at timestamptz not null default now()
);
create index source_event_logs_source_id on source_event_logs (source_id, emitted_at desc);
