package dev.asa.facts;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The server's facts of a settled agreement, as a request reads them: parsed from the stored column
 * once, then asked for the escrow three times (its status, its funding time, the escrow view), the
 * deliverable twice, the verification and the settlement once. Typed facts are decoded once per
 * facts value; a new fact keeps the others' decoded records. Run with {@code ./asa bench-core
 * ServerFacts}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class ServerFactsBenchmark {

  private static final String STORED =
      "{\"template\":\"general\",\"activated_at\":\"2026-12-07T08:17:52.518Z\",\"escrow\":"
          + "{\"binding\":\"ledger\",\"status\":\"settled\",\"amount\":\"10.00\",\"currency\":"
          + "\"USD\",\"funded_at\":\"2026-12-07T08:17:52.833Z\",\"escrow_account\":"
          + "\"escrow:asa-2026-12-07-ccba7ebeabe3336e\"},\"deliverable\":{\"delivered_at\":"
          + "\"2026-12-07T08:17:53.009Z\",\"content_hash\":\"sha256:6de4a6071658c4f0b1a3cba0ef6037d"
          + "54287e921c4e70901ca1f524235ce3e36\",\"size_bytes\":164,\"format\":\"markdown\"},"
          + "\"verification\":{\"verification_id\":\"ver-2026-12-07-822cd5842afd03a1\","
          + "\"verified_at\":\"2026-12-07T08:17:53.213Z\",\"result\":\"PASS\",\"composite\":90.1,"
          + "\"payment_release_percent\":100,\"evaluation_hash\":\"sha256:8dbc3e18c59a8cd8accab9a"
          + "36d57e84de584f1e61a81d5c52f831cefa371dd76\",\"challenge_window_closes_at\":"
          + "\"2026-12-07T08:17:53.213Z\"},\"settlement\":{\"settled_at\":"
          + "\"2026-12-07T08:17:53.213Z\",\"reason\":\"verification_result\",\"release_percent\":"
          + "100,\"amount\":\"10.00\",\"currency\":\"USD\",\"released_to_provider\":\"10.00\","
          + "\"refunded_to_client\":\"0.00\",\"money_moved\":true,\"binding\":\"ledger\","
          + "\"closed_at\":\"2026-12-07T08:17:53.213Z\",\"verification_id\":"
          + "\"ver-2026-12-07-822cd5842afd03a1\"}}";

  private final ServerFacts settled = ServerFacts.fromStored(STORED);

  /**
   * A change's new fact on facts already read (a cached agreement's): the other members shared, not
   * copied, and their decoded records carried along; then read as the change's checks read them.
   */
  @Benchmark
  public void writeOneFactThenRead(Blackhole sink) {
    ServerFacts next = settled.withActivatedAt(java.time.Instant.EPOCH);
    sink.consume(next.escrowStatus());
    sink.consume(next.verification());
    sink.consume(next.activatedAt());
  }

  @Benchmark
  public void readAsARequestDoes(Blackhole sink) {
    ServerFacts facts = ServerFacts.fromStored(STORED);
    sink.consume(facts.escrowStatus());
    sink.consume(facts.fundedAt());
    sink.consume(facts.escrow());
    sink.consume(facts.deliverable());
    sink.consume(facts.deliveredAt());
    sink.consume(facts.verification());
    sink.consume(facts.settlement());
  }
}
