-- Read models for the dashboard's synced shapes. A shape is one table and a where clause, so
-- "teams of a user" and "users of a team" are kept as tables, maintained by triggers, that
-- change whenever a membership, a team name or a user's name or email changes.

create table user_teams (
  user_id uuid not null references users (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  name text not null,
  primary key (user_id, team_id)
);

create table team_members (
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  email text not null,
  primary key (team_id, user_id)
);

create function sync_membership_read_models() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    delete from user_teams where user_id = old.user_id and team_id = old.team_id;
    delete from team_members where team_id = old.team_id and user_id = old.user_id;
    return old;
  end if;
  insert into user_teams (user_id, team_id, name)
    select new.user_id, t.id, t.name from teams t where t.id = new.team_id
    on conflict do nothing;
  insert into team_members (team_id, user_id, name, email)
    select new.team_id, u.id, u.name, u.email from users u where u.id = new.user_id
    on conflict do nothing;
  return new;
end $$;

create trigger memberships_read_models after insert or delete on memberships
  for each row execute function sync_membership_read_models();

create function sync_team_name() returns trigger language plpgsql as $$
begin
  update user_teams set name = new.name where team_id = new.id;
  return new;
end $$;

create trigger teams_read_models after update of name on teams
  for each row when (old.name is distinct from new.name)
  execute function sync_team_name();

create function sync_user_details() returns trigger language plpgsql as $$
begin
  update team_members set name = new.name, email = new.email where user_id = new.id;
  return new;
end $$;

create trigger users_read_models after update of name, email on users
  for each row when (old.name is distinct from new.name or old.email is distinct from new.email)
  execute function sync_user_details();

-- Memberships made before this migration.
insert into user_teams (user_id, team_id, name)
  select m.user_id, t.id, t.name from memberships m join teams t on t.id = m.team_id;
insert into team_members (team_id, user_id, name, email)
  select m.team_id, u.id, u.name, u.email from memberships m join users u on u.id = m.user_id;
