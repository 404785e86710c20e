package dev.asa.cli;

import dev.asa.client.AsaApiException;
import dev.asa.json.Json;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The {@code asa} command: picocli finds the command named on the command line and fills in its
 * options; this class sets the tree up and turns every failure into a message and an exit status
 * (see {@link Exit}).
 *
 * <p>{@link #run} never calls {@code System.exit}, so tests can run commands in-process.
 */
public final class Main {

  private final Map<String, String> env;

  /**
   * @param env the environment ({@code ASA_SERVER}, {@code ASA_KEY}, {@code ASA_PORT}...); tests
   *     pass their own
   */
  public Main(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  public static void main(String[] args) {
    System.exit(new Main(System.getenv()).run(args, System.out, System.err));
  }

  public int run(String[] argv, PrintStream out, PrintStream err) {
    return run(argv, System.in, out, err);
  }

  /**
   * As {@link #run(String[], PrintStream, PrintStream)}, reading {@code -} (standard input) from
   * {@code in}.
   */
  public int run(String[] argv, InputStream in, PrintStream out, PrintStream err) {
    CommandLine asa = commandLine(new Io(in, out, err, env));
    asa.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    asa.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    int status = asa.execute(argv);
    out.flush();
    err.flush();
    return status;
  }

  /** The whole command tree, set up the same way at every level. */
  static CommandLine commandLine(Io io) {
    CommandLine asa = new CommandLine(new Asa(io));
    asa.setUnmatchedOptionsArePositionalParams(true);
    asa.setUsageHelpWidth(100);
    asa.setHelpFactory(HelpLayout::new);
    asa.setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF));
    asa.setParameterExceptionHandler(Main::usageError);
    asa.setExecutionExceptionHandler(Main::failure);
    asa.setExecutionStrategy(Main::execute);
    HelpLayout.apply(asa);
    asa.getSubcommands().get("serve").setDefaultValueProvider(new EnvDefaults(io));
    return asa;
  }

  /**
   * Runs the command picocli found, once the arguments it took as positional (to let keys that
   * start with '-' through) have been checked for misspelled options.
   */
  private static int execute(ParseResult parsed) {
    ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    List<String> argv = parsed.originalArgs();
    int end = argv.indexOf("--");
    for (PositionalParamSpec p : leaf.matchedPositionals()) {
      for (String value : p.originalStringValues()) {
        int at = argv.indexOf(value);
        if (value.startsWith("--") && value.length() > 2 && (end < 0 || at < end)) {
          throw new ParameterException(
              leaf.commandSpec().commandLine(), "unknown option " + optionName(value));
        }
      }
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  /** A mistake on the command line: the message, the usage line and where to read more. */
  private static int usageError(ParameterException e, String[] argv) {
    CommandLine where = e.getCommandLine();
    if (asksForHelp(argv)) {
      where.usage(where.getOut());
      return Exit.OK;
    }
    PrintWriter err = where.getErr();
    CommandSpec spec = where.getCommandSpec();
    if (e instanceof CommandLine.UnmatchedArgumentException u
        && !spec.subcommands().isEmpty()
        && !u.getUnmatched().isEmpty()
        && !u.getUnmatched().get(0).startsWith("-")) {
      String words = spec.qualifiedName().replaceFirst("^asa ?", "");
      err.println(
          "asa: unknown command '"
              + (words.isEmpty() ? "" : words + " ")
              + u.getUnmatched().get(0)
              + "'");
      nearest(u.getUnmatched().get(0), spec.subcommands().keySet())
          .ifPresent(name -> err.println("did you mean '" + name + "'?"));
      if (spec.parent() == null) {
        err.println("commands: " + String.join(", ", spec.subcommands().keySet()));
        err.println("Run 'asa --help' for details.");
      } else {
        where.usage(err);
      }
      return Exit.USAGE;
    }
    String misspelt = misspeltOption(spec, argv);
    err.println(
        spec.qualifiedName()
            + ": "
            + (misspelt != null
                ? "unknown option " + misspelt
                : message(e) + EnvDefaults.origin(e, argv)));
    err.println("usage: " + HelpLayout.synopsis(where));
    err.println("Run '" + spec.qualifiedName() + " --help' for details.");
    return Exit.USAGE;
  }

  /**
   * The one command a typo most likely meant: the closest by edit distance, if it is within a third
   * of the word's length (at least one edit) and no other is as close.
   */
  static Optional<String> nearest(String typed, Collection<String> names) {
    int limit = Math.max(1, typed.length() / 3);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    boolean tie = false;
    for (String name : names) {
      int d = editDistance(typed.toLowerCase(Locale.ROOT), name);
      if (d < bestDistance) {
        best = name;
        bestDistance = d;
        tie = false;
      } else if (d == bestDistance) {
        tie = true;
      }
    }
    return bestDistance <= limit && !tie ? Optional.of(best) : Optional.empty();
  }

  /** Levenshtein distance, with an adjacent swap counted as one edit (the commonest typo). */
  private static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** picocli's message, in the words the rest of asa uses. */
  private static String message(ParameterException e) {
    String text = e.getMessage();
    if (e.getCause() instanceof OptionValues.BadValue bad
        && e.getArgSpec() instanceof OptionSpec o) {
      return o.longestName() + " " + bad.getMessage();
    }
    if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String first = u.getUnmatched().get(0);
      return first.startsWith("--")
          ? "unknown option " + optionName(first)
          : "unexpected argument '" + first + "'";
    }
    if (e instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()) {
      ArgSpec arg = m.getMissing().get(0);
      if (arg instanceof OptionSpec o) {
        return text.startsWith("Missing required option")
            ? "missing " + HelpLayout.spelled(o)
            : o.longestName() + " needs a value: " + HelpLayout.spelled(o);
      }
      return "missing " + arg.paramLabel();
    }
    if (e instanceof CommandLine.OverwrittenOptionException o && o.getOverwritten().isOption()) {
      return ((OptionSpec) o.getOverwritten()).longestName() + " is given more than once";
    }
    if (text.startsWith("Expected parameter for option '")) {
      String name = text.substring(31, text.indexOf('\'', 31));
      OptionSpec o = e.getCommandLine().getCommandSpec().findOption(name);
      return name + " needs a value" + (o == null ? "" : ": " + HelpLayout.spelled(o));
    }
    return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }

  /**
   * An {@code --option} on the command line that this command does not have: picocli may have taken
   * it as an argument (so that keys starting with '-' get through) and then complained about what
   * came after it.
   */
  private static String misspeltOption(CommandSpec spec, String[] argv) {
    for (String token : argv) {
      if (token.equals("--")) {
        return null;
      }
      String name = optionName(token);
      if (name.matches("--[a-z][a-z0-9-]*")
          && spec.findOption(name) == null
          && spec.root().findOption(name) == null) {
        return name;
      }
    }
    return null;
  }

  private static String optionName(String token) {
    int eq = token.indexOf('=');
    return eq > 0 ? token.substring(0, eq) : token;
  }

  /** {@code --help} or {@code -h} anywhere before {@code --} wins over every other mistake. */
  private static boolean asksForHelp(String[] argv) {
    for (String t : argv) {
      if (t.equals("--")) {
        return false;
      }
      if (t.equals("--help") || t.equals("-h")) {
        return true;
      }
    }
    return false;
  }

  /** What a command threw: the message, and the exit status its kind calls for. */
  private static int failure(Exception e, CommandLine where, ParseResult parsed) {
    String prefix = where.getCommandSpec().qualifiedName() + ": ";
    PrintWriter err = where.getErr();
    return switch (e) {
      case UsageException u -> {
        err.println(prefix + u.getMessage());
        err.println("usage: " + HelpLayout.synopsis(where));
        err.println("Run '" + where.getCommandSpec().qualifiedName() + " --help' for details.");
        yield Exit.USAGE;
      }
      case AsaApiException api -> {
        if (json(parsed) && api.problem().isObject()) {
          where.getOut().println(Json.writePretty(api.problem()));
        }
        printProblem(err, prefix, api, keyGiven(where, parsed));
        yield api.isUnreachable() || api.status() >= 500 ? Exit.UNREACHABLE : Exit.REFUSED;
      }
      case CliException c -> {
        err.println(prefix + c.getMessage());
        yield c.exitCode();
      }
      case IllegalArgumentException i -> {
        // What the SDK's builders refuse (an amount, a currency): the user's input, not a bug.
        err.println(prefix + i.getMessage());
        yield Exit.USAGE;
      }
      case InterruptedException i -> {
        Thread.currentThread().interrupt();
        err.println(prefix + "interrupted");
        yield Exit.UNREACHABLE;
      }
      default -> {
        // Not the user's doing: a bug. The stack trace is for the bug report.
        err.println(prefix + "unexpected error: " + e);
        e.printStackTrace(err);
        yield Exit.BUG;
      }
    };
  }

  private static boolean json(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--json")) {
        return true;
      }
    }
    return false;
  }

  private static boolean keyGiven(CommandLine where, ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--key")) {
        return true;
      }
    }
    return Asa.of(where.getCommandSpec()).io().env("ASA_KEY") != null;
  }

  /**
   * The server's problem: its detail, then each field at fault (unless the detail already is that
   * one field). A request the server wanted signed, sent without a key, says how to give one.
   */
  static void printProblem(PrintWriter err, String prefix, AsaApiException e, boolean keyGiven) {
    if (e.isUnreachable()) {
      err.println(prefix + e.detail());
      return;
    }
    if (e.status() == 401 && !keyGiven) {
      err.println(
          prefix
              + "this request must be signed: pass --key FILE or set ASA_KEY (HTTP 401"
              + (e.kind() == null ? "" : ", " + e.kind())
              + ")");
      return;
    }
    err.println(
        prefix
            + e.detail()
            + " (HTTP "
            + e.status()
            + (e.kind() == null ? "" : ", " + e.kind())
            + ")");
    List<AsaApiException.FieldError> errors = e.errors();
    if (errors.size() == 1 && e.detail().contains(errors.get(0).detail())) {
      return;
    }
    for (AsaApiException.FieldError field : errors) {
      err.println("  " + field);
    }
  }
}
