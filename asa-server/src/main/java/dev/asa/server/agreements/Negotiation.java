package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.AgreementDocuments;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code PATCH /agreements/{id}/negotiate}, in its first form: structured messages that change
 * whitelisted terms ({@code counter}/{@code propose}), {@code accept} or {@code reject}. A change
 * removes any signature already given, because signatures cover the terms. Turn-taking, round
 * limits, the asymmetry limit and price bounds (section 7.3) are the negotiation issue's work.
 */
final class Negotiation {
  private Negotiation() {}

  /** Paths a message may change: terms of the deal, never the parties or the identity of the document. */
  private static final List<Pattern> WHITELIST =
      List.of(
          Pattern.compile("^quality_criteria\\.dimensions\\[\\d{1,2}]\\.(slo\\.value|weight)$"),
          Pattern.compile("^quality_criteria\\.composite_threshold$"),
          Pattern.compile("^escrow\\.payment\\.amount$"),
          Pattern.compile("^escrow\\.payment\\.graduated_release\\.mode$"),
          Pattern.compile("^escrow\\.dead_mans_switch\\.(client|provider|evaluator)_timeout_seconds$"),
          Pattern.compile("^service\\.constraints\\.[a-z_]+$"),
          Pattern.compile("^verification\\.challenge_window_seconds$"),
          Pattern.compile("^expires_at$"));

  private static final Pattern SEGMENT = Pattern.compile("([a-z_]+)(?:\\[(\\d{1,2})])?");

  static AgreementService.Change apply(Agreement a, JsonNode body, Instant now, Actor actor) {
    ObjectNode b = Bodies.object(body, "a negotiation message");
    Bodies.allowOnly(b, "", "party", "action", "proposed_changes", "negotiation_id", "round", "rationale_code", "market_reference");
    AgreementService.requireClaimMatches(Bodies.optionalText(b, "party", ""), actor);
    String party = actor.role();
    String action = Bodies.requiredText(b, "action", "", "propose, counter, accept or reject");
    ObjectNode payload = Json.object();
    payload.put("party", party);
    payload.put("action", action);
    return switch (action) {
      case "propose", "counter" -> {
        JsonNode changes = b.get("proposed_changes");
        if (!(changes instanceof ObjectNode c) || c.isEmpty()) {
          throw new InvalidDocumentException("/proposed_changes", "required: a map from a term's path to its new value");
        }
        State next = Lifecycle.next(a.state(), Action.NEGOTIATE, Lifecycle.Facts.NONE);
        ObjectNode doc = a.toJson();
        ArrayNode applied = payload.putArray("changes");
        for (Map.Entry<String, JsonNode> e : c.properties()) {
          JsonNode before = set(doc, e.getKey(), e.getValue());
          ObjectNode change = applied.addObject();
          change.put("path", e.getKey());
          change.set("before", before);
          change.set("after", e.getValue());
        }
        doc.remove("signatures");
        doc.put("status", next.wireName());
        Agreement changed = AgreementDocuments.read(doc);
        payload.put("agreement_hash", changed.hash().toString());
        payload.put("state", next.name());
        yield new AgreementService.Change(changed, List.of(new EventLog.Draft("negotiated", actor, payload)), List.of(), null);
      }
      case "accept" -> {
        Lifecycle.next(a.state(), Action.NEGOTIATE, Lifecycle.Facts.NONE);
        payload.put("agreement_hash", a.hash().toString());
        payload.put("state", a.state().name());
        yield new AgreementService.Change(a, List.of(new EventLog.Draft("accepted", actor, payload)), List.of(), null);
      }
      case "reject" -> {
        State next = Lifecycle.next(a.state(), Action.REJECT, Lifecycle.Facts.NONE);
        payload.put("state", next.name());
        yield new AgreementService.Change(a.withState(next), List.of(new EventLog.Draft("rejected", actor, payload)), List.of(), null);
      }
      default -> throw new InvalidDocumentException("/action", "must be propose, counter, accept or reject, not '" + action + "'");
    };
  }

  /** Sets a whitelisted dotted path; returns the previous value (null node when absent). */
  private static JsonNode set(ObjectNode doc, String path, JsonNode value) {
    String pointer = "/proposed_changes/" + path.replace("~", "~0").replace("/", "~1");
    if (WHITELIST.stream().noneMatch(p -> p.matcher(path).matches())) {
      throw new InvalidDocumentException(pointer, "'" + path + "' is not a negotiable term");
    }
    String[] segments = path.split("\\.");
    JsonNode node = doc;
    for (int i = 0; i < segments.length; i++) {
      Matcher m = SEGMENT.matcher(segments[i]);
      if (!m.matches()) {
        throw new InvalidDocumentException(pointer, "malformed path segment '" + segments[i] + "'");
      }
      boolean last = i == segments.length - 1;
      String field = m.group(1);
      if (m.group(2) != null) {
        JsonNode array = node.path(field);
        int index = Integer.parseInt(m.group(2));
        if (!array.isArray() || index >= array.size()) {
          throw new InvalidDocumentException(pointer, "no element " + index + " in " + field);
        }
        node = array.get(index);
        continue;
      }
      if (last) {
        ObjectNode parent = (ObjectNode) node;
        JsonNode before = parent.has(field) ? parent.get(field) : Json.mapper().nullNode();
        parent.set(field, value);
        return before;
      }
      if (!node.path(field).isObject()) {
        ((ObjectNode) node).putObject(field);
      }
      node = node.get(field);
    }
    throw new InvalidDocumentException(pointer, "a path must end at a term, not an array element");
  }
}
