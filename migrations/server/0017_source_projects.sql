-- A source's project and environment (issue 40: Electric Cloud's workspace > project >
-- environment > source, a team being the workspace). Optional labels the API trims and sends
-- as null when empty, so a stored one is never empty; the pattern and bound match
-- sourceProjectSchema and SOURCE_TAG_MAX_LENGTH (src/shared/sources.ts, constants.ts). Synced
-- to the team's members with the rest of the row. No index: a team has few sources, and the
-- dashboard filters them in the browser.
alter table sources
  add column project text
    constraint sources_project_format check (project ~ '^[A-Za-z0-9._/-]{1,64}$'),
  add column environment text
    constraint sources_environment_format check (environment ~ '^[A-Za-z0-9._/-]{1,64}$');
