-- Email alert destinations (issue 19): an email destination's url is `mailto:<address>`, sent
-- through the operator's SMTP server (SMTP_URL). Email is not signed, so it has no secret; a
-- webhook still always has one.
alter table alert_destinations alter column encrypted_secret drop not null;
alter table alert_destinations add constraint alert_destinations_secret_by_kind
  check ((url like 'mailto:%') = (encrypted_secret is null));
