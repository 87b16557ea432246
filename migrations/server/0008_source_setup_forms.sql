-- One-time setup links (spec §2 /setup/{formId}, issue 17): a team member makes one, and
-- whoever opens it, signed out, adds one database as a source of that team. The id is the
-- link's only credential, so the server makes it with crypto.randomUUID() (122 random bits),
-- never a sequence. A form is usable while not deleted, not used and not expired; using it
-- sets used_at and source_id in the source's own create transaction, with a conditional
-- update, so two submits at once cannot both use it. Deleting only sets deleted_at: the team
-- page keeps listing it. Synced to the team's browsers (the gateway's /v1/source-setup-forms).
create table source_setup_forms (
  id uuid primary key,
  team_id uuid not null references teams (id) on delete cascade,
  -- A preset region (the form's page then fixes it); null lets the visitor choose.
  region text check (region in ('us-east-1', 'eu-west-1')),
  -- Null when the admin tool made it, or once its maker is gone.
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null check (expires_at > created_at),
  used_at timestamptz,
  -- The source it created; null again once that source is removed.
  source_id uuid references sources (id) on delete set null,
  deleted_at timestamptz
);
create index source_setup_forms_team_id on source_setup_forms (team_id);
