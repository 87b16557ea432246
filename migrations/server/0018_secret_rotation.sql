-- Secret rotation without downtime: the secret a rotation replaced keeps opening the source's
-- shapes until previous_secret_valid_until (SECRET_ROTATION_GRACE after the rotation), so apps
-- move to the new one at their own pace; ending the grace early clears both. One previous
-- secret at most: rotating again within the grace ends the older one at once.
alter table sources
  add column previous_source_secret text,
  add column previous_secret_valid_until timestamptz,
  add constraint sources_previous_secret_pair check (
    (previous_source_secret is null) = (previous_secret_valid_until is null));
