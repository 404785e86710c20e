package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.AgreementView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa agreements get ID}: the agreement's terms and where it stands. */
@Command(
    name = "get",
    header = "Shows an agreement's terms and state.",
    customSynopsis = "asa agreements get ID",
    description =
        "Its state, hash, parties, service, payment and quality dimensions. --json prints the whole envelope, with the full document under \"agreement\".")
final class GetCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    AgreementView envelope = session.client().agreements().get(id);
    session.print(envelope.json(), json -> summary(envelope));
    return Exit.OK;
  }

  /** The envelope through the SDK's view; the document's terms as the protocol writes them. */
  static String summary(AgreementView envelope) {
    JsonNode a = envelope.document();
    JsonNode parties = a.path("parties");
    JsonNode payment = a.path("escrow").path("payment");
    Table facts =
        Table.plain()
            .row("agreement", envelope.id())
            .row("state", envelope.state().name() + " (version " + envelope.version() + ")")
            .row("agreement_hash", envelope.agreementHash())
            .row("allowed now", Formats.list(envelope.allowedActions()))
            .row("client", identity(parties.path("client")))
            .row("provider", identity(parties.path("provider")))
            .row("evaluator", evaluator(a))
            .row("signed by", signers(a.path("signatures")))
            .row(
                "service",
                a.path("service").path("type").asText()
                    + ": "
                    + Formats.cut(a.path("service").path("description").asText(), 100))
            .row(
                "payment",
                payment.has("amount")
                    ? payment.path("amount").asText() + " " + payment.path("currency").asText()
                    : "none")
            .row(
                "verification",
                a.path("verification").path("strategy").asText("-")
                    + ", challenge window "
                    + a.path("verification").path("challenge_window_seconds").asText("0")
                    + " s");
    if (a.has("expires_at")) {
      facts.row("expires", a.path("expires_at").asText());
    }
    JsonNode criteria = a.path("quality_criteria");
    Table dimensions = Table.withHeaders("DIMENSION", "WEIGHT", "METRIC", "SLO");
    for (JsonNode d : criteria.path("dimensions")) {
      dimensions.row(
          d.path("name").asText(),
          Formats.number(d.path("weight")),
          d.path("metric").asText(),
          Formats.slo(d.path("slo")));
    }
    return facts.render()
        + "\n"
        + dimensions.render()
        + "composite "
        + criteria.path("composite_method").asText("weighted_average")
        + ", passes at "
        + Formats.number(criteria.path("composite_threshold"))
        + "\n";
  }

  /** The named evaluator, or the one the pool assigned (or will assign at activation). */
  private static String evaluator(JsonNode a) {
    JsonNode named = a.path("parties").path("evaluator");
    if (!named.isMissingNode()) {
      return identity(named) + (named.has("type") ? " (" + named.path("type").asText() + ")" : "");
    }
    JsonNode assigned = a.path("metadata").path("assigned_evaluators");
    if (assigned.isMissingNode()) {
      return "from the pool at activation";
    }
    return identity(assigned.path("evaluators").path(0))
        + " (pool, "
        + assigned.path("mode").asText()
        + ")";
  }

  private static String identity(JsonNode party) {
    JsonNode id = party.path("identity");
    return id.path("scheme").asText() + " " + id.path("value").asText();
  }

  private static String signers(JsonNode signatures) {
    boolean client = signatures.has("client");
    boolean provider = signatures.has("provider");
    if (client && provider) {
      return "client and provider";
    }
    return client ? "client" : provider ? "provider" : "nobody yet";
  }
}
