package dev.asa.cli;

/**
 * The command was well formed but cannot be done here: a missing file, a corrupt key, a document
 * that is not JSON, a file that cannot be written. The message is shown as it is, without a stack
 * trace; the exit status is {@link Exit#LOCAL_IO} unless the thrower says otherwise.
 */
final class CliException extends Exception {
  private final int exitCode;

  CliException(String message) {
    this(message, Exit.LOCAL_IO);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
    this.exitCode = Exit.LOCAL_IO;
  }

  CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
