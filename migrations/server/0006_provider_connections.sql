-- A user's connection to a database provider's account (issue 16): an OAuth grant or a
-- personal token, one per user and provider. Tokens are sealed with AES-256-GCM under a key
-- derived for provider tokens alone (src/server/platform/crypto/provider-tokens.ts); this table never
-- holds a token's text. Refreshes of one connection lock its row (refresh tokens are
-- single-use), so this row is also the lock.
create table provider_connections (
  user_id uuid not null references users (id) on delete cascade,
  provider text not null check (provider in ('supabase', 'neon')),
  method text not null check (method in ('oauth', 'token')),
  access_token bytea not null,
  refresh_token bytea,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (user_id, provider)
);

-- Connecting a provider account reuses the sign-in's single-use, browser-bound OAuth state; it
-- also remembers who started it (the callback must come back to the same user) and the wizard
-- page to return to. Both stay null for sign-ins.
alter table oauth_states
  add column user_id uuid references users (id) on delete cascade,
  add column return_to text;
