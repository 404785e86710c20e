package dev.asa.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import dev.asa.negotiation.RationaleCode;

/** {@code asa agreements negotiate}: a counter-proposal, or the answer to one. */
final class NegotiateCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements negotiate",
              "ID --as client|provider --rationale CODE (--set PATH=VALUE ... | --accept | --reject)",
              "Proposes changes to the terms, or accepts or rejects them.\n"
                  + "PATH is dotted, e.g. quality_criteria.composite_threshold or quality_criteria.dimensions[0].slo.value.\n"
                  + "VALUE is read as JSON when it is JSON, else as a string: amounts are strings, so write\n"
                  + "--set 'escrow.payment.amount=\"12.00\"'. A change clears both signatures: the new terms need signing.\n"
                  + "The round number and negotiation id are read from the agreement; turns alternate, at most 5 rounds,\n"
                  + "and no numeric term may move more than 25% in one round.")
          .positional("ID")
          .option(Option.required("--as", "ROLE", "the party speaking: client or provider"))
          .option(
              Option.required(
                  "--rationale", "CODE", "why, from a fixed list: " + RationaleCode.wireNames()))
          .option(Option.repeated("--set", "PATH=VALUE", "a term and its proposed value"))
          .option(Option.flag("--accept", "accept the current terms"))
          .option(Option.flag("--reject", "reject the agreement (final)"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    Role role = Inputs.signingRole("--as", args.value("--as"));
    ObjectNode message = message(role, args);
    String id = args.positional(0);
    // The next round and the negotiation's id come from the agreement itself (its metadata).
    JsonNode negotiation =
        session.client().agreement(id).path("agreement").path("metadata").path("negotiation");
    message.put("round", negotiation.path("round").asInt(0) + 1);
    if (negotiation.path("negotiation_id").isTextual()) {
      message.put("negotiation_id", negotiation.path("negotiation_id").asText());
    }
    ObjectNode answer = session.client().negotiate(id, message);
    if (session.json()) {
      session.printJson(answer);
      return 0;
    }
    String state = answer.path("state").asText();
    switch (message.path("action").asText()) {
      case "counter" -> {
        session
            .out()
            .println(
                "proposed "
                    + message.path("proposed_changes").size()
                    + " change(s) to "
                    + id
                    + "; state "
                    + state);
        session
            .out()
            .println(
                "new agreement_hash "
                    + answer.path("agreement_hash").asText()
                    + "; both parties sign the new terms");
      }
      case "accept" ->
          session
              .out()
              .println(
                  "accepted the terms of "
                      + id
                      + " ("
                      + answer.path("agreement_hash").asText()
                      + "); state "
                      + state
                      + "; now sign them");
      default -> session.out().println("rejected " + id + "; state " + state);
    }
    return 0;
  }

  static ObjectNode message(Role role, Arguments args) throws UsageException {
    int modes =
        (args.has("--set") ? 1 : 0)
            + (args.flag("--accept") ? 1 : 0)
            + (args.flag("--reject") ? 1 : 0);
    if (modes != 1) {
      throw new UsageException("give exactly one of --set PATH=VALUE, --accept or --reject");
    }
    ObjectNode message = Json.object();
    message.put("party", role.wireName());
    message.put("rationale_code", args.value("--rationale"));
    if (args.flag("--accept")) {
      return message.put("action", "accept");
    }
    if (args.flag("--reject")) {
      return message.put("action", "reject");
    }
    message.put("action", "counter");
    ObjectNode changes = message.putObject("proposed_changes");
    for (String assignment : args.values("--set")) {
      int eq = assignment.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--set needs PATH=VALUE, not '" + assignment + "'");
      }
      String path = assignment.substring(0, eq);
      if (changes.has(path)) {
        throw new UsageException("--set gives " + path + " twice");
      }
      changes.set(path, value(assignment.substring(eq + 1)));
    }
    return message;
  }

  /**
   * JSON when the text is JSON ({@code 85}, {@code true}, {@code [1,2]}, {@code "12.00"}), else the
   * text itself.
   */
  static JsonNode value(String text) {
    try {
      return Json.parse(text);
    } catch (JsonProcessingException e) {
      return Json.mapper().getNodeFactory().textNode(text);
    }
  }
}
