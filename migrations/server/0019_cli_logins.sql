-- `sluice auth login`: a terminal asks for a token, a signed-in member approves it in the
-- dashboard for one of their teams, and the terminal collects a new team API token once. The
-- terminal proves it is the one that asked with a secret only it holds (its sha256 is stored);
-- the code it shows lets the member check the page is for their terminal. Nothing here is a
-- credential until collected, and a login lasts ten minutes (cli-logins.ts prunes them).
create table cli_logins (
  id uuid primary key default gen_random_uuid(),
  poll_hash text not null,
  user_code text not null check (length(user_code) <= 16),
  machine text not null check (length(machine) <= 100),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  approved_by uuid references users (id) on delete cascade,
  team_id uuid references teams (id) on delete cascade,
  approved_at timestamptz,
  collected_at timestamptz
);
create index cli_logins_expires_at on cli_logins (expires_at);
