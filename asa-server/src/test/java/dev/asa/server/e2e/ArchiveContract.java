package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.archive.ArchiveVerifier;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.archive.ArchiveSchedule;
import dev.asa.server.archive.Archiver;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.ArchiveSeed;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.timers.DuePoller;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Archival after retention (issue 57 item 4) on a real server and store: {@link #COPIES} ended
 * agreements (copies of one that went through its lifecycle, each with its own event chain; 1,000
 * in the suite, 10,000 with {@code ./asa bench-archive}) leave the hot tables while the server
 * takes load; an archiving process is killed with SIGKILL in the middle, twice, at seeded moments;
 * afterwards every agreement is in exactly one place (the hot tables or one archive, never both,
 * never neither), every archive file verifies offline, archived ids answer 410 to a party and 404
 * to a stranger, reputation is unchanged, and the load saw no error. The seed is printed; {@code
 * -Dasa.test.seed} replays a run.
 */
abstract class ArchiveContract {
  /** How many copies; {@code -Dasa.archive.copies=N} runs more ({@code ./asa bench-archive}). */
  static final int COPIES = Integer.getInteger("asa.archive.copies", 1_000);

  static final Instant CUTOFF = Instant.parse("2026-01-01T00:00:00Z");

  private final MutableClock clock = new MutableClock(Instant.parse("2025-12-20T10:00:00Z"));

  /** The server configuration with this suite's store and data directory. */
  abstract ServerConfig withStore(ServerConfig config);

  abstract Path dataDir();

  /** The URL an archiving process opens ({@code ""} for the data directory's SQLite file). */
  abstract String dbUrl();

  /** A JDBC connection to the same database, to seed and count. */
  abstract Connection connect() throws SQLException;

  @Test
  void thousandsOfEndedAgreementsEachEndInExactlyOnePlace() throws Exception {
    long seed = Long.getLong("asa.test.seed", System.nanoTime());
    System.out.println("seed " + seed);
    SplittableRandom random = new SplittableRandom(seed);
    try (AsaServer server =
        AsaServer.start(
            withStore(
                ServerConfig.defaults()
                    .withPort(0)
                    .withClock(clock)
                    .withOperatorKey(Fixtures.key("operator").publicKey())
                    .withRateLimit(10_000, 10_000)
                    .withTimerPolling(false)))) {
      AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
      AsaClient alice = anonymous.withKey(Fixtures.key("alice"), clock);
      AsaClient bob = anonymous.withKey(Fixtures.key("bob"), clock);
      AsaClient evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
      AsaClient operator = anonymous.withKey(Fixtures.key("operator"), clock);
      AsaClient mallory = anonymous.withKey(Fixtures.key("mallory"), clock);

      // One agreement through its whole lifecycle, ended before the cutoff; then the copies.
      String source = closed(alice, bob, evaluator, "parties_and_arp");
      JsonNode reputationBefore = figures(anonymous.reputation("api_key", "bob"));
      long began = System.nanoTime();
      List<String> copies;
      try (Connection c = connect()) {
        copies = ArchiveSeed.copies(c, source, COPIES, Instant.parse("2025-06-01T00:00:00Z"));
      }
      System.out.printf("seeded %d copies in %d ms%n", COPIES, millis(began));
      List<String> all = new ArrayList<>(copies);
      all.add(source);
      Map<String, Long> hotBefore = hotRows();
      clock.advance(
          Duration.between(
              clock.instant(),
              Instant.now())); // the load's agreements end after the cutoff: never archived

      // Two archiving processes killed in the middle, at seeded moments.
      for (int round = 0; round < 2; round++) {
        killArchiverAfter(1_000 + random.nextInt(2_000));
        assertExactlyOnePlace(all, false);
      }

      // The rest through the operator's route, while two clients run lifecycles.
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger lifecycles = new AtomicInteger();
      List<Throwable> loadErrors = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Thread> load = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        load.add(
            Thread.ofPlatform()
                .start(() -> {
                  while (!stop.get()) {
                    try {
                      clock.advance(Duration.ofSeconds(1)); // the rate limiter refills by it
                      // Not published: what the load adds to reputation would hide what archiving
                      // changed.
                      String id = closed(alice, bob, evaluator, "parties");
                      alice.agreement(id);
                      lifecycles.incrementAndGet();
                    } catch (Throwable e) {
                      loadErrors.add(e);
                      return;
                    }
                  }
                }));
      }
      began = System.nanoTime();
      JsonNode archive = operator.startArchive("2026-01-01");
      String name = archive.path("name").asText();
      while (!archive.path("status").asText().equals("complete")) {
        Thread.sleep(200);
        archive = operator.archive(name);
      }
      long archiveMillis = millis(began);
      stop.set(true);
      for (Thread t : load) {
        t.join(60_000);
      }
      System.out.printf(
          "the operator's run archived %d agreements in %d ms (%.0f/s) beside %d lifecycles"
              + " (%.1f/s)%n",
          archive.path("agreements").asLong(),
          archiveMillis,
          archive.path("agreements").asLong() * 1000.0 / archiveMillis,
          lifecycles.get(),
          lifecycles.get() * 1000.0 / archiveMillis);
      assertThat(loadErrors).as("errors of the load").isEmpty();
      assertThat(lifecycles.get()).as("the load ran").isPositive();

      // Every agreement in exactly one archive; every archive verifies under the server's key.
      Map<String, String> archived = assertExactlyOnePlace(all, true);
      assertThat(archived).hasSize(all.size());
      Path downloaded = dataDir().resolve("downloaded.jsonl");
      operator.downloadArchive(name, downloaded);
      assertThat(Files.mismatch(downloaded, dataDir().resolve("archives").resolve(name)))
          .isEqualTo(-1L);
      Map<String, Long> hotAfter = hotRows();
      System.out.println("hot rows before " + hotBefore + ", after " + hotAfter);
      assertThat(hotAfter.get("agreements"))
          .isEqualTo(hotBefore.get("agreements") - all.size() + lifecycles.get());

      // Reads: 410 naming the archive to a party, 404 to a stranger; reputation unchanged.
      for (int i = 0; i < 20; i++) {
        String id = all.get(random.nextInt(all.size()));
        assertThatThrownBy(() -> alice.agreement(id))
            .isInstanceOfSatisfying(
                AsaApiException.class,
                e -> {
                  assertThat(e.status()).isEqualTo(410);
                  assertThat(e.problem().path("archive").asText()).isEqualTo(archived.get(id));
                });
        assertThatThrownBy(() -> mallory.agreement(id))
            .isInstanceOfSatisfying(
                AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
      }
      assertThatThrownBy(() -> bob.events(source))
          .isInstanceOfSatisfying(
              AsaApiException.class, e -> assertThat(e.status()).isEqualTo(410));
      assertThat(figures(anonymous.reputation("api_key", "bob"))).isEqualTo(reputationBefore);

      // --retention-days: the schedule archives, on its own, what ended longer ago than that.
      String fresh = closed(alice, bob, evaluator, "parties");
      List<String> later;
      try (Connection c = connect()) {
        later = ArchiveSeed.copies(c, fresh, 200, Instant.parse("2025-06-01T00:00:00Z"));
      }
      try (Store store = Stores.open(dbUrl(), dataDir());
          DuePoller schedule =
              DuePoller.start(
                  List.of(
                      ArchiveSchedule.due(
                          new Archiver(
                              store.archives(),
                              dev.asa.server.ServerKey.loadOrCreate(dataDir()),
                              dataDir().resolve("archives"),
                              java.time.Clock.systemUTC(),
                              50),
                          Duration.ofDays(365),
                          java.time.Clock.systemUTC(),
                          Duration.ZERO,
                          Duration.ofMillis(200))))) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while ((later.stream().anyMatch(id -> store.archives().tombstone(id).isEmpty())
                || !store.archives().writing().isEmpty())
            && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
      }
      all.addAll(later);
      all.add(fresh);
      Map<String, String> after = assertExactlyOnePlace(all, true);
      assertThat(after.keySet()).containsAll(later).doesNotContain(fresh);
    }
  }

  /** An agreement from creation to CLOSED: a pessimistic PASS closes at once. */
  private String closed(
      AsaClient alice, AsaClient bob, AsaClient evaluator, String resultVisibility) {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification")
        .put("strategy", "pessimistic")
        .put("result_visibility", resultVisibility);
    String id = alice.createAgreement(doc).path("agreement_id").asText();
    alice.sign(id, Role.CLIENT, Fixtures.key("alice"));
    bob.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    alice.fund(id);
    bob.deliver(id, CollateralContract.REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 92, 95));
    assertThat(alice.status(id).path("state").asText()).isEqualTo("CLOSED");
    return id;
  }

  /** The reputation figures, without what changes with each read (times, signatures). */
  private static JsonNode figures(JsonNode reputation) {
    ObjectNode out = Json.object();
    for (JsonNode s : reputation.path("signals")) {
      out.put(
          s.path("role").asText() + " " + s.path("signal_id").asText(),
          s.path("value").asText() + " over " + s.path("sample_size").asText());
    }
    return out;
  }

  private void killArchiverAfter(int millis) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ArchiveCrashRunner.class.getName(),
                dbUrl(),
                dataDir().toString(),
                CUTOFF.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("STARTED");
      Thread.sleep(millis);
    } finally {
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    System.out.printf("killed an archiving process after %d ms%n", millis);
  }

  /**
   * Each agreement is in the hot tables or in one archive, never both, never neither. An archive a
   * run was killed in holds its committed part (the tombstones), whatever bytes lie past it.
   *
   * @param closed whether every archive must be complete and verify
   * @return where each archived agreement is
   */
  private Map<String, String> assertExactlyOnePlace(List<String> ids, boolean closed)
      throws Exception {
    Set<String> hot = new HashSet<>();
    Map<String, String> tombstones = new HashMap<>();
    Map<String, Long[]> archives = new LinkedHashMap<>();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT id FROM agreements")) {
        while (rs.next()) {
          hot.add(rs.getString(1));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT id, archive FROM archived_agreements")) {
        while (rs.next()) {
          tombstones.put(rs.getString(1), rs.getString(2));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT name, bytes, agreements, state FROM archives")) {
        while (rs.next()) {
          archives.put(
              rs.getString(1),
              new Long[] {
                rs.getLong(2), rs.getLong(3), "complete".equals(rs.getString(4)) ? 1L : 0L
              });
        }
      }
    }
    Map<String, String> inFiles = new HashMap<>();
    Ed25519PublicKey key = dev.asa.server.ServerKey.loadOrCreate(dataDir()).publicKey();
    for (var a : archives.entrySet()) {
      Path file = dataDir().resolve("archives").resolve(a.getKey());
      long committed = a.getValue()[0];
      byte[] bytes = Files.readAllBytes(file);
      assertThat((long) bytes.length).as(a.getKey()).isGreaterThanOrEqualTo(committed);
      String text = new String(bytes, 0, (int) committed, StandardCharsets.UTF_8);
      String[] lines = text.lines().toArray(String[]::new);
      boolean complete = a.getValue()[2] == 1L;
      // Line 1 is the header; a complete archive's committed part ends with its manifest.
      int records = lines.length - 1 - (complete ? 1 : 0);
      for (int i = 1; i <= records; i++) {
        String id = Json.parseTrusted(lines[i]).path("agreement_id").asText();
        assertThat(inFiles.put(id, a.getKey())).as("%s in two archives", id).isNull();
      }
      assertThat((long) records).as(a.getKey()).isEqualTo(a.getValue()[1]);
      if (closed) {
        assertThat(a.getValue()[2]).as(a.getKey() + " complete").isEqualTo(1L);
        ArchiveVerifier.Report report = ArchiveVerifier.verify(file, key);
        assertThat(report.problems()).as(a.getKey()).isEmpty();
        assertThat(report.agreements()).isEqualTo(a.getValue()[1]);
      }
    }
    assertThat(inFiles)
        .as("the archives' committed parts are the tombstones")
        .isEqualTo(tombstones);
    for (String id : ids) {
      assertThat(hot.contains(id) ^ inFiles.containsKey(id))
          .as(
              "%s is in exactly one place (hot %s, archived %s)",
              id, hot.contains(id), inFiles.get(id))
          .isTrue();
    }
    System.out.printf(
        "%d archives; %d agreements archived, %d of the %d still hot%n",
        archives.size(), inFiles.size(), ids.stream().filter(hot::contains).count(), ids.size());
    return inFiles;
  }

  private Map<String, Long> hotRows() throws SQLException {
    Map<String, Long> rows = new LinkedHashMap<>();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String table :
          List.of("agreements", "agreement_events", "ledger_entries", "verifications", "outbox")) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          rows.put(table, rs.getLong(1));
        }
      }
    }
    return rows;
  }

  private static long millis(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }
}
