-- What a user told us at onboarding (/welcome): one row per user, the latest answer wins.
-- Only the server reads it; no dashboard shape syncs it.
create table onboarding_intents (
  user_id uuid primary key references users (id) on delete cascade,
  company text not null check (length(company) between 1 and 200),
  website text not null check (length(website) between 1 and 2048),
  description text not null check (length(description) between 5 and 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger onboarding_intents_touch before update on onboarding_intents
  for each row execute function touch_updated_at();
