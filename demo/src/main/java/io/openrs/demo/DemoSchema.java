package io.openrs.demo;

import java.util.List;

/**
 * The OLTP schema of the demo, a small bank: branches, accounts (foreign key to branches) and a
 * history of movements (foreign key to accounts), with integer keys, numeric amounts, timestamps
 * and text. The same tables exist at the primary and at the replicate; the replicate is PostgreSQL.
 */
final class DemoSchema {

  /** A table and its key, in the order the tables are created (parents first). */
  record Table(String name, String key, List<String> columns) {}

  static final Table BRANCHES =
      new Table("branches", "branch_id", List.of("branch_id", "name", "city", "balance", "opened"));
  static final Table ACCOUNTS =
      new Table(
          "accounts",
          "account_id",
          List.of("account_id", "branch_id", "owner", "balance", "status", "updated_at"));
  static final Table HISTORY =
      new Table(
          "history",
          "history_id",
          List.of("history_id", "account_id", "amount", "kind", "note", "created_at"));
  static final List<Table> TABLES = List.of(BRANCHES, ACCOUNTS, HISTORY);

  private DemoSchema() {}

  /** PostgreSQL DDL, tables qualified by {@code schema}. */
  static List<String> postgres(String schema) {
    String s = schema + ".";
    return List.of(
        "CREATE TABLE "
            + s
            + "branches (branch_id integer PRIMARY KEY, name varchar(40) NOT NULL, city text,"
            + " balance numeric(16,2) NOT NULL, opened timestamp(6) NOT NULL)",
        "CREATE TABLE "
            + s
            + "accounts (account_id bigint PRIMARY KEY, branch_id integer NOT NULL REFERENCES "
            + s
            + "branches (branch_id), owner text NOT NULL, balance numeric(14,2) NOT NULL,"
            + " status varchar(10) NOT NULL, updated_at timestamp(6) NOT NULL)",
        "CREATE TABLE "
            + s
            + "history (history_id bigint PRIMARY KEY, account_id bigint NOT NULL REFERENCES "
            + s
            + "accounts (account_id), amount numeric(12,2) NOT NULL, kind varchar(10) NOT NULL,"
            + " note text, created_at timestamp(6) NOT NULL)",
        "CREATE INDEX history_account ON " + s + "history (account_id)");
  }

  /** MariaDB DDL, in the current database. */
  static List<String> mariadb() {
    return List.of(
        "CREATE TABLE branches (branch_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, city TEXT,"
            + " balance DECIMAL(16,2) NOT NULL, opened DATETIME(6) NOT NULL) ENGINE=InnoDB",
        "CREATE TABLE accounts (account_id BIGINT PRIMARY KEY, branch_id INT NOT NULL, owner TEXT"
            + " NOT NULL, balance DECIMAL(14,2) NOT NULL, status VARCHAR(10) NOT NULL, updated_at"
            + " DATETIME(6) NOT NULL, FOREIGN KEY (branch_id) REFERENCES branches (branch_id))"
            + " ENGINE=InnoDB",
        "CREATE TABLE history (history_id BIGINT PRIMARY KEY, account_id BIGINT NOT NULL, amount"
            + " DECIMAL(12,2) NOT NULL, kind VARCHAR(10) NOT NULL, note TEXT, created_at"
            + " DATETIME(6) NOT NULL, KEY history_account (account_id), FOREIGN KEY (account_id)"
            + " REFERENCES accounts (account_id)) ENGINE=InnoDB");
  }
}
