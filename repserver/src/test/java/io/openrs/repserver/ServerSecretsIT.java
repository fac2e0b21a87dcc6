package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.config.secret.SecretKeyFile;
import io.openrs.repserver.dsi.DsiTargets;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connection passwords are sealed in the RSSD, never in clear in its files, and opened only when
 * the DSI logs in; the server's files are private to its user. The replicate is the local
 * PostgreSQL, logged in to as a role made for the test with a password found nowhere else.
 */
class ServerSecretsIT {
  private static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";

  @TempDir Path tmp;
  private Path dir;
  private ReplicationServer server;
  private final String role =
      "rs_sealed_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
  private final String password =
      "Sealed-Pw-" + Long.toHexString(ThreadLocalRandom.current().nextLong());

  private ReplicateDb replicate;

  @BeforeEach
  void createRoleAndDatabase() throws SQLException {
    dir = tmp.resolve("data");
    pg("create role " + role + " login superuser password '" + password + "'");
    replicate = ReplicateDb.create("secrets");
  }

  @AfterEach
  void dropRoleAndDatabase() throws SQLException {
    if (server != null) {
      server.close();
    }
    terminateBackends();
    pg("drop database if exists " + replicate.name());
    pg("drop role if exists " + role);
  }

  private static void pg(String sql) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(ADMIN_URL, ReplicateDb.USER, ReplicateDb.PASSWORD);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private int backends() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(ADMIN_URL, ReplicateDb.USER, ReplicateDb.PASSWORD);
        PreparedStatement ps =
            c.prepareStatement("select count(*) from pg_stat_activity where usename = ?")) {
      ps.setString(1, role);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private void terminateBackends() throws SQLException {
    pg("select pg_terminate_backend(pid) from pg_stat_activity where usename = '" + role + "'");
  }

  private Connection sa() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "sa");
    p.setProperty("password", TestServers.ADMIN_PASSWORD);
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.adminPort() + "/rssd", p);
  }

  /** The files under the data directory that hold {@code text}'s UTF-8 bytes. */
  private List<Path> filesHolding(String text) throws Exception {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile)
          .filter(
              f -> {
                try {
                  byte[] b = Files.readAllBytes(f);
                  outer:
                  for (int i = 0; i + needle.length <= b.length; i++) {
                    for (int j = 0; j < needle.length; j++) {
                      if (b[i + j] != needle[j]) {
                        continue outer;
                      }
                    }
                    return true;
                  }
                  return false;
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }

  /** A primary with a database subscription to the replicate: its DSI starts. */
  private void subscribe() throws Exception {
    ConnectionDef primary =
        server.createConnection("pds", "pdb", Profile.POSTGRESQL, true, Map.of());
    server
        .catalog()
        .createDatabaseRepDef(
            new DatabaseRepDef("pdb_all", primary.id(), List.of("shop.%"), List.of()));
    server
        .catalog()
        .subscriptions()
        .create("pdb_sub", "pdb_all", true, "rds", replicate.name(), Optional.empty());
  }

  private void awaitDsiLogin() {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> backends() > 0);
  }

  private String revealed() {
    ConnectionDef c = server.rssd().connections().find("rds", replicate.name()).orElseThrow();
    return DsiTargets.target(c, server.rssd().secrets()).password();
  }

  @Test
  void aPasswordSetByCreateConnectionIsNowhereInClearAndTheDsiLogsInWithItAcrossARestart()
      throws Exception {
    server = TestServers.start(dir, Map.of());
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      s.execute(
          "create connection to rds."
              + replicate.name()
              + " using profile postgresql set server to"
              + " '127.0.0.1', set port to '5432', set user to '"
              + role
              + "', set password to '"
              + password
              + "'");
      try (ResultSet rs = s.executeQuery("admin show_connections")) {
        while (rs.next()) {
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            assertThat(String.valueOf(rs.getString(i)))
                .doesNotContain(password)
                .doesNotContain("enc:");
          }
        }
      }
    }
    subscribe();
    awaitDsiLogin();
    assertThat(server.rssd().connections().find("rds", replicate.name()).orElseThrow().properties())
        .hasEntrySatisfying("password", v -> assertThat(v).startsWith("enc:1:"));
    server.close();
    server = null;
    assertThat(filesHolding(password)).as("files holding the password in clear").isEmpty();

    terminateBackends();
    server = TestServers.start(dir, Map.of());
    assertThat(revealed()).isEqualTo(password);
    awaitDsiLogin();
  }

  @Test
  void aPasswordAnOlderServerLeftInClearIsSealedAtStart() throws Exception {
    server = TestServers.start(dir, Map.of());
    ConnectionDef c =
        server.createConnection(
            "rds",
            replicate.name(),
            Profile.POSTGRESQL,
            false,
            Map.of("server", "127.0.0.1", "port", "5432", "user", role));
    subscribe();
    server.close();
    server = null;
    RssdSettings rssd = RssdSettings.embedded(dir);
    try (Connection h2 = DriverManager.getConnection(rssd.jdbcUrl(), rssd.user(), rssd.password());
        Statement st = h2.createStatement()) {
      st.execute(
          "insert into rs_config (objid, optionname, charvalue, updated) values ("
              + c.id()
              + ", 'password', '"
              + password
              + "', current_timestamp)");
    }
    assertThat(filesHolding(password))
        .as("precondition: the clear row is in the file")
        .isNotEmpty();
    terminateBackends();

    server = TestServers.start(dir, Map.of());

    assertThat(filesHolding(password)).as("files holding the password in clear").isEmpty();
    assertThat(server.rssd().connections().find(c.id()).orElseThrow().properties())
        .hasEntrySatisfying("password", v -> assertThat(v).startsWith("enc:1:"));
    assertThat(revealed()).isEqualTo(password);
    awaitDsiLogin();
  }

  @Test
  void aPasswordGivenAsAFileReferenceIsReadAtLoginAndNeverStored() throws Exception {
    Path pwFile = tmp.resolve("replicate.password");
    Files.writeString(pwFile, password + "\n");
    server = TestServers.start(dir, Map.of());
    try (Connection c = sa();
        Statement s = c.createStatement()) {
      s.execute(
          "create connection to rds."
              + replicate.name()
              + " using profile postgresql set server to '127.0.0.1', set port to '5432', set"
              + " user to '"
              + role
              + "', set password to 'file:"
              + pwFile
              + "'");
    }
    subscribe();

    awaitDsiLogin();
    assertThat(server.rssd().connections().find("rds", replicate.name()).orElseThrow().properties())
        .containsEntry("password", "file:" + pwFile);
    assertThat(revealed()).isEqualTo(password);
    assertThat(filesHolding(password)).as("files holding the password").isEmpty();
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void theKeyFileRssdDataDirectoryAndQueueFilesArePrivateToTheServersUser() throws Exception {
    server = TestServers.start(dir, Map.of()); // partition p1 is under the data directory
    server.createConnection("rds", "rdb", Profile.POSTGRESQL, false, Map.of());
    // A message makes the queue allocate its first segment file (nothing reads it here).
    server
        .outboundQueue("rds", "rdb")
        .orElseThrow()
        .append(new byte[] {1, 2, 3})
        .get(30, java.util.concurrent.TimeUnit.SECONDS);

    assertThat(mode(dir)).isEqualTo("rwx------");
    assertThat(mode(dir.resolve(SecretKeyFile.DEFAULT_NAME))).isEqualTo("rw-------");
    assertThat(mode(dir.resolve("rssd.mv.db"))).isEqualTo("rw-------");
    try (Stream<Path> all = Files.walk(dir)) {
      List<Path> paths = all.toList();
      assertThat(paths).anySatisfy(p -> assertThat(p.getFileName().toString()).endsWith(".seg"));
      for (Path p : paths) {
        assertThat(mode(p))
            .as(p.toString())
            .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
      }
    }
  }
}
