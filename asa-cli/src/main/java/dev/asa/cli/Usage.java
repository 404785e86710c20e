package dev.asa.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What a command accepts and how it is explained: the usage line, the help text and the options. It
 * is also the grammar {@link Arguments#parse} checks a command line against, so the help can never
 * drift from what is actually accepted.
 *
 * @param command the words after {@code asa}, e.g. {@code agreements sign}
 * @param synopsis what follows the command in the usage line
 * @param positionals names of the positional arguments; a name in brackets is optional
 * @param options the command's own options
 * @param common the options many commands share ({@code --server}, {@code --json}, {@code --help}),
 *     listed last in the help
 */
record Usage(
    String command,
    String synopsis,
    String summary,
    List<String> positionals,
    List<Option> options,
    List<Option> common) {

  static final Option HELP = Option.flag("--help", "show this help");
  static final Option JSON =
      Option.flag("--json", "print the JSON itself (pretty) instead of a summary");
  static final Option SERVER =
      Option.value(
          "--server",
          "URL",
          "the ASA server (default: $ASA_SERVER, else " + Session.DEFAULT_SERVER + ")");
  static final Option KEY =
      Option.value(
          "--key", "FILE", "your key file: every request is signed with it (default: $ASA_KEY)");

  Usage {
    positionals = List.copyOf(positionals);
    options = List.copyOf(options);
    common = List.copyOf(common);
  }

  static Usage of(String command, String synopsis, String summary) {
    return new Usage(command, synopsis, summary, List.of(), List.of(), List.of(HELP));
  }

  Usage positional(String name) {
    return new Usage(command, synopsis, summary, append(positionals, name), options, common);
  }

  Usage option(Option option) {
    return new Usage(command, synopsis, summary, positionals, append(options, option), common);
  }

  /** Adds {@code --json}, for commands whose answer is JSON. */
  Usage json() {
    return new Usage(command, synopsis, summary, positionals, options, List.of(JSON, HELP));
  }

  /**
   * Adds {@code --server}, {@code --key} and {@code --json}, for commands that talk to a server.
   */
  Usage server() {
    return new Usage(
        command, synopsis, summary, positionals, options, List.of(SERVER, KEY, JSON, HELP));
  }

  /** Every option this command accepts, its own first. */
  List<Option> all() {
    List<Option> all = new ArrayList<>(options);
    all.addAll(common);
    return all;
  }

  Option find(String name) {
    return all().stream().filter(o -> o.name().equals(name)).findFirst().orElse(null);
  }

  int requiredPositionals() {
    return (int) positionals.stream().filter(p -> !p.startsWith("[")).count();
  }

  /** {@code usage: asa agreements get ID}. */
  String line() {
    return "usage: asa " + command + (synopsis.isEmpty() ? "" : " " + synopsis);
  }

  /** The text of {@code --help}. */
  String help() {
    StringBuilder s =
        new StringBuilder(line()).append("\n\n").append(summary).append("\n\noptions:\n");
    int width = all().stream().mapToInt(o -> o.spelled().length()).max().orElse(0);
    for (Option o : all()) {
      s.append("  ")
          .append(o.spelled())
          .append(" ".repeat(width - o.spelled().length()))
          .append("  ")
          .append(o.help());
      if (o.repeatable()) {
        s.append(" (repeatable)");
      }
      s.append('\n');
    }
    return s.toString();
  }

  private static <T> List<T> append(List<T> list, T item) {
    List<T> more = new ArrayList<>(list);
    more.add(item);
    return more;
  }
}
