package dev.asa.cli;

/** The exit status of {@code asa}, the same for every command (and in docs/cli.md). */
final class Exit {
  private Exit() {}

  /** Done; for a verification, the verdict is PASS. */
  static final int OK = 0;

  /** The verdict is FAIL. */
  static final int FAIL = 1;

  /** The command line is wrong: an unknown option, a missing argument, a value out of range. */
  static final int USAGE = 2;

  /** The server refused the request (4xx, with its problem+json). */
  static final int REFUSED = 3;

  /** The server or the judge could not be reached, timed out, or failed (5xx). */
  static final int UNREACHABLE = 4;

  /** A local file could not be read or written, or its content is not what was expected. */
  static final int LOCAL_IO = 5;

  /** A bug in asa itself; the stack trace is printed for the report. */
  static final int BUG = 70;

  /** The footer of {@code asa --help}. */
  static final String TABLE =
      """
      exit status:
        0  done; a verification's verdict is PASS
        1  a verification's verdict is FAIL, or a check fails (a broken event-log chain;
           for asa shadow: a score above --threshold, a seal that does not hold)
        2  the command line is wrong (run the command with --help)
        3  the server refused the request (its problem is printed)
        4  the server or the judge could not be reached, timed out or failed (5xx)
        5  a local file could not be read or written, or does not hold what it should
           (asa shadow keeps its spec's 2 for an input it cannot use)
       70  a bug in asa (the stack trace is printed)
      """;
}
