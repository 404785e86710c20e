package dev.asa.cli;

import dev.asa.client.MarketView;
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
    MarketView market = session.client().agreements().market(type);
    session.print(market.json(), json -> summary(market));
    return Exit.OK;
  }

  static String summary(MarketView m) {
    StringBuilder s = new StringBuilder();
    s.append("market for ")
        .append(m.serviceType())
        .append(" (a median needs ")
        .append(m.minSample())
        .append(" distinct client-provider pairs)\n");
    Table medians = Table.withHeaders("CURRENCY", "MEDIAN", "SAMPLE", "SOURCE");
    for (MarketView.Median median : m.medians()) {
      medians.row(
          median.currency(),
          median.medianPrice().toPlainString(),
          String.valueOf(median.sample()),
          median.source());
    }
    if (!medians.isEmpty()) {
      s.append(medians.render());
    }
    m.note().ifPresent(note -> s.append(note).append('\n'));
    return s.toString();
  }
}
