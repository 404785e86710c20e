package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.client.EvaluatorPage;
import dev.asa.client.EvaluatorView;
import dev.asa.client.EvaluatorView.TrackRecord;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa evaluators register|list|show|suspend|reinstate}: the evaluator registry. An evaluator
 * registers itself with its own key ({@code --key}); anyone with a key reads the registry; the
 * operator (its key) suspends and reinstates.
 */
@Command(
    name = "evaluators",
    header = "Registers evaluators in the pool and reads or rules on the registry.",
    customSynopsis = "asa evaluators COMMAND ...",
    subcommands = {
      EvaluatorsCommands.Register.class,
      EvaluatorsCommands.ListEvaluators.class,
      EvaluatorsCommands.Show.class,
      EvaluatorsCommands.Suspend.class,
      EvaluatorsCommands.Reinstate.class
    })
final class EvaluatorsCommands extends Group {

  /** {@code asa evaluators register}: the evaluator whose key signs registers itself. */
  @Command(
      name = "register",
      header =
          "Registers the evaluator whose key signs the request (--key, or $ASA_KEY) in the"
              + " server's evaluator pool.",
      customSynopsis =
          "asa evaluators register --identity VALUE --name NAME --service-type TYPE..."
              + " [--organization ORG] [--model M] [--price-usd P] [--conflict-of-interest KEY]...",
      description =
          "It starts with no record, so it is not yet qualified: it earns its evaluations from"
              + " qualification canaries. A key is registered once.")
  static final class Register implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Option(
        names = "--identity",
        paramLabel = "VALUE",
        required = true,
        description = "who the evaluator is, e.g. judge-7 or a did:key (its identity.value)")
    String identity;

    @Option(
        names = "--scheme",
        paramLabel = "SCHEME",
        description = "the identity's scheme (default: did for a did:..., else api_key)")
    String scheme;

    @Option(
        names = "--name",
        paramLabel = "NAME",
        required = true,
        description = "the display name")
    String name;

    @Option(
        names = "--service-type",
        paramLabel = "TYPE",
        required = true,
        description = "a service type it evaluates, e.g. research (at least one)")
    List<String> serviceTypes = new ArrayList<>();

    @Option(
        names = "--organization",
        paramLabel = "ORG",
        description =
            "whom it belongs to (shown to the parties; a party's own claim never excludes it:"
                + " declare conflicts with --conflict-of-interest)")
    String organization;

    @Option(
        names = "--lineage",
        paramLabel = "LINEAGE",
        description = "its CoC lineage, if it has one")
    String lineage;

    @Option(names = "--model", paramLabel = "MODEL", description = "the judge model it runs")
    String model;

    @Option(
        names = "--price-usd",
        paramLabel = "P",
        description = "what it charges per evaluation in USD, e.g. 0.30")
    String priceUsd;

    @Option(
        names = "--domain",
        paramLabel = "DOMAIN",
        description = "a domain of expertise, e.g. medicine (marketplace)")
    List<String> domains = new ArrayList<>();

    @Option(
        names = "--conflict-of-interest",
        paramLabel = "KEY",
        description =
            "the key (base64url) of a party whose agreements it must not judge, e.g. its"
                + " employer's; the pool draw leaves it out of theirs. Repeat for more")
    List<String> conflicts = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      ObjectNode body = body();
      if (session.keyFileName() == null) {
        throw new UsageException(
            "missing --key FILE: an evaluator registers itself, signing with its own key (pass"
                + " --key FILE or set ASA_KEY)");
      }
      EvaluatorView registered = session.client().registry().register(body);
      session.print(registered.json(), json -> summary(registered));
      return Exit.OK;
    }

    /** The registration body the options describe, exactly as the server reads it. */
    ObjectNode body() throws UsageException {
      ObjectNode body =
          AsaClient.evaluatorRegistration(
              scheme != null ? scheme : identity.startsWith("did:") ? "did" : "api_key",
              identity,
              name,
              serviceTypes);
      if (organization != null) {
        body.put("organization", organization);
      }
      if (lineage != null) {
        body.put("lineage", lineage);
      }
      if (model != null) {
        body.put("model", model);
      }
      if (priceUsd != null) {
        body.put("price_usd", price(priceUsd));
      }
      if (!domains.isEmpty()) {
        ArrayNode array = body.putArray("domains");
        domains.forEach(array::add);
      }
      if (!conflicts.isEmpty()) {
        ArrayNode array = body.putArray("conflicts_of_interest");
        conflicts.forEach(array::add);
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
  @Command(
      name = "list",
      header =
          "Lists registered evaluators with their track records and whether each qualifies now.",
      customSynopsis = "asa evaluators list [--service-type TYPE] [--limit N] [--cursor C]")
  static final class ListEvaluators implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Option(
        names = "--service-type",
        paramLabel = "TYPE",
        description = "only evaluators of this service type")
    String serviceType;

    @Option(
        names = "--limit",
        paramLabel = "N",
        description = "how many to list (1 to 500, default 100)")
    String limit;

    @Option(
        names = "--cursor",
        paramLabel = "C",
        description = "continue after a previous page (its next cursor)")
    String cursor;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      int n = Inputs.intValue("--limit", limit, 0, 1, 500);
      EvaluatorPage page = session.client().registry().list(serviceType, cursor, n);
      session.print(page.json(), json -> table(page));
      return Exit.OK;
    }
  }

  /** {@code asa evaluators show [KEY]}: one evaluator, by default the signer's own. */
  @Command(
      name = "show",
      header =
          "Shows a registered evaluator: its registration, standing and track record, and whether"
              + " it qualifies for the pool now.",
      customSynopsis = "asa evaluators show [KEY]",
      description =
          "Every reason is listed when it does not qualify. KEY is a public key in base64url or a"
              + " did:key; without it, the key of --key.")
  static final class Show implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(
        paramLabel = "KEY",
        arity = "0..1",
        description = "the evaluator's public key or did:key")
    String key;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      String evaluator = AccountsCommand.key(key, session);
      EvaluatorView shown = session.client().registry().get(evaluator);
      session.print(shown.json(), json -> summary(shown));
      return Exit.OK;
    }
  }

  /** {@code asa evaluators suspend KEY --reason TEXT}: the operator takes it out of the pool. */
  @Command(
      name = "suspend",
      header = "Suspends an evaluator (the operator's key): it is never assigned until reinstated.",
      customSynopsis = "asa evaluators suspend KEY --reason TEXT",
      description =
          "Whatever its record, a suspended evaluator is not assigned. The reason is shown to the"
              + " evaluator and in the registry.")
  static final class Suspend implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "KEY", description = "the evaluator's public key or did:key")
    String key;

    @Option(
        names = "--reason",
        paramLabel = "TEXT",
        required = true,
        description = "why (shown to everyone)")
    String reason;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      String evaluator = Inputs.publicKey("KEY", key).toBase64Url();
      if (reason.isBlank()) {
        throw new UsageException("--reason must not be blank: say why the evaluator is suspended");
      }
      EvaluatorView suspended = session.client().registry().suspend(evaluator, reason.strip());
      session.print(suspended.json(), json -> summary(suspended));
      return Exit.OK;
    }
  }

  /** {@code asa evaluators reinstate KEY}: the operator lifts a suspension. */
  @Command(
      name = "reinstate",
      header =
          "Lifts an evaluator's suspension (the operator's key); it is assigned again when"
              + " qualified.",
      customSynopsis = "asa evaluators reinstate KEY")
  static final class Reinstate implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "KEY", description = "the evaluator's public key or did:key")
    String key;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      String evaluator = Inputs.publicKey("KEY", key).toBase64Url();
      EvaluatorView reinstated = session.client().registry().reinstate(evaluator);
      session.print(reinstated.json(), json -> summary(reinstated));
      return Exit.OK;
    }
  }

  /** One evaluator, label by label. */
  static String summary(EvaluatorView e) {
    TrackRecord r = e.trackRecord();
    Table t =
        Table.plain()
            .row("key", e.key())
            .row("identity", e.identity().scheme() + ":" + e.identity().value())
            .row("name", e.displayName());
    e.organization().ifPresent(organization -> t.row("organization", organization));
    t.row("service types", Formats.list(e.serviceTypes()));
    e.model().ifPresent(model -> t.row("model", model));
    e.priceUsd().ifPresent(price -> t.row("price", Formats.number(price) + " USD per evaluation"));
    t.row("standing", standing(e.standing()))
        .row("evaluations", r.evaluations())
        .row("canary tasks", canaries(r))
        .row("deviation", deviation(r))
        .row("streaks", streaks(r.consecutiveByProvider()))
        .row("qualified", Formats.yesNo(e.qualified()));
    StringBuilder s = new StringBuilder(t.render());
    for (String reason : e.why()) {
      s.append("  - ").append(reason).append('\n');
    }
    return s.toString();
  }

  /** A page of evaluators as a table, and how to get the next page. */
  static String table(EvaluatorPage page) {
    if (page.evaluators().isEmpty()) {
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
    for (EvaluatorView e : page.evaluators()) {
      TrackRecord r = e.trackRecord();
      t.row(
          e.key(),
          Formats.cut(e.displayName(), 30),
          Formats.list(e.serviceTypes()),
          r.evaluations(),
          canaries(r),
          deviation(r),
          e.standing().status(),
          Formats.yesNo(e.qualified()));
    }
    String more = page.nextCursor().map(cursor -> "more: --cursor " + cursor + "\n").orElse("");
    return t.render() + more;
  }

  private static String standing(EvaluatorView.Standing s) {
    return s.status() + s.note().map(note -> " (" + note + ")").orElse("");
  }

  /** "19 of 20 passed (95%)", or "none yet". */
  private static String canaries(TrackRecord r) {
    if (r.canaryTasks() == 0) {
      return "none yet";
    }
    String rate =
        r.canaryPassRate()
            .map(p -> " (" + p.movePointRight(2).stripTrailingZeros().toPlainString() + "%)")
            .orElse("");
    return r.canaryPasses() + " of " + r.canaryTasks() + " passed" + rate;
  }

  private static String deviation(TrackRecord r) {
    return r.calibrationDeviation().map(d -> Formats.number(d) + " points").orElse("none yet");
  }

  private static String streaks(Optional<Map<String, Long>> byProvider) {
    if (byProvider.isEmpty()) {
      return "(they name providers: shown to the evaluator itself and the operator only)";
    }
    if (byProvider.get().isEmpty()) {
      return "(none)";
    }
    List<String> parts = new ArrayList<>();
    byProvider.get().forEach((provider, n) -> parts.add(n + " in a row for " + provider));
    return String.join(", ", parts);
  }
}
