package dev.asa.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * CPU time as Linux's /proc counts it (USER_HZ ticks, 100 per second): of one process, of every
 * process of one program, and of the whole machine. Elsewhere every reading is empty.
 */
final class ProcCpu {
  private ProcCpu() {}

  /** utime + stime of one process (all its threads), if /proc shows it. */
  static Optional<Duration> ofPid(long pid) {
    return stat(pid).map(ProcCpu::procStatCpu);
  }

  /**
   * The CPU time of every process whose command name is {@code comm} (e.g. "postgres": the
   * postmaster, its backends and its background workers), each with the time of its children that
   * have ended ({@code cutime + cstime}): a PostgreSQL backend that exits during a window leaves
   * the set, and its time moves into the postmaster's children's time, so the sum keeps it.
   */
  static Duration ofCommand(String comm) {
    long ticks = 0;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.toList()) {
        String name = proc.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          if (!Files.readString(proc.resolve("comm"), StandardCharsets.UTF_8)
              .strip()
              .equals(comm)) {
            continue;
          }
          long[] f = fields(Files.readString(proc.resolve("stat"), StandardCharsets.UTF_8));
          ticks += f[0] + f[1] + f[2] + f[3];
        } catch (IOException | RuntimeException e) {
          // the process ended between the listing and the read
        }
      }
    } catch (IOException e) {
      return Duration.ZERO;
    }
    return Duration.ofMillis(ticks * 10);
  }

  /** The command name of a process ("postgres", "java"), if it runs on this machine. */
  static Optional<String> comm(long pid) {
    try {
      return Optional.of(
          Files.readString(Path.of("/proc/" + pid + "/comm"), StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The whole machine's busy CPU time (every core: user, nice, system, irq and softirq from the
   * first line of /proc/stat), so that a window can say how many cores were busy in all: on a
   * shared machine the benchmark's processes are not the only ones.
   */
  static Optional<Duration> machineBusy() {
    try {
      String cpu = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.UTF_8).getFirst();
      return Optional.of(machineBusy(cpu));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The machine's cores as /proc/stat counts them; not {@code availableProcessors()}, which a
   * benchmark pinned with taskset sees as its own one core.
   */
  static int machineCores() {
    try {
      return (int)
          Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.UTF_8).stream()
              .filter(line -> line.matches("cpu\\d+ .*"))
              .count();
    } catch (IOException | RuntimeException e) {
      return Runtime.getRuntime().availableProcessors();
    }
  }

  /**
   * "cpu user nice system idle iowait irq softirq steal ..." -> user + nice + system + irq +
   * softirq (guest time is inside user already; steal is the hypervisor's, not this machine's
   * work).
   */
  static Duration machineBusy(String cpuLine) {
    String[] f = cpuLine.trim().split("\\s+");
    long busy = 0;
    for (int i : new int[] {1, 2, 3, 6, 7}) {
      busy += Long.parseLong(f[i]);
    }
    return Duration.ofMillis(busy * 10);
  }

  /**
   * utime + stime of a /proc/PID/stat line, in USER_HZ ticks (100 per second on Linux). The command
   * name in parentheses may contain spaces, so fields are counted after its ')'.
   */
  static Duration procStatCpu(String stat) {
    long[] f = fields(stat);
    return Duration.ofMillis((f[0] + f[1]) * 10);
  }

  /** utime, stime, cutime, cstime (fields 14 to 17) of a /proc/PID/stat line, in ticks. */
  private static long[] fields(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // f[0] is field 3 (state); utime is field 14.
    return new long[] {
      Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])
    };
  }

  private static Optional<String> stat(long pid) {
    try {
      return Optional.of(
          Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
