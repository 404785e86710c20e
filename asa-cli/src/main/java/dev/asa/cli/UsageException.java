package dev.asa.cli;

/**
 * The command line itself is wrong: an unknown or incomplete option, a missing argument. Exit
 * status 2.
 */
final class UsageException extends Exception {
  UsageException(String message) {
    super(message);
  }
}
