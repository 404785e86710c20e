package dev.asa.server.store.agreements;

import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An ended agreement's event log packed into one value and read back ({@link EventTrail}): the
 * seven events of the benchmark's lifecycle, with its payloads. {@code pack7} runs once per ended
 * agreement, in the transaction that ends it (hashes recomputed to leave out those that carry no
 * information, deflate at its default level against the trail dictionary); {@code unpack7} each
 * time an ended agreement's log is read (the left-out hashes recomputed). Run with {@code ./asa
 * bench-core EventTrail}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class EventTrailBenchmark {

  private static final String AGREEMENT = "asa-2026-12-07-df55705f7a099467";
  private static final String HASH =
      "sha256:06b1d871f8d0fc7f92f8d18dcbc0e03be334c354c8fe5f6e703a41a50bcebbe3";
  private static final String SIGNATURE =
      "KMY-pxUiLel8qzByogB2Na-mk6B4wHM3cZ9JEy5s6PdII7oNiWhdtEJLKE07Fj3_137FoT7EQHfKJHGJqlATBg";

  private List<EventRecord> log;
  private byte[] packed;

  @Setup
  public void setUp() {
    String client = actor("client", "P84rkvEi3iSNFiubscUTedsqVfiBcjq-VUnkNFrGQUg");
    String provider = actor("provider", "_-yRjmkXh8je0vZ5KlH7TMVwB7z6H6yABKQEZ6KXp7w");
    String[][] drafts = {
      {
        "created",
        client,
        "{\"agreement_hash\":\"" + HASH + "\",\"state\":\"PROPOSED\"," + "\"template\":\"general\"}"
      },
      {"signed", client, signed("client", "PROPOSED")},
      {"signed", provider, signed("provider", "ACTIVE")},
      {
        "funded",
        client,
        "{\"binding\":\"ledger\",\"status\":\"held\",\"amount\":\"10.00\","
            + "\"currency\":\"USD\",\"funded_at\":\"2026-12-07T08:01:11.569Z\",\"escrow_account\":"
            + "\"escrow:"
            + AGREEMENT
            + "\",\"state\":\"ACTIVE\"}"
      },
      {
        "delivered",
        provider,
        "{\"delivered_at\":\"2026-12-07T08:01:11.876Z\",\"content_hash\":\""
            + HASH.replace('0', 'a')
            + "\",\"size_bytes\":164,\"format\":\"markdown\","
            + "\"state\":\"DELIVERED\"}"
      },
      {
        "verified",
        actor("evaluator", "g-UzHsCKHddjfR2wk3BuT2R81wS4llgqnKk5rzxQC8U"),
        "{\"verification_id\":\"ver-2026-12-07-41cad0b25b9a6a42\",\"verified_at\":"
            + "\"2026-12-07T08:01:12.229Z\",\"result\":\"PASS\",\"composite\":90.1,"
            + "\"payment_release_percent\":100,\"evaluation_hash\":\""
            + HASH.replace('6', 'f')
            + "\",\"challenge_window_closes_at\":\"2026-12-07T08:01:12.229Z\","
            + "\"deliverable_hash\":\""
            + HASH.replace('0', 'a')
            + "\",\"state\":\"VERIFIED\"}"
      },
      {
        "closed",
        actor("server", "QQ2rSZ8-pbyofyzCar8NMceZNgLc1dBUCKYI1QAEq8I"),
        "{\"settled_at\":\"2026-12-07T08:01:12.229Z\",\"reason\":\"verification_result\","
            + "\"release_percent\":100,\"amount\":\"10.00\",\"currency\":\"USD\","
            + "\"released_to_provider\":\"10.00\",\"refunded_to_client\":\"0.00\","
            + "\"money_moved\":true,\"binding\":\"ledger\",\"closed_at\":"
            + "\"2026-12-07T08:01:12.229Z\",\"verification_id\":"
            + "\"ver-2026-12-07-41cad0b25b9a6a42\",\"state\":\"CLOSED\"}"
      },
    };
    log = new ArrayList<>();
    Event previous = null;
    Instant at = Instant.parse("2026-12-07T08:01:10.842Z");
    for (String[] d : drafts) {
      at = at.plusMillis(150);
      Event e =
          Event.append(
              previous, AGREEMENT, d[0], Json.parseTrusted(d[1]), at, Json.parseTrusted(d[2]));
      log.add(EventRecord.of(e));
      previous = e;
    }
    packed = EventTrail.pack(log);
    if (!EventTrail.unpack(AGREEMENT, packed).equals(log)) {
      throw new IllegalStateException("the trail did not read back as it was packed");
    }
  }

  private static String actor(String role, String key) {
    return "{\"role\":\"" + role + "\",\"key\":\"" + key + "\",\"authenticated\":true}";
  }

  private static String signed(String party, String state) {
    return "{\"party\":\""
        + party
        + "\",\"agreement_hash\":\""
        + HASH
        + "\",\"signature\":\""
        + SIGNATURE
        + "\",\"state\":\""
        + state
        + "\"}";
  }

  @Benchmark
  public byte[] pack7() {
    return EventTrail.pack(log);
  }

  @Benchmark
  public List<EventRecord> unpack7() {
    return EventTrail.unpack(AGREEMENT, packed);
  }
}
