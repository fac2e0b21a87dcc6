-- RSSD schema version 3: the connect source permission (RS: "grant connect source"), the right to
-- connect a replication agent and send LTL. Same dialect rules as V1 (H2 in PostgreSQL mode and
-- PostgreSQL). docs/rssd.md describes the table.

-- One row per grant: for one origin connection dsname.dbname, or for every origin when both are
-- the empty string (no connection has a blank name: the admin commands refuse one). Names are
-- kept, not connection ids, so a grant outlives a connection that is dropped and created again.
-- A user's grants go with the user.
create table rs_connect_source (
  username varchar(255) not null references rs_users (username) on delete cascade,
  dsname   varchar(255) not null,
  dbname   varchar(255) not null,
  granted  timestamp with time zone not null,
  primary key (username, dsname, dbname),
  check ((dsname = '') = (dbname = ''))
);

-- Administrators (role ADMIN) keep connecting agents as before: sa has every permission, as in
-- Replication Server; the server checks the role, so no rows are needed for them. The role NONE
-- (no admin port access, for agent users) needs no schema change: user_role is free text.
