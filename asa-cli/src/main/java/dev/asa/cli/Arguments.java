package dev.asa.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command line checked against a command's {@link Usage}: options as {@code --name value} or
 * {@code --name=value}, flags, positional arguments, and {@code --} to end the options. Every
 * mistake is reported by naming the option or argument at fault.
 */
final class Arguments {

  private final Map<String, List<String>> options;
  private final List<String> positionals;
  private final boolean help;

  private Arguments(Map<String, List<String>> options, List<String> positionals, boolean help) {
    this.options = options;
    this.positionals = positionals;
    this.help = help;
  }

  static Arguments parse(Usage usage, List<String> tokens) throws UsageException {
    if (asksForHelp(tokens)) {
      return new Arguments(Map.of(), List.of(), true);
    }
    Map<String, List<String>> options = new LinkedHashMap<>();
    List<String> positionals = new ArrayList<>();
    boolean onlyPositionals = false;
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      // A single-dash word that names no option is an argument: base64url keys and ids may start
      // with "-" (one key in 64 does), and every option is spelled --long.
      boolean dashedArgument =
          token.startsWith("-") && !token.startsWith("--") && usage.find(token) == null;
      if (onlyPositionals || !token.startsWith("-") || token.equals("-") || dashedArgument) {
        positionals.add(token);
        continue;
      }
      if (token.equals("--")) {
        onlyPositionals = true;
        continue;
      }
      int eq = token.indexOf('=');
      String name = eq > 0 ? token.substring(0, eq) : token;
      Option option = usage.find(name);
      if (option == null) {
        throw new UsageException("unknown option " + name);
      }
      String value = null;
      if (option.takesValue()) {
        if (eq > 0) {
          value = token.substring(eq + 1);
        } else if (i + 1 < tokens.size() && !looksLikeOption(usage, tokens.get(i + 1))) {
          value = tokens.get(++i);
        } else {
          throw new UsageException(name + " needs a value: " + option.spelled());
        }
      } else if (eq > 0) {
        throw new UsageException(name + " is a flag and takes no value");
      }
      List<String> values = options.computeIfAbsent(name, n -> new ArrayList<>());
      if (!values.isEmpty() && !option.repeatable()) {
        throw new UsageException(name + " is given more than once");
      }
      values.add(value);
    }
    for (Option o : usage.all()) {
      if (o.required() && !options.containsKey(o.name())) {
        throw new UsageException("missing " + o.spelled());
      }
    }
    if (positionals.size() > usage.positionals().size()) {
      throw new UsageException(
          "unexpected argument '" + positionals.get(usage.positionals().size()) + "'");
    }
    if (positionals.size() < usage.requiredPositionals()) {
      throw new UsageException("missing " + usage.positionals().get(positionals.size()));
    }
    return new Arguments(options, positionals, false);
  }

  /** {@code --help} or {@code -h} anywhere before {@code --} wins over every other mistake. */
  private static boolean asksForHelp(List<String> tokens) {
    for (String t : tokens) {
      if (t.equals("--")) {
        return false;
      }
      if (t.equals("--help") || t.equals("-h")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A value may start with a dash ({@code --score x=-1}) unless it is one of the command's options.
   */
  private static boolean looksLikeOption(Usage usage, String token) {
    if (token.equals("--") || token.equals("-h")) {
      return true;
    }
    int eq = token.indexOf('=');
    return token.startsWith("--") && usage.find(eq > 0 ? token.substring(0, eq) : token) != null;
  }

  boolean helpRequested() {
    return help;
  }

  /** Whether a flag was given; the same question as {@link #has}, asked of a flag. */
  boolean flag(String name) {
    return options.containsKey(name);
  }

  /** Whether an option was given at all. */
  boolean has(String name) {
    return options.containsKey(name);
  }

  /** The option's value, or null when it was not given. */
  String value(String name) {
    List<String> values = options.get(name);
    return values == null ? null : values.get(0);
  }

  String value(String name, String fallback) {
    String v = value(name);
    return v == null ? fallback : v;
  }

  /** Every value of a repeatable option, in order; empty when it was not given. */
  List<String> values(String name) {
    return List.copyOf(options.getOrDefault(name, List.of()));
  }

  String positional(int index) {
    return index < positionals.size() ? positionals.get(index) : null;
  }

  /**
   * A whole number from {@code min} to {@code max}, or {@code fallback} when the option is absent.
   */
  int intValue(String name, int fallback, int min, int max) throws UsageException {
    String v = value(name);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        name + " must be a whole number from " + min + " to " + max + ", not '" + v + "'");
  }

  /** Refuses options that make no sense together, naming both. */
  void exclusive(String first, String second) throws UsageException {
    if (has(first) && has(second)) {
      throw new UsageException(first + " and " + second + " cannot be used together");
    }
  }
}
