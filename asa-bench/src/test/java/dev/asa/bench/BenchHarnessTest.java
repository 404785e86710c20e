package dev.asa.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lifecycle benchmark's arithmetic and arguments (its figures are printed, not tested). */
class BenchHarnessTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    BenchOptions o = BenchOptions.parse();
    assertThat(o.seconds()).isEqualTo(20);
    assertThat(o.warmup()).isEqualTo(60);
    assertThat(o.clients()).isEqualTo(16);
    assertThat(o.stores()).containsExactly("sqlite", "postgresql");
    assertThat(o.server()).isNull();
    assertThat(o.nodes()).isEqualTo(1);
    assertThat(o.serverCores()).isEmpty();
    assertThat(o.coresOf(0)).isNull();
    assertThat(o.serverJavaOpts()).containsExactly("-XX:+UseSerialGC");
    assertThat(o.serverLogLevel()).isEqualTo("info");
    assertThat(o.keepStore()).isFalse();
    assertThat(o.settleJit()).isEqualTo(300);
    assertThat(BenchOptions.parse("--settle-jit", "0").settleJit()).isZero();
    assertThatThrownBy(() -> BenchOptions.parse("--settle-jit", "-1"))
        .hasMessageContaining("--settle-jit takes a whole number");
    assertThat(BenchOptions.parse("--keep-store", "true").keepStore()).isTrue();
    assertThatThrownBy(() -> BenchOptions.parse("--keep-store", "yes"))
        .hasMessageContaining("true or false");
  }

  @Test
  void theSignatureFloorIsReadAgainstTheServersCpu() {
    SignatureFloor floor = new SignatureFloor(8, 1, 50, 20, 35);
    assertThat(floor.millis()).isEqualTo(0.42);
    assertThat(floor.ratio(4.2)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(floor.describe("lifecycle", 4.2))
        .contains("0.42 ms")
        .contains("8 verifications at 50 us, 1 signing at 20 us")
        .contains("2,381 lifecycles/s on one core")
        .contains("a verification as the server makes it")
        .contains(": 35 us)")
        .contains("the server at 0.10 of it");
    assertThat(floor.describe("lifecycle", Double.NaN)).doesNotContain("the server at");
  }

  @Test
  void theFloorIsTheMeanOfBeforeAndAfterTheWindowAndADriftIsSaid() {
    SignatureFloor before = new SignatureFloor(8, 1, 50, 20, 35);
    SignatureFloor after = new SignatureFloor(8, 1, 90, 40, 55);
    assertThat(SignatureFloor.between(before, after))
        .isEqualTo(new SignatureFloor(8, 1, 70, 30, 45));
    assertThat(SignatureFloor.drift(before, after))
        .contains("machine speed moved")
        .contains("50 us before the measured window and 90 us after it");
    assertThat(SignatureFloor.drift(before, new SignatureFloor(8, 1, 54, 21, 36))).isEmpty();
  }

  @Test
  void theJitHasSettledWhenItsShareOfTheServersCpuIsSmall() {
    Map<String, Duration> byKind = new LinkedHashMap<>();
    byKind.put("work", Duration.ofMillis(960));
    byKind.put("jit", Duration.ofMillis(30));
    byKind.put("gc+vm", Duration.ofMillis(10));
    assertThat(LifecycleBenchmark.jitShare(byKind))
        .isCloseTo(0.03, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(LifecycleBenchmark.jitShare(byKind)).isLessThan(BenchOptions.SETTLED_JIT_SHARE);
    assertThat(LifecycleBenchmark.jitShare(Map.of())).isNaN();
  }

  @Test
  void theMachinesCoresAreCountedFromProcNotFromThePinnedProcess() {
    assertThat(ProcCpu.machineCores()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void serverThreadsAreToldApartByName() {
    assertThat(ServerProcess.threadKind("C2 CompilerThre")).isEqualTo("jit");
    assertThat(ServerProcess.threadKind("C1 CompilerThre")).isEqualTo("jit");
    assertThat(ServerProcess.threadKind("VM Thread")).isEqualTo("gc+vm");
    assertThat(ServerProcess.threadKind("GC Thread#0")).isEqualTo("gc+vm");
    assertThat(ServerProcess.threadKind("ForkJoinPool-1-")).isEqualTo("work");
    assertThat(ServerProcess.threadKind("asa-timers")).isEqualTo("work");
  }

  @Test
  void serverCoresTakesATasksetCpuList() {
    assertThat(BenchOptions.parse("--server-cores", "0").coresOf(0)).isEqualTo("0");
    assertThat(BenchOptions.parse("--server-cores", "0,2-3").serverCores())
        .containsExactly("0,2-3");
    assertThatThrownBy(() -> BenchOptions.parse("--server-cores", "zero"))
        .hasMessageContaining("CPU list");
    assertThatThrownBy(
            () -> BenchOptions.parse("--server-cores", "0", "--server", "http://127.0.0.1:8097"))
        .hasMessageContaining("--server URL");
  }

  @Test
  void nodesShareOneCpuListOrTakeOneEach() {
    BenchOptions each =
        BenchOptions.parse("--stores", "postgresql", "--nodes", "2", "--server-cores", "0/1");
    assertThat(each.nodes()).isEqualTo(2);
    assertThat(each.coresOf(0)).isEqualTo("0");
    assertThat(each.coresOf(1)).isEqualTo("1");
    assertThat(
            BenchOptions.parse("--stores", "postgresql", "--nodes", "2", "--server-cores", "0,1")
                .serverCores())
        .containsExactly("0,1", "0,1");
    assertThat(BenchOptions.parse("--stores", "postgresql", "--nodes", "3").serverCores())
        .isEmpty();
    assertThat(each.stickyAgreements()).isFalse();
    assertThat(BenchOptions.parse("--route", "agreement").stickyAgreements()).isTrue();
    assertThatThrownBy(() -> BenchOptions.parse("--route", "node"))
        .hasMessageContaining("--route takes call");
    assertThatThrownBy(() ->
            BenchOptions.parse("--stores", "postgresql", "--nodes", "3", "--server-cores", "0/1"))
        .hasMessageContaining("names 2 CPU lists for --nodes 3");
    assertThatThrownBy(() -> BenchOptions.parse("--stores", "postgresql", "--server-cores", "0/"))
        .hasMessageContaining("CPU list");
    assertThatThrownBy(() -> BenchOptions.parse("--nodes", "2"))
        .hasMessageContaining("needs --stores postgresql");
    assertThatThrownBy(() -> BenchOptions.parse("--stores", "postgresql", "--nodes", "0"))
        .hasMessageContaining("1 or more");
    assertThatThrownBy(() ->
            BenchOptions.parse(
                "--stores", "postgresql", "--nodes", "2", "--server", "http://127.0.0.1:8097"))
        .hasMessageContaining("--server URL");
  }

  @Test
  void eachNodeHasItsOwnDirectoryAndSessionName(@TempDir Path base) {
    assertThat(ServerNodes.dataDir(base, 0, 1)).isEqualTo(base.resolve("data"));
    assertThat(ServerNodes.dataDir(base, 1, 2)).isEqualTo(base.resolve("data-2"));
    assertThat(ServerNodes.withApplicationName("postgresql://u@h/db?currentSchema=s", "s-node-1"))
        .isEqualTo("postgresql://u@h/db?currentSchema=s&ApplicationName=s-node-1");
    assertThat(ServerNodes.withApplicationName("postgresql://u@h/db", "n"))
        .isEqualTo("postgresql://u@h/db?ApplicationName=n");
  }

  @Test
  void machineCpuIsWhatIsNeitherIdleNorWaiting() {
    // user 100, nice 5, system 40, idle 900, iowait 50, irq 2, softirq 3, steal 7 (ticks)
    assertThat(ProcCpu.machineBusy("cpu  100 5 40 900 50 2 3 7 0 0"))
        .isEqualTo(Duration.ofMillis(1_500));
  }

  @Test
  void postgresFiguresArePerUnitAndNameTheWaits() {
    Map<String, Integer> locked = new LinkedHashMap<>();
    locked.put(
        PostgresLoad.statement("UPDATE evaluators\n   SET evaluations = evaluations + 1"), 7);
    PostgresLoad.Window w =
        new PostgresLoad.Window(
            2_300,
            100,
            200,
            0,
            200,
            9,
            2,
            locked,
            Map.of("active on CPU", 40),
            0,
            0,
            Duration.ofSeconds(1),
            List.of(Duration.ofMillis(400), Duration.ofMillis(500)));
    assertThat(w.transactions()).isEqualTo(2_400);
    assertThat(w.describe("lifecycle", 100, 10.0))
        .anySatisfy(l -> assertThat(l).contains("PG transactions per lifecycle", "24.00"))
        .anySatisfy(l -> assertThat(l).contains("9 of 200 samples", "at most 2 at once"))
        .anySatisfy(
            l -> assertThat(l).contains("UPDATE evaluators SET evaluations = evaluations + 1 7"))
        .anySatisfy(l -> assertThat(l).contains("PG CPU per lifecycle", "10.00 ms", "0.10 cores"))
        .anySatisfy(l -> assertThat(l).contains("9.00 ms", "node 1 4.00 ms, node 2 5.00 ms"))
        .noneSatisfy(l -> assertThat(l).contains("not the benchmark's alone"));
    assertThat(w.atRest(2, 10.0)).contains("2 nodes", "240.0 transactions/s", "0.100 cores");
    assertThat(PostgresLoad.statement("x".repeat(100))).hasSize(60).endsWith("...");
  }

  @Test
  void refusesWhatItDoesNotKnow() {
    assertThatThrownBy(() -> BenchOptions.parse("--second", "5"))
        .hasMessageContaining("unknown option: --second");
    assertThatThrownBy(() -> BenchOptions.parse("--stores", "sqlite,mysql"))
        .hasMessageContaining("'mysql'");
    assertThatThrownBy(() -> BenchOptions.parse("--seconds", "-1"))
        .hasMessageContaining("whole number");
    assertThatThrownBy(() -> BenchOptions.parse("--seconds")).hasMessageContaining("usage");
  }

  @Test
  void theChildIsAsaServePinnedByTaskset() {
    List<String> c =
        ServerProcess.command(
            "0",
            "/jdk/bin/java",
            List.of("-XX:+UseSerialGC"),
            "a.jar:b.jar",
            "/tmp/d",
            "postgresql://u@h/db?currentSchema=s",
            "info",
            "/usr/bin/taskset");
    assertThat(c)
        .containsSubsequence("/usr/bin/taskset", "-c", "0", "/jdk/bin/java", "-XX:+UseSerialGC")
        .containsSubsequence("-cp", "a.jar:b.jar", "dev.asa.cli.Main", "serve")
        .containsSubsequence("--data-dir", "/tmp/d")
        .containsSubsequence("--db", "postgresql://u@h/db?currentSchema=s")
        .containsSubsequence("--rate-limit", "1000000");
    assertThat(
            ServerProcess.command(
                null, "java", List.of(), "cp", "/tmp/d", null, "warn", "/usr/bin/taskset"))
        .startsWith("java")
        .doesNotContain("--db", "/usr/bin/taskset");
  }

  @Test
  void procStatCountsUserAndSystemTicks() {
    // utime (field 14) 1234 and stime (field 15) 66 ticks of 10 ms; a name with a space and ')'.
    String stat =
        "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 66 0 0 20 0 40 0 100 0 0";
    assertThat(ProcCpu.procStatCpu(stat)).isEqualTo(Duration.ofMillis(13_000));
  }

  @Test
  void bytesPerClosedAgreement() {
    assertThat(new StoreFootprint(83_600_000, 4_700, 4_691, "asa.db", Map.of()).bytesPerClosed())
        .isEqualTo(17_821);
    assertThat(new StoreFootprint(8_000_000, 12, 0, "asa.db", Map.of()).bytesPerClosed())
        .isEqualTo(-1);
    Map<String, Long> tables = new LinkedHashMap<>();
    tables.put("agreement_events", 40_000_000L);
    tables.put("agreements", 20_000_000L);
    tables.put("timers", 5_000_000L);
    assertThat(new StoreFootprint(65_000_000, 5_000, 5_000, "asa.db", tables).largestPerClosed(2))
        .isEqualTo("agreement_events 8,000, agreements 4,000");
    Map<String, Long> withNonces = new LinkedHashMap<>(tables);
    withNonces.put("request_nonces", 5_000_000L);
    StoreFootprint nonces = new StoreFootprint(70_000_000, 5_000, 5_000, "asa.db", withNonces);
    assertThat(nonces.bytesPerClosed()).isEqualTo(14_000);
    assertThat(nonces.keptBytesPerClosed()).isEqualTo(13_000);
    assertThat(LifecycleBenchmark.perLifecycleMs(Duration.ofSeconds(8), 1_000)).isEqualTo(8.0);
  }
}
