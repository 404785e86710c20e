package dev.asa.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import dev.asa.negotiation.RationaleCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code asa agreements negotiate}: a counter-proposal, or the answer to one. */
@Command(
    name = "negotiate",
    header = "Proposes changes to the terms, or accepts or rejects them.",
    customSynopsis =
        "asa agreements negotiate ID --as client|provider (--rationale CODE --set PATH=VALUE ... |"
            + " --accept | --reject)",
    description = {
      "PATH is dotted, e.g. quality_criteria.composite_threshold or"
          + " quality_criteria.dimensions[0].slo.value. VALUE is read as JSON when it is JSON, else"
          + " as a string: amounts are strings, so write --set 'escrow.payment.amount=\"12.00\"'."
          + " A change clears both signatures: the new terms need signing.",
      "",
      "The round number and negotiation id are read from the agreement; turns alternate, at most 5"
          + " rounds, and no numeric term may move more than 25%% in one round."
    })
final class NegotiateCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--as",
      paramLabel = "ROLE",
      required = true,
      completionCandidates = Candidates.SigningRoles.class,
      description = "the party speaking: ${COMPLETION-CANDIDATES}")
  String as;

  @Option(
      names = "--rationale",
      paramLabel = "CODE",
      completionCandidates = Candidates.Rationales.class,
      description =
          "why, one of: ${COMPLETION-CANDIDATES}; needed with --set, and by default"
              + " accept_as_proposed with --accept, no_agreement_possible with --reject")
  String rationale;

  @Option(names = "--set", paramLabel = "PATH=VALUE", description = "a term and its proposed value")
  List<String> set = new ArrayList<>();

  @Option(names = "--accept", description = "accept the current terms")
  boolean accept;

  @Option(names = "--reject", description = "reject the agreement (final)")
  boolean reject;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    Role role = Inputs.signingRole("--as", as);
    ObjectNode message = message(role);
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
      return Exit.OK;
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
    return Exit.OK;
  }

  ObjectNode message(Role role) throws UsageException {
    int modes = (set.isEmpty() ? 0 : 1) + (accept ? 1 : 0) + (reject ? 1 : 0);
    if (modes != 1) {
      throw new UsageException("give exactly one of --set PATH=VALUE, --accept or --reject");
    }
    if (rationale == null && !set.isEmpty()) {
      throw new UsageException("--set needs --rationale CODE: say why the terms should change");
    }
    ObjectNode message = Json.object();
    message.put("party", role.wireName());
    // Accepting and rejecting have one natural reason each; the server still checks the code.
    message.put(
        "rationale_code",
        rationale != null
            ? rationale
            : accept
                ? RationaleCode.ACCEPT_AS_PROPOSED.wireName()
                : RationaleCode.NO_AGREEMENT_POSSIBLE.wireName());
    if (accept) {
      return message.put("action", "accept");
    }
    if (reject) {
      return message.put("action", "reject");
    }
    message.put("action", "counter");
    ObjectNode changes = message.putObject("proposed_changes");
    for (String assignment : set) {
      int eq = assignment.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--set needs PATH=VALUE, not '" + assignment + "'");
      }
      String path = assignment.substring(0, eq);
      if (changes.has(path)) {
        throw new UsageException("--set gives " + path + " twice");
      }
      JsonNode value = value(assignment.substring(eq + 1));
      if ((path.equals("amount") || path.endsWith(".amount")) && value.isNumber()) {
        throw new UsageException(
            "--set "
                + path
                + ": amounts are decimal strings, so quote the number as JSON: --set '"
                + path
                + "=\""
                + assignment.substring(eq + 1)
                + "\"'");
      }
      changes.set(path, value);
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
