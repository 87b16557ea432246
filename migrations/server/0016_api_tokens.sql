-- Team API tokens (issue 40): a script's or CI's credential for one team's REST API, sent as
-- `Authorization: Bearer sluice_…`. Only the token's sha256 is stored, looked up by equality
-- (the token is 256 random bits, so its hash is as unguessable as the token and needs no
-- constant-time compare). A token belongs to its team, not to whoever made it: it outlives its
-- maker's membership (created_by is only a label), and goes with the team (cascade).
-- Revoking sets revoked_at: the row stays so the audit below still names it.
create table api_tokens (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  -- Null once its maker is gone.
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Written at most once a minute per token (api-tokens.ts), not on every request.
  last_used_at timestamptz,
  expires_at timestamptz check (expires_at > created_at),
  revoked_at timestamptz
);
create index api_tokens_team_id on api_tokens (team_id);

-- The team's audit of token use: one row per request a token made, whatever it answered.
-- Bounded: the prune loop keeps each team's newest rows only (api-tokens.ts).
create table api_token_uses (
  id bigint generated always as identity primary key,
  token_id uuid not null references api_tokens (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  used_at timestamptz not null default now(),
  method text not null,
  path text not null,
  status integer not null
);
create index api_token_uses_team_id on api_token_uses (team_id, id desc);
create index api_token_uses_token_id on api_token_uses (token_id);
