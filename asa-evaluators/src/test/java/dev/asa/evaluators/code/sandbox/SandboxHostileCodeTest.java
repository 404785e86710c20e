package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.asa.evaluators.code.sandbox.TestCaseResult.Outcome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile code is the normal case (issue 16): each deliverable here attacks, and each test checks
 * that the attack was stopped or refused, that the result says so, and that this JVM (standing in
 * for the server) is unharmed: after every test a plain deliverable still runs and passes, and no
 * sandboxed process is left behind. Kill deadlines are generous; nothing here times the sandbox.
 */
class SandboxHostileCodeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static TestRunner runner;

  @BeforeAll
  static void runner() {
    runner = SandboxRequired.runner();
    SandboxRequired.runtime(Language.PYTHON);
  }

  @AfterEach
  void theServerIsUnharmed() {
    TestRun run =
        python(
            Map.of("ok.py", "def one():\n    return 1\n"),
            "from ok import one\n\ndef test_one():\n    assert one() == 1\n",
            Limits.defaults());
    assertTrue(run.allPassed(), run.output());
    assertTrue(noSandboxedProcessLeft(), "a sandboxed process outlived its run");
    assertTrue(noSandboxThreadLeft(), "a sandbox's reader or watch thread outlived its run");
  }

  private static boolean noSandboxThreadLeft() {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      if (Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.isAlive() && t.getName().startsWith("sandbox-"))) {
        return true;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  /** Leftovers would be descendants of this JVM still running bubblewrap's children. */
  private static boolean noSandboxedProcessLeft() {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      boolean any = ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive);
      if (!any) {
        return true;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private static TestRun python(Map<String, String> files, String tests, Limits limits) {
    long start = System.nanoTime();
    TestRun run = runner.run(Language.PYTHON, files, TestFile.of(Language.PYTHON, tests), limits);
    assertTrue(
        Duration.ofNanos(System.nanoTime() - start).compareTo(DEADLINE) < 0,
        "the run outlived its kill deadline");
    return run;
  }

  private static TestCaseResult only(TestRun run) {
    assertEquals(1, run.run(), () -> run.tests() + "\n" + run.output() + run.problem());
    return run.tests().get(0);
  }

  @Test
  void aForkBombIsCappedByTheProcessLimit() {
    String tests =
        """
        import os, time

        def test_fork_bomb():
            children = 0
            try:
                while True:
                    if os.fork() == 0:
                        time.sleep(1000)
                        os._exit(0)
                    children += 1
            except OSError as e:
                raise AssertionError("fork refused after %d children: %s" % (children, e))
        """;
    TestRun run = python(Map.of(), tests, Limits.defaults().withProcesses(32));
    TestCaseResult t = only(run);
    assertEquals(Outcome.FAILED, t.outcome(), t.message());
    assertTrue(t.message().contains("fork refused after"), t.message());
    int children = Integer.parseInt(t.message().replaceAll("(?s).*after (\\d+) children.*", "$1"));
    assertTrue(children < 32, "forked " + children);
    // The sleeping children die with the sandbox when the harness exits: no wall-clock wait.
    assertFalse(run.timedOut());
  }

  @Test
  void aForkBombThatNeverStopsIsKilledWholeByTheWallClock() {
    String tests =
        """
        import os

        def test_fork_forever():
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """;
    TestRun run =
        python(
            Map.of(),
            tests,
            Limits.defaults().withProcesses(16).withWallClock(Duration.ofSeconds(4)));
    assertTrue(run.timedOut() && run.killed());
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("wall-clock"), t.message());
  }

  @Test
  void unboundedAllocationHitsTheMemoryLimit() {
    String tests =
        """
        def test_allocate_forever():
            chunks = []
            while True:
                chunks.append(bytearray(8 * 1024 * 1024))
        """;
    TestRun run = python(Map.of(), tests, Limits.defaults().withMemoryBytes(128L << 20));
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("MemoryError"), t.message());
    assertFalse(run.timedOut());
  }

  @Test
  void allocatingInManyForkedChildrenIsKilledByTheTotalMemoryWatch() {
    String tests =
        """
        import os, time

        def test_fork_and_allocate():
            for _ in range(12):
                if os.fork() == 0:
                    block = b"x" * (64 * 1024 * 1024)
                    time.sleep(1000)
                    os._exit(0)
            time.sleep(1000)
        """;
    // Each child stays under its own address space limit; together they pass the total (the
    // runner adds 256 MiB for the runtime: 384 MiB against 12 x 64 MiB).
    TestRun run =
        python(
            Map.of(),
            tests,
            Limits.defaults()
                .withMemoryBytes(128L << 20)
                .withTotalMemoryBytes(256L << 20)
                .withWallClock(Duration.ofSeconds(60)));
    assertTrue(run.killed());
    assertFalse(run.timedOut(), "the memory watch, not the wall clock, ended it");
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("memory limit"), t.message());
  }

  @Test
  void unboundedAllocationAndThreadsInJavaAreStoppedToo() {
    SandboxRequired.runtime(Language.JAVA);
    String tests =
        """
        import java.util.ArrayList;
        import java.util.List;

        public class DeliverableTest {
          public static void testAllocateForever() {
            List<long[]> chunks = new ArrayList<>();
            while (true) chunks.add(new long[1 << 20]);
          }
          public static void testThreadsForever() throws Exception {
            while (true) {
              Thread t = new Thread(() -> { try { Thread.sleep(1_000_000); } catch (Exception e) {} });
              t.setDaemon(true);
              t.start();
            }
          }
        }
        """;
    TestRun run =
        runner.run(
            Language.JAVA,
            Map.of(),
            TestFile.of(Language.JAVA, tests),
            Limits.defaults().withMemoryBytes(128L << 20));
    Map<String, TestCaseResult> byName =
        run.tests().stream().collect(Collectors.toMap(TestCaseResult::name, t -> t));
    assertEquals(2, byName.size(), run.output() + run.problem());
    TestCaseResult heap = byName.get("DeliverableTest.testAllocateForever");
    assertEquals(Outcome.ERRORED, heap.outcome());
    assertTrue(heap.message().contains("OutOfMemoryError"), heap.message());
    TestCaseResult threads = byName.get("DeliverableTest.testThreadsForever");
    assertEquals(Outcome.ERRORED, threads.outcome());
    assertTrue(threads.message().contains("unable to create native thread"), threads.message());
  }

  @Test
  void sleepingForeverIsKilledByTheWallClock() {
    TestRun run =
        python(
            Map.of(),
            "import time\n\ndef test_sleep():\n    time.sleep(10 ** 6)\n",
            Limits.defaults().withWallClock(Duration.ofSeconds(3)));
    assertTrue(run.timedOut());
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("wall-clock"), t.message());
  }

  @Test
  void spinningForeverIsKilledByTheCpuLimitBeforeTheWallClock() {
    TestRun run =
        python(
            Map.of(),
            "def test_spin():\n    while True:\n        pass\n",
            Limits.defaults()
                .withCpuTime(Duration.ofSeconds(2))
                .withWallClock(Duration.ofSeconds(60)));
    assertFalse(run.timedOut());
    assertTrue(run.killed());
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("signal 9"), t.message());
  }

  @Test
  void fillingTheDiskStopsAtTheWorkDirectoryAndFileCaps() {
    String tests =
        """
        import os

        def test_many_files():
            for i in range(100000):
                with open("junk%d" % i, "wb") as f:
                    f.write(b"x" * (1 << 20))

        def test_one_huge_file():
            with open("/tmp/huge", "wb") as f:
                while True:
                    f.write(b"x" * (1 << 20))
        """;
    TestRun run = python(Map.of(), tests, Limits.defaults().withWorkDirBytes(32L << 20));
    Map<String, TestCaseResult> byName =
        run.tests().stream().collect(Collectors.toMap(TestCaseResult::name, t -> t));
    assertTrue(
        byName.get("test_many_files").message().contains("No space left on device"),
        byName.get("test_many_files").message());
    assertTrue(
        byName.get("test_one_huge_file").message().contains("File too large"),
        byName.get("test_one_huge_file").message());
    assertFalse(run.timedOut());
  }

  @Test
  void floodingTheOutputIsKilledAtTheCap() {
    TestRun run =
        python(
            Map.of(),
            "def test_flood():\n    while True:\n        print('x' * 1000)\n",
            Limits.defaults().withOutputBytes(64 * 1024));
    assertTrue(run.killed());
    assertFalse(run.timedOut());
    TestCaseResult t = only(run);
    assertEquals(Outcome.ERRORED, t.outcome());
    assertTrue(t.message().contains("output limit"), t.message());
    assertTrue(run.output().length() < 10_000, "the output is trimmed");
  }

  @Test
  void writingOutsideItsDirectoryFails(@TempDir Path host) {
    String tests =
        """
        HOST = %s

        def test_escape():
            written = []
            for path in [HOST + "/pwned", "/tmp/../usr/pwned", "../pwned", "/etc/pwned",
                         "/pwned", "/usr/lib/pwned"]:
                try:
                    with open(path, "w") as f:
                        f.write("x")
                    written.append(path)
                except OSError:
                    pass
            assert not written, written
        """
            .formatted(pythonString(host.toString()));
    TestRun run = python(Map.of(), tests, Limits.defaults());
    TestCaseResult t = only(run);
    assertEquals(Outcome.PASSED, t.outcome(), t.message());
    for (Path p :
        List.of(
            host.resolve("pwned"),
            Path.of("/tmp/pwned"),
            Path.of("/usr/pwned"),
            Path.of("/pwned"),
            Path.of("/etc/pwned"),
            Path.of("/usr/lib/pwned"))) {
      assertFalse(Files.exists(p), p + " was written");
    }
  }

  @Test
  void noSocketReachesAnything() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      server.setSoTimeout(500);
      String tests =
          """
          import socket

          def test_network():
              reached = []
              for host, port in [("127.0.0.1", %d), ("1.1.1.1", 80), ("example.com", 80)]:
                  try:
                      socket.create_connection((host, port), timeout=3).close()
                      reached.append(host)
                  except OSError:
                      pass
              assert not reached, reached
          """
              .formatted(server.getLocalPort());
      TestRun run = python(Map.of(), tests, Limits.defaults());
      TestCaseResult t = only(run);
      assertEquals(Outcome.PASSED, t.outcome(), t.message());
      try (var accepted = server.accept()) {
        throw new AssertionError("the sandbox reached the host's loopback: " + accepted);
      } catch (SocketTimeoutException expected) {
        // Nothing connected to this JVM's port.
      }
    }
  }

  @Test
  void theServersDataDirectoryCannotBeRead(@TempDir Path dataDir) throws IOException {
    String secret = UUID.randomUUID().toString();
    Files.writeString(dataDir.resolve("asa.db"), secret);
    Files.writeString(dataDir.resolve("server.key"), secret);
    String tests =
        """
        import os

        DATA = %s

        def test_steal():
            found = []
            for path in [DATA + "/asa.db", DATA + "/server.key", "/proc/1/root" + DATA + "/asa.db"]:
                try:
                    with open(path) as f:
                        found.append(f.read())
                except OSError:
                    pass
            for d in [DATA, "/work", "/root", "/home", "/var/lib"]:
                try:
                    found.append(" ".join(os.listdir(d)))
                except OSError:
                    pass
            print("FOUND", found)
            assert not found, found
        """
            .formatted(pythonString(dataDir.toString()));
    TestRun run = python(Map.of(), tests, Limits.defaults());
    TestCaseResult t = only(run);
    assertEquals(Outcome.PASSED, t.outcome(), t.message());
    assertFalse(run.output().contains(secret));
    assertFalse(t.message().contains(secret));
  }

  private static String pythonString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
