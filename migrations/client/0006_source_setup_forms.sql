-- Each team's setup links (server migration 0008_source_setup_forms.sql), as the gateway's
-- /v1/source-setup-forms sends them, for the team page. Only teams whose page a tab shows are
-- followed (followed_teams, as followed_sources for event logs): no other page needs them, and
-- a first visit's sync asks for nothing more than before.
create table source_setup_forms (
  id uuid primary key,
  team_id uuid not null,
  region text,
  created_by uuid,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  source_id uuid,
  deleted_at timestamptz,
  synced_txids bigint[]
);
create index source_setup_forms_team_id on source_setup_forms (team_id);

create table followed_teams (
  team_id uuid primary key,
  followed_at timestamptz not null default now()
);
