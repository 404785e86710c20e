package dev.asa.cli;

import picocli.CommandLine;

/** A command's options filled in from a command line, as picocli does before running it. */
final class Parsed {
  private Parsed() {}

  static <T> T parse(T command, String... args) {
    new CommandLine(command).setUnmatchedOptionsArePositionalParams(true).parseArgs(args);
    return command;
  }
}
