package dev.asa.cli;

import dev.asa.client.AgreementStatus;
import dev.asa.client.AgreementStatus.Delivery;
import dev.asa.client.AgreementStatus.Dispute;
import dev.asa.client.AgreementStatus.Payment;
import dev.asa.client.AgreementStatus.Ruling;
import dev.asa.client.AgreementStatus.Verdict;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa agreements status ID}: where the agreement, and the money, stand. */
@Command(
    name = "status",
    header = "Shows where an agreement and its payment stand.",
    customSynopsis = "asa agreements status ID",
    description = "State, signatures, deadlines, delivery, verification, dispute and payment.")
final class StatusCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    AgreementStatus status = session.client().agreements().status(id);
    session.print(status.json(), json -> summary(status));
    return Exit.OK;
  }

  static String summary(AgreementStatus s) {
    Table facts =
        Table.plain()
            .row("agreement", s.id())
            .row("state", s.state().name() + " (version " + s.version() + ")")
            .row("allowed now", Formats.list(s.allowedActions()))
            .row(
                "signed",
                "client "
                    + Formats.yesNo(s.signedByClient())
                    + ", provider "
                    + Formats.yesNo(s.signedByProvider()));
    s.judgedBy().ifPresent(j -> facts.row("judged by", j.because()));
    s.activatedAt().ifPresent(at -> facts.row("activated", at));
    s.expiresAt().ifPresent(at -> facts.row("expires", at));
    s.delivery().ifPresent(d -> facts.row("delivered", delivered(d)));
    s.verdict().ifPresent(v -> facts.row("verified", verified(v)));
    s.challengeWindowClosesAt()
        .ifPresent(at ->
            facts.row(
                "challenge window", (s.challengeWindowOpen() ? "open until " : "closed at ") + at));
    s.dispute().ifPresent(d -> facts.row("dispute", dispute(d)));
    s.ruling().ifPresent(r -> facts.row("ruling", ruling(r)));
    facts.row("payment", payment(s.payment()));
    return facts.render();
  }

  private static String delivered(Delivery d) {
    return d.deliveredAt()
        + ", "
        + d.contentHash()
        + d.sizeBytes().filter(size -> size >= 0).map(size -> ", " + size + " bytes").orElse("")
        + d.format().map(format -> ", " + format).orElse("");
  }

  private static String verified(Verdict v) {
    return v.result()
        + ", composite "
        + Formats.number(v.composite())
        + ", release "
        + Formats.number(v.releasePercent())
        + "% ("
        + v.verificationId()
        + ")";
  }

  /** {@code filed by the client at ...: reason}, or {@code by a party} when it does not say who. */
  static String dispute(Dispute d) {
    return "filed by "
        + d.filedBy().map(by -> "the " + by).orElse("a party")
        + " at "
        + d.filedAt()
        + ": "
        + d.reasonCode();
  }

  /** {@code 95% to the provider, by the arbiter at ...: why}. */
  static String ruling(Ruling r) {
    return Formats.number(r.releasePercent())
        + "% to the provider, by the "
        + r.ruledBy()
        + " at "
        + r.ruledAt()
        + (r.reason().isBlank() ? "" : ": " + r.reason());
  }

  private static String payment(Payment p) {
    String status = p.status();
    if (p.amount().isEmpty()) {
      return status.replace('_', ' ');
    }
    String amount = p.amount().get().toPlainString() + " " + p.currency().orElse("");
    if (p.releasedToProvider().isPresent()) {
      return amount
          + ", settled: "
          + p.releasedToProvider().get().toPlainString()
          + " to the provider, "
          + p.refundedToClient().map(java.math.BigDecimal::toPlainString).orElse("")
          + " back to the client";
    }
    return amount + ", " + status.replace('_', ' ');
  }
}
