package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.Objects;

/**
 * What one sandboxed run may use. Every limit is enforced outside the code under test: the kernel
 * (rlimits set by {@code prlimit} inside the sandbox) or this JVM (the wall clock, the output cap,
 * the input caps).
 *
 * @param wallClock real time before the whole sandbox is killed (Java side, SIGKILL)
 * @param cpuTime CPU seconds per process (RLIMIT_CPU, rounded up to whole seconds; SIGKILL at the
 *     limit)
 * @param memoryBytes for {@link Sandbox}: the address space of each process (RLIMIT_AS); for {@link
 *     TestRunner}: what the program may allocate, to which the runner adds its runtime's own
 *     reservation (a JVM or V8 reserves far more address space than it uses)
 * @param totalMemoryBytes resident memory of all the sandbox's processes together, plus what the
 *     files in its tmpfs mounts hold (memory no process's RSS shows), summed by this JVM every 100
 *     ms; the sandbox is killed past it (RLIMIT_AS alone would allow processes x memory)
 * @param processes processes and threads the sandbox's user may have at once (RLIMIT_NPROC, counted
 *     inside the sandbox's own user namespace)
 * @param fileSizeBytes the largest file a process may write (RLIMIT_FSIZE)
 * @param openFiles open file descriptors per process (RLIMIT_NOFILE)
 * @param outputBytes stdout and stderr kept, each; a run that prints more is killed
 * @param workDirBytes the work directory's size (a tmpfs of this size: the input files, the
 *     program's own files); writes past it fail with ENOSPC
 * @param maxFiles input files accepted
 * @param maxInputBytes input bytes accepted (UTF-8, all files together)
 */
public record Limits(
    Duration wallClock,
    Duration cpuTime,
    long memoryBytes,
    long totalMemoryBytes,
    int processes,
    long fileSizeBytes,
    int openFiles,
    int outputBytes,
    long workDirBytes,
    int maxFiles,
    long maxInputBytes) {

  private static final long MIB = 1024L * 1024L;

  public Limits {
    Objects.requireNonNull(wallClock, "wallClock");
    Objects.requireNonNull(cpuTime, "cpuTime");
    if (wallClock.isNegative() || wallClock.isZero()) {
      throw new IllegalArgumentException("wallClock must be positive");
    }
    if (cpuTime.isNegative() || cpuTime.isZero()) {
      throw new IllegalArgumentException("cpuTime must be positive");
    }
    positive(memoryBytes, "memoryBytes");
    positive(totalMemoryBytes, "totalMemoryBytes");
    positive(processes, "processes");
    positive(fileSizeBytes, "fileSizeBytes");
    positive(openFiles, "openFiles");
    positive(outputBytes, "outputBytes");
    positive(workDirBytes, "workDirBytes");
    positive(maxFiles, "maxFiles");
    positive(maxInputBytes, "maxInputBytes");
  }

  /**
   * 30 s of wall clock, 20 CPU seconds, 512 MiB per process and 1 GiB resident in all, 64 processes
   * and threads, 16 MiB files, 256 descriptors, 256 KiB of each output stream, a 64 MiB work
   * directory, 200 input files and 4 MiB of input.
   */
  public static Limits defaults() {
    return new Limits(
        Duration.ofSeconds(30),
        Duration.ofSeconds(20),
        512 * MIB,
        1024 * MIB,
        64,
        16 * MIB,
        256,
        256 * 1024,
        64 * MIB,
        200,
        4 * MIB);
  }

  public Limits withWallClock(Duration value) {
    return new Limits(
        value,
        cpuTime,
        memoryBytes,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withCpuTime(Duration value) {
    return new Limits(
        wallClock,
        value,
        memoryBytes,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withMemoryBytes(long value) {
    return new Limits(
        wallClock,
        cpuTime,
        value,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withTotalMemoryBytes(long value) {
    return new Limits(
        wallClock,
        cpuTime,
        memoryBytes,
        value,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withProcesses(int value) {
    return new Limits(
        wallClock,
        cpuTime,
        memoryBytes,
        totalMemoryBytes,
        value,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withOutputBytes(int value) {
    return new Limits(
        wallClock,
        cpuTime,
        memoryBytes,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        value,
        workDirBytes,
        maxFiles,
        maxInputBytes);
  }

  public Limits withWorkDirBytes(long value) {
    return new Limits(
        wallClock,
        cpuTime,
        memoryBytes,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        value,
        maxFiles,
        maxInputBytes);
  }

  public Limits withInputCaps(int files, long bytes) {
    return new Limits(
        wallClock,
        cpuTime,
        memoryBytes,
        totalMemoryBytes,
        processes,
        fileSizeBytes,
        openFiles,
        outputBytes,
        workDirBytes,
        files,
        bytes);
  }

  /**
   * RLIMIT_CPU takes whole seconds; a fraction rounds up so a limit is never tighter than asked.
   */
  long cpuSeconds() {
    long seconds = cpuTime.toSeconds();
    return cpuTime.toNanosPart() > 0 || seconds == 0 ? seconds + 1 : seconds;
  }

  private static void positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
