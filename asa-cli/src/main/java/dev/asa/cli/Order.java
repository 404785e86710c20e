package dev.asa.cli;

/**
 * Where options stand in a command's help: its own first, in the order they are declared, then the
 * options many commands share, then {@code --help}.
 */
final class Order {
  private Order() {}

  /** {@code --server}, {@code --key}, {@code --json}. */
  static final int COMMON = 1000;

  /** {@code --help}. */
  static final int HELP = 2000;
}
