package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa market TYPE}: the market median price of a service type, as negotiations use it. */
@Command(
    name = "market",
    header =
        "Shows the market median price of a service type, from the server's closed agreements.",
    customSynopsis = "asa market TYPE",
    description =
        "One median per currency, once enough distinct client-provider pairs have closed"
            + " agreements of that type; negotiations are price-flagged against it.")
final class MarketCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "TYPE", description = "a service type, e.g. general")
  String type;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    session.print(session.client().market(type), MarketCommand::summary);
    return Exit.OK;
  }

  static String summary(JsonNode m) {
    StringBuilder s = new StringBuilder();
    s.append("market for ")
        .append(m.path("service_type").asText())
        .append(" (a median needs ")
        .append(m.path("min_sample").asText())
        .append(" distinct client-provider pairs)\n");
    Table medians = Table.withHeaders("CURRENCY", "MEDIAN", "SAMPLE", "SOURCE");
    for (JsonNode median : m.path("medians")) {
      medians.row(
          median.path("currency").asText(),
          median.path("median_price").asText(),
          median.path("sample").asText(),
          median.path("source").asText());
    }
    if (!medians.isEmpty()) {
      s.append(medians.render());
    }
    if (m.has("note")) {
      s.append(m.path("note").asText()).append('\n');
    }
    return s.toString();
  }
}
