package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AgreementBuilder;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.negotiation.RationaleCode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Pattern;

/** The tools that settle the terms: propose an agreement, negotiate it, sign it. */
final class TermsTools {

  /** A positive decimal with no sign, as the server takes amounts. */
  private static final Pattern AMOUNT = Pattern.compile("(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?");

  private final Caller caller;

  TermsTools(Caller caller) {
    this.caller = caller;
  }

  Map<String, ToolHandler> handlers() {
    return Map.of(
        "create_agreement", (args, progress) -> create(args),
        "negotiate", (args, progress) -> negotiate(args),
        "sign_agreement", (args, progress) -> sign(args));
  }

  /** The key holder proposes, as the client: the document is built as the CLI builds it. */
  private ObjectNode create(Arguments args) {
    AgreementBuilder terms =
        AgreementBuilder.template(args.text("template"))
            .client(caller.key().publicKey())
            .provider(didKey("provider", args.text("provider")))
            .description(args.text("description"));
    boolean builtin = args.flag("builtin_evaluator");
    args.optionalText("evaluator")
        .ifPresent(evaluator -> {
          if (builtin) {
            throw new ToolError(
                "Give evaluator or builtin_evaluator, not both: one of them judges.");
          }
          terms.evaluator("did", evaluator, "agent_as_judge", didKey("evaluator", evaluator));
        });
    if (builtin) {
      terms.evaluator("api_key", "asa-server", "builtin");
    }
    var amount = args.optionalText("amount");
    var currency = args.optionalText("currency");
    if (amount.isPresent()) {
      terms.payment(amount(amount.get()), currency.orElse("USDC"));
    } else if (currency.isPresent()) {
      throw new ToolError("currency goes with amount: give the amount too, or neither.");
    }
    args.wholeNumber("challenge_window_seconds").ifPresent(terms::challengeWindowSeconds);
    args.optionalText("depth").ifPresent(terms::verificationDepth);
    args.object("tests")
        .ifPresent(
            tests -> terms.tests(tests.path("language").asText(), tests.path("content").asText()));
    if (args.optionalText("agreement_id").isPresent()) {
      terms.agreementId(args.id("agreement_id"));
    }
    ObjectNode created =
        caller
            .client()
            .createAgreement(terms.build(), args.optionalText("idempotency_key").orElse(null));
    ObjectNode out = Json.object();
    out.put("agreement_id", created.path("agreement_id").asText());
    out.put("agreement_hash", created.path("agreement_hash").asText());
    out.put("state", created.path("state").asText());
    out.set("allowed_actions", created.path("allowed_actions"));
    return out;
  }

  /**
   * A counter-offer, an acceptance or a rejection, as whichever signing party the key is; the round
   * and the negotiation's id come from the agreement, as {@code asa agreements negotiate} reads
   * them.
   */
  private ObjectNode negotiate(Arguments args) {
    String id = args.id("agreement_id");
    var changes = args.object("changes");
    boolean accept = args.flag("accept");
    boolean reject = args.flag("reject");
    if ((changes.isPresent() ? 1 : 0) + (accept ? 1 : 0) + (reject ? 1 : 0) != 1) {
      throw new ToolError("Give exactly one of changes, accept: true or reject: true.");
    }
    ObjectNode envelope = caller.client().agreement(id);
    ObjectNode message = Json.object();
    message.put("party", Roles.signingParty(envelope, caller.key().publicKey(), "negotiate"));
    String rationale =
        args.optionalText("rationale")
            .orElseGet(() -> {
              if (changes.isPresent()) {
                throw new ToolError(
                    "Changes need a rationale: say why the terms should change (e.g."
                        + " budget_limit, market_rate_alignment).");
              }
              return (accept
                      ? RationaleCode.ACCEPT_AS_PROPOSED
                      : RationaleCode.NO_AGREEMENT_POSSIBLE)
                  .wireName();
            });
    message.put("rationale_code", rationale);
    message.put("action", accept ? "accept" : reject ? "reject" : "counter");
    changes.ifPresent(c -> message.set("proposed_changes", checkedChanges(c)));
    JsonNode negotiation = envelope.path("agreement").path("metadata").path("negotiation");
    int round = negotiation.path("round").asInt(0) + 1;
    message.put("round", round);
    if (negotiation.path("negotiation_id").isTextual()) {
      message.put("negotiation_id", negotiation.path("negotiation_id").asText());
    }
    ObjectNode answer = caller.client().negotiate(id, message);
    return Json.object()
        .put("agreement_id", id)
        .put("state", answer.path("state").asText())
        .put("round", round)
        .put("agreement_hash", answer.path("agreement_hash").asText());
  }

  /** Amounts are decimal strings in the terms; a number would change what the hash covers. */
  private static ObjectNode checkedChanges(ObjectNode changes) {
    changes
        .properties()
        .forEach(change -> {
          String path = change.getKey();
          if ((path.equals("amount") || path.endsWith(".amount")) && change.getValue().isNumber()) {
            throw new ToolError(
                "changes."
                    + path
                    + ": amounts are decimal strings; write \""
                    + change.getValue().asText()
                    + "\", not a number.");
          }
        });
    return changes;
  }

  /**
   * Signs as whichever party the key is. Given the hash the model read, it signs exactly that: a
   * difference now is refused here, and a change after this read is refused by the server (409).
   */
  private ObjectNode sign(Arguments args) {
    String id = args.id("agreement_id");
    ObjectNode envelope = caller.client().agreement(id);
    String party = Roles.signingParty(envelope, caller.key().publicKey(), "sign");
    String current = envelope.path("agreement_hash").asText();
    String read = args.optionalText("agreement_hash").orElse(current);
    if (!read.equals(current)) {
      throw new ToolError(
          "Nothing was signed: the terms of "
              + id
              + " are no longer the ones you read ("
              + read
              + "); they are now "
              + current
              + ". Read them again with get_agreement and sign the new hash if you agree.");
    }
    Role role = party.equals("client") ? Role.CLIENT : Role.PROVIDER;
    ObjectNode answer = caller.client().sign(id, role, caller.key(), read);
    JsonNode signatures = answer.path("agreement").path("signatures");
    ObjectNode out =
        Json.object()
            .put("agreement_id", id)
            .put("state", answer.path("state").asText())
            .put("signed_as", party)
            .put("agreement_hash", read);
    out.putObject("signatures")
        .put("client", signatures.has("client"))
        .put("provider", signatures.has("provider"));
    return out;
  }

  private static Ed25519PublicKey didKey(String name, String value) {
    try {
      return DidKey.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ToolError(
          "The argument " + name + " must be a did:key (as whoami answers it): " + e.getMessage());
    }
  }

  private static String amount(String text) {
    if (!AMOUNT.matcher(text).matches() || new BigDecimal(text).signum() == 0) {
      throw new ToolError(
          "amount must be a positive decimal string such as \"10.00\" (no sign); leave it out"
              + " for an agreement without payment.");
    }
    return text;
  }
}
