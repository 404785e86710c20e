package dev.asa.cli;

/**
 * The command was well formed but cannot be done: a missing file, a corrupt key, a document that is
 * not JSON. The message is shown as it is, without a stack trace. Exit status 1.
 */
final class CliException extends Exception {
  CliException(String message) {
    super(message);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
  }
}
