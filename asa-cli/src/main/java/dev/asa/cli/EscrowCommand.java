package dev.asa.cli;

import dev.asa.client.EscrowView;
import dev.asa.client.EscrowView.Collateral;
import dev.asa.client.EscrowView.Message;
import dev.asa.client.EscrowView.Transfer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    EscrowView escrow = session.client().agreements().escrow(id);
    session.print(escrow.json(), json -> summary(escrow));
    return Exit.OK;
  }

  static String summary(EscrowView e) {
    String terms =
        e.binding()
            + (e.enabled() ? "" : " (disabled)")
            + e.amount()
                .map(amount -> ", " + amount.toPlainString() + " " + e.currency().orElse(""))
                .orElse(", no amount");
    Table facts =
        Table.plain()
            .row("agreement", e.agreementId())
            .row("state", e.state().name())
            .row("escrow", terms)
            .row("status", e.status().replace('_', ' '))
            .row("balance", balances(e.balances()));
    e.collateral().ifPresent(c -> facts.row("collateral", collateral(c)));
    if (e.x402Requirements().isPresent()) {
      facts.row("payment", "x402 payment requirements given (--json shows them)");
    }
    StringBuilder s = new StringBuilder(facts.render());
    s.append('\n').append(transfers(e.transfers()));
    s.append('\n').append(messages(e.messages()));
    return s.toString();
  }

  /**
   * {@code 3.00 USD held}, {@code 3.00 USD slashed (verification_failure): 1.20 USD to the client,
   * 1.80 USD back}, {@code 3.00 USD returned}, {@code 3.00 USD awaiting the provider's stake}.
   */
  static String collateral(Collateral c) {
    String currency = " " + c.currency();
    String stake = c.amount().toPlainString() + currency;
    return switch (c.status()) {
      case "awaiting" -> stake + " awaiting the provider's stake";
      case "not_staked" -> stake + " never staked";
      case "slashed" ->
          stake
              + " slashed ("
              + c.trigger().orElse("")
              + "): "
              + plain(c.slashed())
              + currency
              + " to the client, "
              + plain(c.returned())
              + currency
              + " back";
      default -> stake + " " + c.status();
    };
  }

  private static String plain(Optional<BigDecimal> amount) {
    return amount.map(BigDecimal::toPlainString).orElse("");
  }

  /** {@code 10.00 USD}, one per currency, or {@code none}. */
  static String balances(Map<String, BigDecimal> balances) {
    return balances.isEmpty() ? "none" : Formats.amounts(balances);
  }

  private static String transfers(List<Transfer> transfers) {
    if (transfers.isEmpty()) {
      return "no transfers\n";
    }
    Table table = Table.withHeaders("KIND", "AMOUNT", "FROM", "TO", "AT");
    for (Transfer t : transfers) {
      table.row(
          t.kind(), t.amount().toPlainString() + " " + t.currency(), t.from(), t.to(), t.at());
    }
    return table.render();
  }

  private static String messages(List<Message> messages) {
    if (messages.isEmpty()) {
      return "no payment messages\n";
    }
    Table table =
        Table.withHeaders("MESSAGE", "KIND", "STATUS", "ATTEMPTS", "DESTINATION", "DETAIL");
    for (Message m : messages) {
      table.row(m.webhookId(), m.kind(), m.status(), m.attempts(), m.destination(), detail(m));
    }
    return table.render();
  }

  /** When it was delivered, or when it is tried next and why the last attempt failed. */
  private static String detail(Message m) {
    List<String> parts = new ArrayList<>();
    m.deliveredAt().ifPresent(at -> parts.add("delivered at " + at));
    m.nextAttemptAt().ifPresent(at -> parts.add("next attempt at " + at));
    m.lastError().ifPresent(error -> parts.add("last error: " + Formats.cut(error, 100)));
    return String.join("; ", parts);
  }
}
