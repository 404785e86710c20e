package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements escrow ID}: where the agreement's money is, how it moved, and the payment
 * messages sent.
 */
@Command(
    name = "escrow",
    header = "Shows where an agreement's escrow money is and how it moved.",
    customSynopsis = "asa agreements escrow ID",
    description =
        "Its status and balance, the provider's collateral if the terms ask for one, every transfer, and each payment message with its delivery attempts. Status is unfunded, held, frozen (a dispute is open), settled, nothing_held or not_required.")
final class EscrowCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode escrow = session.client().escrow(id);
    session.print(escrow, EscrowCommand::summary);
    return Exit.OK;
  }

  static String summary(JsonNode e) {
    String terms =
        e.path("binding").asText("-")
            + (e.path("enabled").asBoolean(true) ? "" : " (disabled)")
            + (e.has("amount")
                ? ", " + e.path("amount").asText() + " " + e.path("currency").asText()
                : ", no amount");
    Table facts =
        Table.plain()
            .row("agreement", e.path("agreement_id").asText())
            .row("state", e.path("state").asText())
            .row("escrow", terms)
            .row("status", e.path("status").asText().replace('_', ' '))
            .row("balance", balances(e.path("balances")));
    if (e.path("collateral").isObject()) {
      facts.row("collateral", collateral(e.path("collateral")));
    }
    if (e.has("requirements")) {
      facts.row("payment", "x402 payment requirements given (--json shows them)");
    }
    StringBuilder s = new StringBuilder(facts.render());
    s.append('\n').append(transfers(e.path("transfers")));
    s.append('\n').append(messages(e.path("messages")));
    return s.toString();
  }

  /**
   * {@code 3.00 USD held}, {@code 3.00 USD slashed (verification_failure): 1.20 USD to the client,
   * 1.80 USD back}, {@code 3.00 USD returned}, {@code 3.00 USD awaiting the provider's stake}.
   */
  static String collateral(JsonNode c) {
    String currency = " " + c.path("currency").asText();
    String stake = c.path("amount").asText() + currency;
    return switch (c.path("status").asText()) {
      case "awaiting" -> stake + " awaiting the provider's stake";
      case "not_staked" -> stake + " never staked";
      case "slashed" ->
          stake
              + " slashed ("
              + c.path("trigger").asText()
              + "): "
              + c.path("slashed").asText()
              + currency
              + " to the client, "
              + c.path("returned").asText()
              + currency
              + " back";
      default -> stake + " " + c.path("status").asText();
    };
  }

  /** {@code 10.00 USD}, one per currency, or {@code none}. */
  static String balances(JsonNode balances) {
    List<String> parts = new ArrayList<>();
    for (var b : balances.properties()) {
      parts.add(b.getValue().asText() + " " + b.getKey());
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  private static String transfers(JsonNode transfers) {
    if (transfers.isEmpty()) {
      return "no transfers\n";
    }
    Table table = Table.withHeaders("KIND", "AMOUNT", "FROM", "TO", "AT");
    for (JsonNode t : transfers) {
      table.row(
          t.path("kind").asText(),
          t.path("amount").asText() + " " + t.path("currency").asText(),
          t.path("from").asText(),
          t.path("to").asText(),
          t.path("at").asText());
    }
    return table.render();
  }

  private static String messages(JsonNode messages) {
    if (messages.isEmpty()) {
      return "no payment messages\n";
    }
    Table table =
        Table.withHeaders("MESSAGE", "KIND", "STATUS", "ATTEMPTS", "DESTINATION", "DETAIL");
    for (JsonNode m : messages) {
      table.row(
          m.path("webhook_id").asText(),
          m.path("kind").asText(),
          m.path("status").asText(),
          m.path("attempts").asText(),
          m.path("destination").asText(),
          detail(m));
    }
    return table.render();
  }

  /** When it was delivered, or when it is tried next and why the last attempt failed. */
  private static String detail(JsonNode m) {
    List<String> parts = new ArrayList<>();
    if (m.has("delivered_at")) {
      parts.add("delivered at " + m.path("delivered_at").asText());
    }
    if (m.has("next_attempt_at")) {
      parts.add("next attempt at " + m.path("next_attempt_at").asText());
    }
    if (m.has("last_error")) {
      parts.add("last error: " + Formats.cut(m.path("last_error").asText(), 100));
    }
    return String.join("; ", parts);
  }
}
