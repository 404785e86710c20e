package dev.asa.cli;

import dev.asa.client.ReputationView;
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
    ReputationView reputation =
        session
            .client()
            .agreements()
            .reputation(identity.substring(0, colon), identity.substring(colon + 1));
    session.print(reputation.json(), json -> summary(reputation));
    return Exit.OK;
  }

  static String summary(ReputationView r) {
    StringBuilder s = new StringBuilder();
    s.append("reputation of ")
        .append(r.identity().scheme())
        .append(':')
        .append(r.identity().value());
    r.verificationKey().ifPresent(key -> s.append(" (key ").append(key).append(')'));
    s.append(", window ").append(r.window()).append('\n');
    Table signals = Table.withHeaders("ROLE", "SIGNAL", "VALUE", "SAMPLE", "CONFIDENCE");
    for (ReputationView.Signal signal : r.signals()) {
      // A signal's figures as signed: toString, as the JSON text writes them.
      signals.row(
          signal.role(),
          signal.signalId(),
          signal.value().toString(),
          String.valueOf(signal.sampleSize()),
          signal.confidence().toString());
    }
    if (signals.isEmpty()) {
      s.append("no history on this server\n");
    } else {
      s.append(signals.render());
    }
    if (!r.foreignSignals().isEmpty()) {
      s.append(r.foreignSignals().size())
          .append(" signal(s) from trusted issuers; combined figures:\n");
      Table combined = Table.withHeaders("ROLE", "SIGNAL", "VALUE", "SAMPLE", "SOURCES");
      for (ReputationView.Figure c : r.combined()) {
        combined.row(
            c.role(),
            c.signalId(),
            c.value().toString(),
            String.valueOf(c.sampleSize()),
            String.valueOf(c.sources().size()));
      }
      s.append(combined.render());
    }
    s.append("signed by ").append(r.issuer().key()).append('\n');
    return s.toString();
  }
}
