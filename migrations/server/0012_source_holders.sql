-- Which server holds each source (issue 20): written by the server when it takes the source's
-- advisory lock, removed when it lets go. Other servers forward that source's actions and apps'
-- shape requests to `internal_url`. A server that dies leaves its rows; the server that takes a
-- source over writes its own. Not synced to browsers.
create table source_holders (
  source_id uuid primary key references sources (id) on delete cascade,
  instance_id text not null check (length(instance_id) between 1 and 200),
  internal_url text not null check (length(internal_url) between 1 and 2048),
  claimed_at timestamptz not null default now()
);
create index source_holders_instance on source_holders (instance_id);
