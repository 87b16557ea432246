-- A source's previous secret and the end of its grace after a rotation (server migration
-- 0018_secret_rotation.sql), as synced: the source page shows both secrets.
alter table sources
  add column previous_source_secret text,
  add column previous_secret_valid_until timestamptz;
