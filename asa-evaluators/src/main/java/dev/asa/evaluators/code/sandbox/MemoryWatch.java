package dev.asa.evaluators.code.sandbox;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Watches the memory a sandbox holds, and kills the sandbox when it passes the cap: the resident
 * memory of its processes together, plus what its files hold in its tmpfs mounts. RLIMIT_AS bounds
 * each process alone, so without the sum a deliverable that forks up to the process limit and
 * allocates in every child could use processes x memory; there are no cgroups to lean on (v1 and
 * not delegated in containers, and a server need not be root). Shared pages (a forked child's
 * copy-on-write memory) count once per process: the sum errs high.
 *
 * <p>A file in a tmpfs is memory that belongs to no process, so no RSS shows it: a deliverable
 * could hold each tmpfs's size that way beside the cap. Each mount has a size of its own, and this
 * counts what their files hold too, listed through {@code /proc/PID/root} of a process inside the
 * sandbox. ({@link java.nio.file.Files#getFileStore} cannot read such a mount: it resolves the path
 * to its real path first, {@code /sandbox}, which the host does not have.) A mount with more
 * entries than are worth listing ten times a second counts as full.
 */
final class MemoryWatch implements Runnable {
  static final Duration INTERVAL = Duration.ofMillis(100);
  static final int MAX_ENTRIES = 10_000;

  private final Process process;
  private final long capBytes;
  private final Map<String, Long> tmpfsMounts;
  private final String marker;
  private final Runnable onOverrun;
  private volatile boolean overrun;
  private long inside = -1;

  /**
   * @param tmpfsMounts the sandbox's writable tmpfs mount points, as paths inside it, and their
   *     sizes
   * @param marker a path that exists only in the sandbox's own root (its input directory)
   */
  MemoryWatch(
      Process process,
      long capBytes,
      Map<String, Long> tmpfsMounts,
      String marker,
      Runnable onOverrun) {
    this.process = process;
    this.capBytes = capBytes;
    this.tmpfsMounts = Map.copyOf(tmpfsMounts);
    this.marker = marker;
    this.onOverrun = onOverrun;
  }

  @Override
  public void run() {
    try {
      while (process.isAlive()) {
        if (heldBytes() > capBytes) {
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

  private long heldBytes() {
    List<ProcessHandle> all;
    try (Stream<ProcessHandle> s = process.descendants()) {
      all = s.toList();
    }
    long sum = 0;
    for (ProcessHandle p : all) {
      sum += resident(p.pid());
    }
    return sum + tmpfsBytes(all);
  }

  /** What the sandbox's files hold in its tmpfs mounts; 0 before a process is inside it. */
  private long tmpfsBytes(List<ProcessHandle> all) {
    if (inside < 0 || !insideTheSandbox(inside)) {
      inside =
          all.stream()
              .mapToLong(ProcessHandle::pid)
              .filter(this::insideTheSandbox)
              .findFirst()
              .orElse(-1);
    }
    if (inside < 0) {
      return 0;
    }
    long sum = 0;
    for (Map.Entry<String, Long> mount : tmpfsMounts.entrySet()) {
      sum += held(Path.of("/proc/" + inside + "/root" + mount.getKey()), mount.getValue());
    }
    return sum;
  }

  /**
   * Whether a process's root is the sandbox's, built: bubblewrap's processes start in a copy of the
   * host's mounts (whose /tmp is the host's) and only then pivot into the sandbox's root, in which
   * the marker exists.
   */
  private boolean insideTheSandbox(long pid) {
    return Files.exists(Path.of("/proc/" + pid + "/root" + marker));
  }

  /**
   * The bytes of the files under {@code dir}, at most {@code size}; {@code size} when it holds more
   * than {@link #MAX_ENTRIES} entries. A file that vanishes during the listing counts nothing.
   */
  static long held(Path dir, long size) {
    long[] bytes = {0};
    int[] entries = {0};
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
              return ++entries[0] > MAX_ENTRIES
                  ? FileVisitResult.TERMINATE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
              bytes[0] += attrs.size();
              return ++entries[0] > MAX_ENTRIES
                  ? FileVisitResult.TERMINATE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException | RuntimeException e) {
      // The sandbox ended under the listing: what was counted stands.
    }
    return entries[0] > MAX_ENTRIES ? size : Math.min(bytes[0], size);
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
