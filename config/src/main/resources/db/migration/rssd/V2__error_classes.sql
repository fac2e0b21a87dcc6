-- RSSD schema version 2: error classes (RS: rs_classes, rs_erroractions) and the number of
-- commands of each exceptions-log entry. Same dialect rules as V1 (H2 in PostgreSQL mode and
-- PostgreSQL). docs/rssd.md describes the tables.

-- Error classes (RS: rs_classes, which also holds function-string classes; classtype 'E' marks
-- an error class). builtin: one of the DSI dialects' default classes, which may be shown and used
-- as a template but not changed or dropped. template: the class the assignments were last copied
-- from (create ... set template to / alter ... set template to); a copy, not a reference.
create table rs_classes (
  classname varchar(255) not null primary key,
  classtype char(1)      not null,
  template  varchar(255),
  builtin   boolean      not null,
  created   timestamp with time zone not null,
  updated   timestamp with time zone not null
);

-- Error actions of a class (RS: rs_erroractions). ds_errno is the error code as the replicate
-- database reports it: a vendor error number (1062), a SQLSTATE (23505), a SQLSTATE class (23),
-- or a DSI error number (5185). action: ignore, warn, retry_log, log, retry_stop,
-- stop_replication (RS stores the numbers 1 to 6). source: builtin, template or assigned.
create table rs_erroractions (
  classname varchar(255) not null references rs_classes (classname) on delete cascade,
  ds_errno  varchar(16)  not null,
  action    varchar(16)  not null,
  source    varchar(16)  not null,
  updated   timestamp with time zone not null,
  primary key (classname, ds_errno)
);

-- The DSI dialects' default classes (PostgresDialect / MariaDbDialect.defaultErrorClass();
-- BuiltinErrorClassesIT in repserver checks these rows against them). A change to the
-- dialects' defaults needs a new migration that updates these rows.
insert into rs_classes (classname, classtype, template, builtin, created, updated) values
  ('rs_postgresql_error_class', 'E', null, true, current_timestamp, current_timestamp),
  ('rs_mariadb_error_class', 'E', null, true, current_timestamp, current_timestamp);

insert into rs_erroractions (classname, ds_errno, action, source, updated) values
  ('rs_postgresql_error_class', '40P01', 'retry_stop', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '40001', 'retry_stop', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '55P03', 'retry_stop', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '57014', 'retry_stop', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '5185', 'stop_replication', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '5186', 'stop_replication', 'builtin', current_timestamp),
  ('rs_postgresql_error_class', '5187', 'stop_replication', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '1213', 'retry_stop', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '1205', 'retry_stop', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '40001', 'retry_stop', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '5185', 'stop_replication', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '5186', 'stop_replication', 'builtin', current_timestamp),
  ('rs_mariadb_error_class', '5187', 'stop_replication', 'builtin', current_timestamp);

-- Commands in an exceptions-log entry (one LTL command per line of cmd_text), so the log can be
-- listed without reading the text. Null for entries written before this version.
alter table rs_exceptshdr add column cmd_count integer;
