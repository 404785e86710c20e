package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * {@code asa evaluators register|list|show|suspend|reinstate}: the evaluator registry. An evaluator
 * registers itself with its own key ({@code --key}); anyone with a key reads the registry; the
 * operator (its key) suspends and reinstates.
 */
final class EvaluatorsCommands {
  private EvaluatorsCommands() {}

  /** {@code asa evaluators register}: the evaluator whose key signs registers itself. */
  static final class Register implements Command {
    private static final Usage USAGE =
        Usage.of(
                "evaluators register",
                "--identity VALUE --name NAME --service-type TYPE... [--organization ORG] [--model M] [--price-usd P]",
                "Registers the evaluator whose key signs the request (--key, or $ASA_KEY) in the server's\n"
                    + "evaluator pool. It starts with no record, so it is not yet qualified: it earns its\n"
                    + "evaluations from qualification canaries. A key is registered once.")
            .option(
                Option.required(
                    "--identity",
                    "VALUE",
                    "who the evaluator is, e.g. judge-7 or a did:key (its identity.value)"))
            .option(
                Option.value(
                    "--scheme",
                    "SCHEME",
                    "the identity's scheme (default: did for a did:..., else api_key)"))
            .option(Option.required("--name", "NAME", "the display name"))
            .option(
                new Option(
                    "--service-type",
                    "TYPE",
                    "a service type it evaluates, e.g. research (at least one)",
                    true,
                    true))
            .option(
                Option.value(
                    "--organization",
                    "ORG",
                    "whom it belongs to (compared with the parties' for independence)"))
            .option(Option.value("--lineage", "LINEAGE", "its CoC lineage, if it has one"))
            .option(Option.value("--model", "MODEL", "the judge model it runs"))
            .option(
                Option.value(
                    "--price-usd", "P", "what it charges per evaluation in USD, e.g. 0.30"))
            .option(
                Option.repeated(
                    "--domain", "DOMAIN", "a domain of expertise, e.g. medicine (marketplace)"))
            .server();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      ObjectNode body = body(args);
      if (session.keyFileName() == null) {
        throw new UsageException(
            "missing --key FILE: an evaluator registers itself, signing with its own key");
      }
      JsonNode registered = session.client().registerEvaluator(body);
      session.print(registered, EvaluatorsCommands::summary);
      return 0;
    }

    /** The registration body the options describe, exactly as the server reads it. */
    static ObjectNode body(Arguments args) throws UsageException {
      String identity = args.value("--identity");
      String scheme = args.value("--scheme", identity.startsWith("did:") ? "did" : "api_key");
      ObjectNode body =
          AsaClient.evaluatorRegistration(
              scheme, identity, args.value("--name"), args.values("--service-type"));
      for (Map.Entry<String, String> optional :
          Map.of(
                  "--organization", "organization",
                  "--lineage", "lineage",
                  "--model", "model")
              .entrySet()) {
        if (args.has(optional.getKey())) {
          body.put(optional.getValue(), args.value(optional.getKey()));
        }
      }
      if (args.has("--price-usd")) {
        body.put("price_usd", price(args.value("--price-usd")));
      }
      if (args.has("--domain")) {
        ArrayNode domains = body.putArray("domains");
        args.values("--domain").forEach(domains::add);
      }
      return body;
    }

    static BigDecimal price(String text) throws UsageException {
      try {
        BigDecimal price = new BigDecimal(text);
        if (price.signum() >= 0) {
          return price;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException(
          "--price-usd must be a number of US dollars, 0 or more, such as 0.30, not '"
              + text
              + "'");
    }
  }

  /** {@code asa evaluators list}: one page of the registry. */
  static final class ListEvaluators implements Command {
    private static final Usage USAGE =
        Usage.of(
                "evaluators list",
                "[--service-type TYPE] [--limit N] [--cursor C]",
                "Lists registered evaluators with their track records and whether each qualifies now.")
            .option(Option.value("--service-type", "TYPE", "only evaluators of this service type"))
            .option(Option.value("--limit", "N", "how many to list (1 to 500, default 100)"))
            .option(
                Option.value("--cursor", "C", "continue after a previous page (its next cursor)"))
            .server();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      int limit = args.intValue("--limit", 0, 1, 500);
      JsonNode page =
          session.client().evaluators(args.value("--service-type"), args.value("--cursor"), limit);
      session.print(page, EvaluatorsCommands::table);
      return 0;
    }
  }

  /** {@code asa evaluators show [KEY]}: one evaluator, by default the signer's own. */
  static final class Show implements Command {
    private static final Usage USAGE =
        Usage.of(
                "evaluators show",
                "[KEY]",
                "Shows a registered evaluator: what it registered, its standing, its track record, and\n"
                    + "whether it qualifies for the pool now (with every reason when it does not).\n"
                    + "KEY is a public key in base64url or a did:key; without it, the key of --key.")
            .positional("[KEY]")
            .server();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      String key = AccountsCommand.key(args.positional(0), session);
      session.print(session.client().evaluator(key), EvaluatorsCommands::summary);
      return 0;
    }
  }

  /** {@code asa evaluators suspend KEY --reason TEXT}: the operator takes it out of the pool. */
  static final class Suspend implements Command {
    private static final Usage USAGE =
        Usage.of(
                "evaluators suspend",
                "KEY --reason TEXT",
                "Suspends an evaluator (the operator's key): it is never assigned, whatever its record,\n"
                    + "until reinstated. The reason is shown to the evaluator and in the registry.")
            .positional("KEY")
            .option(Option.required("--reason", "TEXT", "why (shown to everyone)"))
            .server();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      String key = Inputs.publicKey("KEY", args.positional(0)).toBase64Url();
      String reason = args.value("--reason");
      if (reason.isBlank()) {
        throw new UsageException("--reason must not be blank: say why the evaluator is suspended");
      }
      session.print(
          session.client().suspendEvaluator(key, reason.strip()), EvaluatorsCommands::summary);
      return 0;
    }
  }

  /** {@code asa evaluators reinstate KEY}: the operator lifts a suspension. */
  static final class Reinstate implements Command {
    private static final Usage USAGE =
        Usage.of(
                "evaluators reinstate",
                "KEY",
                "Lifts an evaluator's suspension (the operator's key); it is assigned again when qualified.")
            .positional("KEY")
            .server();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      String key = Inputs.publicKey("KEY", args.positional(0)).toBase64Url();
      session.print(session.client().reinstateEvaluator(key), EvaluatorsCommands::summary);
      return 0;
    }
  }

  /** One evaluator, label by label. */
  static String summary(JsonNode e) {
    JsonNode r = e.path("track_record");
    Table t =
        Table.plain()
            .row("key", e.path("key").asText())
            .row(
                "identity",
                e.at("/identity/scheme").asText() + ":" + e.at("/identity/value").asText())
            .row("name", e.path("display_name").asText());
    if (e.has("organization")) {
      t.row("organization", e.path("organization").asText());
    }
    t.row("service types", Formats.list(e.path("service_types")));
    if (e.has("model")) {
      t.row("model", e.path("model").asText());
    }
    if (e.has("price_usd")) {
      t.row("price", Formats.number(e.path("price_usd")) + " USD per evaluation");
    }
    t.row("standing", standing(e))
        .row("evaluations", r.path("evaluations").asText())
        .row("canary tasks", canaries(r))
        .row("deviation", deviation(r))
        .row("streaks", streaks(r.path("consecutive_by_provider")))
        .row("qualified", Formats.yesNo(e.path("qualified").asBoolean()));
    StringBuilder s = new StringBuilder(t.render());
    for (JsonNode reason : e.path("why")) {
      s.append("  - ").append(reason.asText()).append('\n');
    }
    return s.toString();
  }

  /** A page of evaluators as a table, and how to get the next page. */
  static String table(JsonNode page) {
    JsonNode list = page.path("evaluators");
    if (list.isEmpty()) {
      return "no evaluators\n";
    }
    Table t =
        Table.withHeaders(
            "KEY",
            "NAME",
            "SERVICE TYPES",
            "EVALS",
            "CANARIES",
            "DEVIATION",
            "STANDING",
            "QUALIFIED");
    for (JsonNode e : list) {
      JsonNode r = e.path("track_record");
      t.row(
          e.path("key").asText(),
          Formats.cut(e.path("display_name").asText(), 30),
          Formats.list(e.path("service_types")),
          r.path("evaluations").asText(),
          canaries(r),
          deviation(r),
          e.at("/standing/status").asText(),
          Formats.yesNo(e.path("qualified").asBoolean()));
    }
    String more =
        page.has("next_cursor") ? "more: --cursor " + page.path("next_cursor").asText() + "\n" : "";
    return t.render() + more;
  }

  private static String standing(JsonNode e) {
    JsonNode s = e.path("standing");
    return s.path("status").asText() + (s.has("note") ? " (" + s.path("note").asText() + ")" : "");
  }

  /** "19 of 20 passed (95%)", or "none yet". */
  private static String canaries(JsonNode r) {
    int tasks = r.path("canary_tasks").asInt();
    if (tasks == 0) {
      return "none yet";
    }
    String rate =
        r.path("canary_pass_rate").isNumber()
            ? " ("
                + r.path("canary_pass_rate")
                    .decimalValue()
                    .movePointRight(2)
                    .stripTrailingZeros()
                    .toPlainString()
                + "%)"
            : "";
    return r.path("canary_passes").asInt() + " of " + tasks + " passed" + rate;
  }

  private static String deviation(JsonNode r) {
    JsonNode d = r.path("calibration_deviation");
    return d.isNumber() ? Formats.number(d) + " points" : "none yet";
  }

  private static String streaks(JsonNode byProvider) {
    if (byProvider.isEmpty()) {
      return "(none)";
    }
    List<String> parts = new java.util.ArrayList<>();
    byProvider
        .properties()
        .forEach(p -> parts.add(p.getValue().asInt() + " in a row for " + p.getKey()));
    return String.join(", ", parts);
  }
}
