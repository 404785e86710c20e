package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
    ObjectNode status = session.client().status(id);
    session.print(status, StatusCommand::summary);
    return Exit.OK;
  }

  static String summary(JsonNode s) {
    Table facts =
        Table.plain()
            .row("agreement", s.path("agreement_id").asText())
            .row(
                "state", s.path("state").asText() + " (version " + s.path("version").asText() + ")")
            .row("allowed now", Formats.list(s.path("allowed_actions")))
            .row(
                "signed",
                "client "
                    + Formats.yesNo(s.path("signatures").path("client").asBoolean())
                    + ", provider "
                    + Formats.yesNo(s.path("signatures").path("provider").asBoolean()));
    if (s.has("judged_by")) {
      facts.row("judged by", s.path("judged_by").path("because").asText());
    }
    if (s.has("activated_at")) {
      facts.row("activated", s.path("activated_at").asText());
    }
    JsonNode deadlines = s.path("deadlines");
    if (deadlines.has("expires_at")) {
      facts.row("expires", deadlines.path("expires_at").asText());
    }
    JsonNode delivered = s.path("deliverable");
    if (!delivered.isMissingNode()) {
      facts.row(
          "delivered",
          delivered.path("delivered_at").asText()
              + ", "
              + delivered.path("content_hash").asText()
              + (delivered.has("size_bytes") && delivered.path("size_bytes").asLong() >= 0
                  ? ", " + delivered.path("size_bytes").asText() + " bytes"
                  : "")
              + (delivered.has("format") ? ", " + delivered.path("format").asText() : ""));
    }
    JsonNode verified = s.path("verification");
    if (!verified.isMissingNode()) {
      facts.row(
          "verified",
          verified.path("result").asText()
              + ", composite "
              + Formats.number(verified.path("composite"))
              + ", release "
              + Formats.number(verified.path("payment_release_percent"))
              + "% ("
              + verified.path("verification_id").asText()
              + ")");
    }
    if (deadlines.has("challenge_window_closes_at")) {
      facts.row(
          "challenge window",
          (deadlines.path("challenge_window_open").asBoolean() ? "open until " : "closed at ")
              + deadlines.path("challenge_window_closes_at").asText());
    }
    JsonNode dispute = s.path("dispute");
    if (!dispute.isMissingNode()) {
      facts.row(
          "dispute",
          "filed by "
              + filer(dispute)
              + " at "
              + dispute.path("filed_at").asText()
              + ": "
              + dispute.path("reason_code").asText());
    }
    JsonNode ruling = s.path("ruling");
    if (!ruling.isMissingNode()) {
      facts.row(
          "ruling",
          Formats.number(ruling.path("release_percent"))
              + "% to the provider, by the "
              + ruling.path("ruled_by").asText()
              + " at "
              + ruling.path("ruled_at").asText()
              + (ruling.path("reason").asText("").isBlank()
                  ? ""
                  : ": " + ruling.path("reason").asText()));
    }
    facts.row("payment", payment(s.path("payment")));
    return facts.render();
  }

  /** {@code the client}, or {@code a party} when the record does not say who. */
  static String filer(JsonNode dispute) {
    String by = dispute.path("filed_by").asText(dispute.path("party").asText(""));
    return by.isBlank() ? "a party" : "the " + by;
  }

  private static String payment(JsonNode p) {
    String status = p.path("status").asText();
    if (!p.has("amount")) {
      return status.replace('_', ' ');
    }
    String amount = p.path("amount").asText() + " " + p.path("currency").asText();
    if (p.has("released_to_provider")) {
      return amount
          + ", settled: "
          + p.path("released_to_provider").asText()
          + " to the provider, "
          + p.path("refunded_to_client").asText()
          + " back to the client";
    }
    return amount + ", " + status.replace('_', ' ');
  }
}
