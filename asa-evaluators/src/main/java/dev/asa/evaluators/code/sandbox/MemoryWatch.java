package dev.asa.evaluators.code.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Watches the resident memory of a sandbox's processes together, and kills the sandbox when their
 * sum passes the cap. RLIMIT_AS bounds each process alone, so without this a deliverable that forks
 * up to the process limit and allocates in every child could use processes x memory; there are no
 * cgroups to lean on (v1 and not delegated in containers, and a server need not be root). Shared
 * pages (a forked child's copy-on-write memory) count once per process: the sum errs high.
 */
final class MemoryWatch implements Runnable {
  static final Duration INTERVAL = Duration.ofMillis(100);

  private final Process process;
  private final long capBytes;
  private final Runnable onOverrun;
  private volatile boolean overrun;

  MemoryWatch(Process process, long capBytes, Runnable onOverrun) {
    this.process = process;
    this.capBytes = capBytes;
    this.onOverrun = onOverrun;
  }

  @Override
  public void run() {
    try {
      while (process.isAlive()) {
        if (residentBytes() > capBytes) {
          overrun = true;
          onOverrun.run();
          return;
        }
        Thread.sleep(INTERVAL);
      }
    } catch (InterruptedException e) {
      // The run is over; so is the watch.
    }
  }

  boolean overrun() {
    return overrun;
  }

  private long residentBytes() {
    List<ProcessHandle> all;
    try (Stream<ProcessHandle> s = process.descendants()) {
      all = s.toList();
    }
    long sum = 0;
    for (ProcessHandle p : all) {
      sum += resident(p.pid());
    }
    return sum;
  }

  /** VmRSS from /proc/PID/status, in bytes; 0 when the process is gone. */
  static long resident(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException | java.io.UncheckedIOException e) {
      // Gone between the listing and the read.
    }
    return 0;
  }
}
