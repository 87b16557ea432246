-- The transaction ids of the last change applied to each synced row (from the shape's
-- `txids` header; null for snapshot rows), so a write can wait until its own change arrives.
alter table users add column synced_txids bigint[];
alter table user_teams add column synced_txids bigint[];
alter table team_members add column synced_txids bigint[];
alter table sources add column synced_txids bigint[];
alter table source_event_logs add column synced_txids bigint[];
