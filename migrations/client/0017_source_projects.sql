-- The source columns added by server migration 0017 (project, environment), as synced. Numbered
-- like the server's migration rather than next in this folder: other work adds client
-- migrations at the same time, and the runner needs only distinct numbers, not consecutive ones.
alter table sources
  add column project text,
  add column environment text;
