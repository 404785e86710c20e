package dev.asa.cli;

import dev.asa.client.AsaApiException;
import dev.asa.json.Json;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code asa} command: finds the command named on the command line, checks its arguments and
 * runs it, and turns every failure into a message and an exit status: 0 done, 1 could not be done
 * (the server refused, a file is missing...), 2 the command line is wrong.
 *
 * <p>{@link #run} never calls {@code System.exit}, so tests can run commands in-process.
 */
public final class Main {

  private static final List<Command> COMMANDS =
      List.of(
          new ServeCommand(),
          new KeysCommands.New(),
          new KeysCommands.Show(),
          new TemplatesCommand(),
          new CreateCommand(),
          new GetCommand(),
          new StatusCommand(),
          new ListCommand(),
          new EventsCommand(),
          new SignCommand(),
          new NegotiateCommand(),
          new FundCommand(),
          new DeliverCommand(),
          new VerifyCommand(),
          new StandaloneVerifyCommand(),
          new JudgeEvalCommand(),
          new ChallengeCommand(),
          new CloseCommand(),
          new RulingCommand(),
          new EscrowCommand(),
          new AccountsCommand(),
          new EvaluatorsCommands.Register(),
          new EvaluatorsCommands.ListEvaluators(),
          new EvaluatorsCommands.Show(),
          new EvaluatorsCommands.Suspend(),
          new EvaluatorsCommands.Reinstate(),
          new EvaluatorTaskCommands.Tasks(),
          new EvaluatorTaskCommands.ShowTask(),
          new EvaluatorTaskCommands.Submit(),
          new ShadowCommand(),
          new VerifySealCommand());

  private final Map<String, String> env;
  private final Map<String, Command> commands = new LinkedHashMap<>();

  /**
   * @param env the environment ({@code ASA_SERVER}, {@code ASA_DB_URL}); tests pass their own
   */
  public Main(Map<String, String> env) {
    this.env = Map.copyOf(env);
    COMMANDS.forEach(c -> commands.put(c.usage().command(), c));
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
    List<String> tokens = List.of(argv);
    // Options before the command word apply to the command: asa --server URL agreements get ID.
    List<String> leading = new ArrayList<>();
    int i = 0;
    while (i < tokens.size() && tokens.get(i).startsWith("-")) {
      String t = tokens.get(i);
      if (t.equals("--help") || t.equals("-h")) {
        out.print(overview());
        return 0;
      }
      if ((t.equals("--server") || t.equals("--key")) && i + 1 < tokens.size()) {
        leading.add(t);
        leading.add(tokens.get(i + 1));
        i += 2;
      } else if (t.equals("--json") || t.startsWith("--server=") || t.startsWith("--key=")) {
        leading.add(t);
        i++;
      } else {
        return usageError(
            err,
            "asa",
            t.equals("--server") || t.equals("--key")
                ? t + " needs a value"
                : "unknown option " + t,
            "usage: asa [--server URL] [--key FILE] COMMAND ...",
            "asa --help");
      }
    }
    if (i == tokens.size()) {
      err.print(overview());
      return 2;
    }
    String word = tokens.get(i);
    String next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
    Command command = commands.get(word);
    int rest = i + 1;
    if (command == null && isGroup(word)) {
      if (next == null || next.equals("--help") || next.equals("-h")) {
        (next == null ? err : out).print(groupHelp(word));
        return next == null ? 2 : 0;
      }
      command = commands.get(word + " " + next);
      rest = i + 2;
      if (command == null) {
        return usageError(
            err,
            "asa",
            "unknown command '" + word + " " + next + "'",
            groupHelp(word).strip(),
            null);
      }
    }
    if (command == null) {
      return usageError(
          err,
          "asa",
          "unknown command '" + word + "'",
          "commands: " + topLevelWords(),
          "asa --help");
    }
    List<String> arguments = new ArrayList<>(leading);
    arguments.addAll(tokens.subList(rest, tokens.size()));
    return execute(command, arguments, in, out, err);
  }

  private int execute(
      Command command, List<String> arguments, InputStream in, PrintStream out, PrintStream err) {
    Usage usage = command.usage();
    String prefix = "asa " + usage.command() + ": ";
    boolean json = false;
    try {
      Arguments args = Arguments.parse(usage, arguments);
      if (args.helpRequested()) {
        out.print(usage.help());
        return 0;
      }
      json = args.flag("--json");
      return command.run(args, new Session(in, out, err, env, args));
    } catch (UsageException e) {
      return usageError(
          err,
          "asa " + usage.command(),
          e.getMessage(),
          usage.line(),
          "asa " + usage.command() + " --help");
    } catch (AsaApiException e) {
      if (json && e.problem().isObject()) {
        out.println(Json.writePretty(e.problem()));
      }
      printProblem(err, prefix, e);
      return 1;
    } catch (CliException | IllegalArgumentException e) {
      err.println(prefix + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println(prefix + "interrupted");
      return 1;
    } catch (Exception e) {
      // Not the user's doing: a bug. The stack trace is for the bug report.
      err.println(prefix + "unexpected error: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  /**
   * The server's problem: its detail, then each field at fault (unless the detail already is that
   * one field).
   */
  static void printProblem(PrintStream err, String prefix, AsaApiException e) {
    if (e.isUnreachable()) {
      err.println(prefix + e.detail());
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

  private static int usageError(
      PrintStream err, String who, String message, String usageLine, String helpCommand) {
    err.println(who + ": " + message);
    err.println(usageLine);
    if (helpCommand != null) {
      err.println("Run '" + helpCommand + "' for details.");
    }
    return 2;
  }

  private boolean isGroup(String word) {
    return commands.keySet().stream().anyMatch(name -> name.startsWith(word + " "));
  }

  private String topLevelWords() {
    return String.join(
        ", ", commands.keySet().stream().map(n -> n.split(" ")[0]).distinct().toList());
  }

  String overview() {
    StringBuilder s =
        new StringBuilder(
            """
            asa: Agent Service Agreements from the command line

            usage: asa [--server URL] COMMAND [ARGUMENTS] [--json] [--help]

            commands:
            """);
    s.append(commandTable(commands.keySet().stream().toList()));
    s.append(
            "\nRun 'asa COMMAND --help' for a command's options. The server is --server URL, else $ASA_SERVER,\nelse ")
        .append(Session.DEFAULT_SERVER)
        .append(".\n");
    return s.toString();
  }

  private String groupHelp(String group) {
    List<String> names = commands.keySet().stream().filter(n -> n.startsWith(group + " ")).toList();
    return "usage: asa "
        + group
        + " COMMAND ...\n\ncommands:\n"
        + commandTable(names)
        + "\nRun 'asa "
        + group
        + " COMMAND --help' for a command's options.\n";
  }

  private String commandTable(List<String> names) {
    Table table = Table.plain();
    for (String name : names) {
      String summary = commands.get(name).usage().summary();
      int end = summary.indexOf('\n');
      table.row("  " + name, end < 0 ? summary : summary.substring(0, end));
    }
    return table.render();
  }
}
