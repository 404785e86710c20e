package dev.asa.cli;

/** One {@code asa ...} command. */
interface Command {

  /** The grammar and help of the command. */
  Usage usage();

  /**
   * Runs the command on arguments already checked against {@link #usage()}.
   *
   * @return the exit status: 0 done, 1 could not be done
   * @throws UsageException when the arguments are well formed but do not fit together (exit 2)
   */
  int run(Arguments args, Session session) throws Exception;
}
