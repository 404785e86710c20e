package dev.asa.cli;

import java.io.IOException;
import java.nio.file.Path;

/** Whether a stream of this process goes to a person's terminal rather than a file or a pipe. */
final class Terminals {
  private Terminals() {}

  /**
   * Whether standard error is a terminal. On Linux its file descriptor says so exactly (a
   * pseudo-terminal or a console); elsewhere, whether the JVM has a console at all is the best
   * guess Java 21 offers.
   */
  static boolean stderr() {
    try {
      String target = Path.of("/proc/self/fd/2").toRealPath().toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }
}
