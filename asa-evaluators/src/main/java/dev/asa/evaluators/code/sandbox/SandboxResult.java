package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

/**
 * How one sandboxed run ended.
 *
 * @param exitCode the command's exit status; 128 + N when signal N ended it (bubblewrap's
 *     convention), -1 when this JVM killed the sandbox
 * @param stdout standard output, at most {@link Limits#outputBytes()} of it
 * @param stderr standard error, likewise
 * @param wallTime from start to the last process gone
 * @param timedOut the wall clock ran out and the sandbox was killed
 * @param outputOverrun a stream passed its cap and the sandbox was killed
 * @param memoryOverrun the processes' resident memory together passed its cap and the sandbox was
 *     killed
 * @param collected the {@link Command#collect() collected} files that existed as regular files
 */
public record SandboxResult(
    int exitCode,
    String stdout,
    String stderr,
    Duration wallTime,
    boolean timedOut,
    boolean outputOverrun,
    boolean memoryOverrun,
    Map<String, String> collected) {

  public SandboxResult {
    collected = Map.copyOf(collected);
  }

  /** This JVM killed the sandbox (wall clock, output cap, total memory). */
  public boolean killed() {
    return timedOut || outputOverrun || memoryOverrun;
  }

  /**
   * The signal that ended the command, when its status says one did: 9 (SIGKILL) is what the kernel
   * sends at the CPU limit, 24 (SIGXCPU) its warning. A program that exits with 137 itself looks
   * the same; the name says "apparent" for that reason.
   */
  public OptionalInt apparentSignal() {
    return exitCode > 128 && exitCode < 128 + 65
        ? OptionalInt.of(exitCode - 128)
        : OptionalInt.empty();
  }
}
