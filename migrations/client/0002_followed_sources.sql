-- Sources whose event logs a tab is showing: the syncing tab follows their logs.
create table followed_sources (
  source_id uuid primary key,
  followed_at timestamptz not null default now()
);
