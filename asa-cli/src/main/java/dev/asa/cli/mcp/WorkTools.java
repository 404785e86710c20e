package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.ChallengeReason;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.json.Json;
import java.util.Map;

/** The tools that move an active agreement along: fund it, deliver, challenge the verdict. */
final class WorkTools {

  private final Caller caller;

  WorkTools(Caller caller) {
    this.caller = caller;
  }

  Map<String, ToolHandler> handlers() {
    return Map.of(
        "fund_escrow", (args, progress) -> fund(args),
        "deliver", (args, progress) -> deliver(args),
        "challenge", (args, progress) -> challenge(args));
  }

  private ObjectNode fund(Arguments args) {
    String id = args.id("agreement_id");
    var payment = args.object("x402_payment");
    var job = args.optionalText("erc8183_job_id");
    if (payment.isPresent() && job.isPresent()) {
      throw new ToolError(
          "x402_payment and erc8183_job_id fund different escrows: give the one the agreement's"
              + " binding takes.");
    }
    ObjectNode body = null;
    if (payment.isPresent()) {
      body = Json.object();
      body.set("x402", payment.get());
    } else if (job.isPresent()) {
      body = Json.object();
      body.putObject("erc8183").put("job_id", job.get());
    }
    ObjectNode answer;
    try {
      answer = caller.client().fund(id, body);
    } catch (AsaApiException e) {
      if (body == null && !e.isUnreachable() && e.status() != 404) {
        throw new Refusal(e, railHint(id));
      }
      throw e;
    }
    ObjectNode out =
        Json.object().put("agreement_id", id).put("state", answer.path("state").asText());
    out.set("escrow", answer.path("agreement").path("metadata").path("escrow"));
    return out;
  }

  /** What an x402 or erc8183 escrow needs that a ledger one does not; null for the others. */
  private String railHint(String id) {
    String binding =
        caller.client().agreement(id).at("/agreement/escrow/binding/type").asText("ledger");
    return switch (binding) {
      case "x402" ->
          "This agreement's escrow is x402: pass x402_payment, the signed x402 PaymentPayload for"
              + " the payment requirements agreement_status shows.";
      case "erc8183" ->
          "This agreement's escrow is erc8183: create and fund the ERC-8183 job on chain, then"
              + " pass its id as erc8183_job_id.";
      default -> null;
    };
  }

  private ObjectNode deliver(Arguments args) {
    String id = args.id("agreement_id");
    ObjectNode answer =
        caller.client().deliver(id, args.text("content"), args.optionalText("format").orElse(null));
    ObjectNode out =
        Json.object().put("agreement_id", id).put("state", answer.path("state").asText());
    out.set("deliverable", answer.path("agreement").path("metadata").path("deliverable"));
    return out;
  }

  /** As whichever signing party the key is; the reason in words stays here (see the schema). */
  private ObjectNode challenge(Arguments args) {
    String id = args.id("agreement_id");
    String code = args.text("reason_code");
    try {
      ChallengeReason.fromWire(code);
    } catch (IllegalArgumentException e) {
      throw new ToolError(
          "reason_code must be one of " + ChallengeReason.allWireNames() + ", not '" + code + "'.");
    }
    String party =
        Roles.signingParty(caller.client().agreement(id), caller.key().publicKey(), "challenge");
    ObjectNode answer =
        caller.client().challenge(id, party.equals("client") ? Role.CLIENT : Role.PROVIDER, code);
    ObjectNode out =
        Json.object()
            .put("agreement_id", id)
            .put("state", answer.path("state").asText())
            .put("reason_code", code);
    args.optionalText("reason").ifPresent(reason -> out.put("reason", reason));
    return out;
  }
}
