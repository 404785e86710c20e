package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa reputation SCHEME:VALUE}: the ARP signals an identity earned on the server. */
@Command(
    name = "reputation",
    header = "Shows the reputation an identity earned on the server, as signed ARP signals.",
    customSynopsis = "asa reputation SCHEME:VALUE",
    description =
        "The server's aggregates over its window (pass rate, mean composite score, on-time,"
            + " completion and dispute rates, distinct counterparties), per role; the signals of"
            + " issuers it trusts; and the figures it acts on, weighted by sample size."
            + " Only agreements whose result_visibility is parties_and_arp or public count.")
final class ReputationCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(
      paramLabel = "SCHEME:VALUE",
      description =
          "an identity, e.g. did:did:key:z6Mk... or api_key:agent-7 (scheme, a colon, value)")
  String identity;

  @Override
  public Integer call() throws Exception {
    int colon = identity.indexOf(':');
    if (colon < 1 || colon == identity.length() - 1) {
      throw new UsageException(
          "SCHEME:VALUE is an identity scheme, a colon and its value, e.g. did:did:key:z6Mk...,"
              + " not '"
              + identity
              + "'");
    }
    Session session = server.session();
    session.print(
        session.client().reputation(identity.substring(0, colon), identity.substring(colon + 1)),
        ReputationCommand::summary);
    return Exit.OK;
  }

  static String summary(JsonNode r) {
    StringBuilder s = new StringBuilder();
    s.append("reputation of ")
        .append(r.path("identity").path("scheme").asText())
        .append(':')
        .append(r.path("identity").path("value").asText());
    if (r.has("verification_key")) {
      s.append(" (key ").append(r.path("verification_key").asText()).append(')');
    }
    s.append(", window ").append(r.path("window").asText()).append('\n');
    Table signals = Table.withHeaders("ROLE", "SIGNAL", "VALUE", "SAMPLE", "CONFIDENCE");
    for (JsonNode signal : r.path("signals")) {
      signals.row(
          signal.path("role").asText(),
          signal.path("signal_id").asText(),
          signal.path("value").asText(),
          signal.path("sample_size").asText(),
          signal.path("confidence").asText());
    }
    if (signals.isEmpty()) {
      s.append("no history on this server\n");
    } else {
      s.append(signals.render());
    }
    if (!r.path("foreign_signals").isEmpty()) {
      s.append(r.path("foreign_signals").size())
          .append(" signal(s) from trusted issuers; combined figures:\n");
      Table combined = Table.withHeaders("ROLE", "SIGNAL", "VALUE", "SAMPLE", "SOURCES");
      for (JsonNode c : r.path("combined")) {
        combined.row(
            c.path("role").asText(),
            c.path("signal_id").asText(),
            c.path("value").asText(),
            c.path("sample_size").asText(),
            String.valueOf(c.path("sources").size()));
      }
      s.append(combined.render());
    }
    s.append("signed by ").append(r.path("issuer").path("key").asText()).append('\n');
    return s.toString();
  }
}
