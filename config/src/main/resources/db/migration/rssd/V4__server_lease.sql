-- RSSD schema version 4: the server lease. Servers that share one RSSD on PostgreSQL (an active
-- server and its standbys, docs/scale-out.md) run the pipeline only while they hold this lease.
-- Same dialect rules as V1 (H2 in PostgreSQL mode and PostgreSQL). docs/rssd.md describes it.
--
-- One row, always present. holder is null when nobody holds the lease. Times are the RSSD
-- database's own clock (current_timestamp), so the servers' clocks never have to agree. epoch
-- grows by one at every acquisition: a server that lost the lease cannot renew it, even when the
-- new holder has the same name.
create table rs_lease (
  lease_id   int not null primary key,
  holder     varchar(255),
  epoch      bigint not null,
  acquired   timestamp with time zone,
  expires_at timestamp with time zone,
  check (lease_id = 1),
  check ((holder is null) = (expires_at is null))
);

insert into rs_lease (lease_id, holder, epoch, acquired, expires_at) values (1, null, 0, null, null);
