-- Claimable sources (spec §3, §4): a starter script registers a source that belongs to no team
-- until a signed-in user claims it into one of theirs. Until then its team is null: every
-- member read joins through memberships or filters on team_id, so nobody sees it, while the
-- runtime (which reads every row) runs it. Unclaimed ones are removed 72 hours after creation.
alter table sources alter column team_id drop not null;

create table claimable_sources (
  -- The claim id: random (crypto.randomUUID), handed to the script and in the claim link.
  id uuid primary key,
  source_id uuid not null unique references sources (id) on delete cascade,
  -- Where the source's developer transfers the database instead of claiming here (https).
  claim_link text check (claim_link is null or length(claim_link) between 1 and 2048),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '72 hours',
  claimed_at timestamptz,
  claimed_by uuid references users (id) on delete set null,
  -- The team it was claimed into.
  team_id uuid references teams (id) on delete set null
);
-- The sweep and the global cap read the unclaimed ones.
create index claimable_sources_unclaimed on claimable_sources (expires_at)
  where claimed_at is null;
