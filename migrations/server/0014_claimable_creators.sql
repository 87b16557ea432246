-- Who created a claimable source that is still waiting to be claimed: the client address its
-- create came from (null for the admin tool's), so one address's share of the global cap on
-- unclaimed sources can be counted on every server. Cleared when the source is claimed: kept
-- no longer than it is needed.
alter table claimable_sources add column created_by_ip text
  check (created_by_ip is null or length(created_by_ip) <= 64);
