package dev.asa.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * The hash-chained event log of one lifecycle: the eight events of a created, signed twice, funded,
 * delivered, verified and settled agreement, with payloads shaped like the server's (hashes,
 * signatures, escrow and delivery facts). {@code append8} chains them ({@link Event#append}: JCS
 * and SHA-256 of each); {@code verify8} checks the chain end to end as anyone holding the log can
 * ({@link EventChain#firstBreak}). Run with {@code ./asa bench-core EventChainBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class EventChainBenchmark {

  private static final String AGREEMENT = "asa-bench-0001";
  private static final Instant AT = Instant.parse("2026-11-24T08:00:00.123Z");

  private record Draft(String type, JsonNode actor, JsonNode payload) {}

  private List<Draft> drafts;
  private List<Event> chain;

  @Setup
  public void setUp() {
    String hash = Digest.sha256(new byte[] {1}).toString();
    String signature = "x".repeat(86);
    JsonNode client = actor("client", "alice");
    JsonNode provider = actor("provider", "bob");
    JsonNode server = actor("server", "server");
    drafts =
        List.of(
            new Draft(
                "created",
                client,
                Json.object()
                    .put("agreement_hash", hash)
                    .put("state", "PROPOSED")
                    .put("template", "general")),
            new Draft("signed", client, signed("client", hash, signature, "PROPOSED")),
            new Draft("signed", provider, signed("provider", hash, signature, "ACTIVE")),
            new Draft("funded", client, funded()),
            new Draft("delivered", provider, delivered(hash)),
            new Draft(
                "verified",
                server,
                Json.object()
                    .put("verification_id", "ver-0001")
                    .put("result", "PASS")
                    .put("composite_score", "86.550")
                    .put("payment_release_percent", "85")
                    .put("result_hash", hash)
                    .put("state", "VERIFIED")),
            new Draft("challenge_window_closed", server, Json.object().put("state", "VERIFIED")),
            new Draft(
                "settled",
                server,
                Json.object()
                    .put("released", "8.50")
                    .put("refunded", "1.50")
                    .put("currency", "USD")
                    .put("state", "CLOSED")));
    chain = append8();
    if (EventChain.firstBreak(chain).isPresent()) {
      throw new IllegalStateException("the benchmark's chain does not verify");
    }
  }

  private static JsonNode actor(String role, String name) {
    return Json.object()
        .put("role", role)
        .put("key", Fixtures.key(name).publicKey().toBase64Url())
        .put("authenticated", true);
  }

  private static ObjectNode signed(String party, String hash, String signature, String state) {
    return Json.object()
        .put("party", party)
        .put("agreement_hash", hash)
        .put("signature", signature)
        .put("state", state);
  }

  private static ObjectNode funded() {
    ObjectNode o = Json.object().put("status", "funded").put("binding", "ledger");
    o.putObject("amount").put("amount", "10.00").put("currency", "USD");
    o.put("funded_at", AT.toString()).put("state", "ACTIVE");
    return o;
  }

  private static ObjectNode delivered(String hash) {
    return Json.object()
        .put("attempt", 1)
        .put("format", "markdown")
        .put("content_hash", hash)
        .put("size_bytes", 5120)
        .put("delivered_at", AT.toString())
        .put("state", "DELIVERED");
  }

  /** Chains the eight events from nothing. */
  @Benchmark
  public List<Event> append8() {
    List<Event> events = new ArrayList<>(drafts.size());
    Event previous = null;
    for (Draft d : drafts) {
      previous = Event.append(previous, AGREEMENT, d.type(), d.actor(), AT, d.payload());
      events.add(previous);
    }
    return events;
  }

  /** Recomputes and checks every link of the eight-event chain. */
  @Benchmark
  public Optional<String> verify8() {
    return EventChain.firstBreak(chain);
  }
}
