-- Sources may be named (spec §3). The API trims names and sends an empty one as null, so a
-- stored name is never empty; the bound matches NAME_MAX_LENGTH (src/shared/constants.ts).
-- No name was written before this migration; the update only makes the check hold regardless.
update sources set name = nullif(btrim(left(name, 200)), '') where name is not null;
alter table sources
  add constraint sources_name_length check (name is null or length(name) between 1 and 200);
