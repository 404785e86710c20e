package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements ruling ID}: the operator or an arbiter settles a dispute, and the agreement
 * closes.
 */
@Command(
    name = "ruling",
    header = "Rules on a dispute and closes the agreement (the operator or an arbiter).",
    customSynopsis = "asa agreements ruling ID --release-percent N --reason TEXT",
    description =
        "N%% of the escrow goes to the provider, the rest back to the client. The agreement must be"
            + " DISPUTED; only the operator key, or an arbiter key the server was started with"
            + " (--arbiter-key), may rule.")
final class RulingCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--release-percent",
      paramLabel = "N",
      required = true,
      description = "the share released to the provider, 0 to 100 (at most 2 decimals)")
  String releasePercent;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      required = true,
      description = "why the ruling decides so (kept in the agreement's record)")
  String reason;

  private static final Pattern PERCENT = Pattern.compile("\\d{1,3}(\\.\\d{1,2})?");
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    BigDecimal percent = releasePercent(releasePercent);
    ObjectNode answer = session.client().rule(id, percent, reason(reason));
    session.print(answer, a -> summary(id, a));
    return Exit.OK;
  }

  /**
   * A number from 0 to 100 with at most two decimals, as the server takes it: {@code 60}, {@code
   * 33.33}.
   */
  static BigDecimal releasePercent(String text) throws UsageException {
    if (text != null && PERCENT.matcher(text).matches()) {
      BigDecimal percent = new BigDecimal(text);
      if (percent.compareTo(HUNDRED) <= 0) {
        return percent;
      }
    }
    throw new UsageException(
        "--release-percent must be a number from 0 to 100 with at most 2 decimals, such as 60 or 33.33, not '"
            + text
            + "'");
  }

  static String reason(String text) throws UsageException {
    if (text == null || text.isBlank()) {
      throw new UsageException("--reason must not be blank: say why the ruling decides so");
    }
    return text.strip();
  }

  static String summary(String id, JsonNode envelope) {
    StringBuilder s =
        new StringBuilder("ruled on " + id + "; state " + envelope.path("state").asText() + "\n");
    JsonNode settlement = envelope.path("agreement").path("metadata").path("settlement");
    if (settlement.has("amount")) {
      String currency = " " + settlement.path("currency").asText();
      s.append("released ")
          .append(settlement.path("released_to_provider").asText())
          .append(currency)
          .append(" to the provider (")
          .append(Formats.number(settlement.path("ruling").path("release_percent")))
          .append("%), ")
          .append(settlement.path("refunded_to_client").asText())
          .append(currency)
          .append(" back to the client\n");
    }
    if (settlement.has("note")) {
      s.append(settlement.path("note").asText()).append('\n');
    }
    return s.toString();
  }
}
