package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.Settlement;
import dev.asa.server.store.Write;
import dev.asa.server.store.escrow.OutboxMessage;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code http_callback}: an external payment system holds the money; the server tells it what to do
 * with signed webhooks (Standard Webhooks, signed with the server key published at {@code
 * /.well-known/asa/server-key}), sent through the outbox. The message id is derived from the
 * agreement and the instruction, so the payment system can apply each instruction once however
 * often it is delivered.
 */
final class HttpCallbackBinding implements EscrowBinding {
  private final List<String> allowedPrefixes;

  HttpCallbackBinding(List<String> allowedPrefixes) {
    this.allowedPrefixes = List.copyOf(allowedPrefixes);
  }

  @Override
  public String type() {
    return "http_callback";
  }

  @Override
  public void check(JsonNode binding, Money amount) {
    JsonNode url = binding.get("url");
    if (url == null || !url.isTextual()) {
      throw new InvalidDocumentException(
          "/escrow/binding/url", "required: the payment system's webhook URL");
    }
    URI uri;
    try {
      uri = URI.create(url.asText());
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/escrow/binding/url", "not a URL: " + e.getMessage());
    }
    if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new InvalidDocumentException(
          "/escrow/binding/url", "must be an http(s) URL with a host");
    }
    if (allowedPrefixes.stream().noneMatch(url.asText()::startsWith)) {
      throw new InvalidDocumentException(
          "/escrow/binding/url",
          allowedPrefixes.isEmpty()
              ? "this server sends no payment webhooks: its operator has allowed no callback URL (use the ledger binding)"
              : "this server sends payment webhooks only to URLs starting with " + allowedPrefixes);
    }
    for (var field : binding.properties()) {
      if (!field.getKey().equals("type") && !field.getKey().equals("url")) {
        throw new InvalidDocumentException(
            "/escrow/binding/" + field.getKey(),
            "the http_callback binding takes type and url only");
      }
    }
  }

  @Override
  public Funded fund(Agreement a, ObjectNode body, Instant now) {
    if (body.size() > 0) {
      throw new InvalidDocumentException(
          "/" + body.fieldNames().next(),
          "funding an http_callback escrow takes no members besides amount and currency");
    }
    Money amount = a.terms().escrow().paymentTerms().orElseThrow().amount();
    ObjectNode data =
        data(
            a,
            "fund_request",
            amount,
            a.terms().parties().client(),
            null,
            "the client funded the agreement");
    return new Funded(
        List.of(message(a, "escrow.fund_requested", data, now)), Json.object().put("url", url(a)));
  }

  @Override
  public List<Write> settle(Agreement a, Settlement split, String reason, Instant now) {
    List<Write> writes = new ArrayList<>();
    var parties = a.terms().parties();
    if (split.released().amount().signum() > 0) {
      writes.add(
          message(
              a,
              "escrow.release",
              data(a, "release", split.released(), null, parties.provider(), reason),
              now));
    }
    if (split.refunded().amount().signum() > 0) {
      writes.add(
          message(
              a,
              "escrow.refund",
              data(a, "refund", split.refunded(), null, parties.client(), reason),
              now));
    }
    return writes;
  }

  private static ObjectNode data(
      Agreement a, String instruction, Money amount, Party from, Party to, String reason) {
    ObjectNode d = Json.object();
    d.put("agreement_id", a.id());
    d.put("agreement_hash", a.hash().toString());
    d.put("instruction", instruction);
    d.put("transfer_id", a.id() + "/" + instruction.replace("fund_request", "hold"));
    d.put("amount", amount.toWire());
    d.put("currency", amount.currency().code());
    if (from != null) d.set("from", party(from));
    if (to != null) d.set("to", party(to));
    d.put("reason", reason);
    return d;
  }

  private static ObjectNode party(Party p) {
    ObjectNode o = Json.object();
    o.put("role", p.role().wireName());
    o.put("identity", p.identity().value());
    p.key().ifPresent(k -> o.put("verification_key", k.toBase64Url()));
    return o;
  }

  private static Write message(Agreement a, String type, ObjectNode data, Instant now) {
    ObjectNode body = Json.object();
    body.put("type", type);
    body.put("timestamp", now.toString());
    body.set("data", data);
    String id = "msg_" + a.id() + "_" + type.substring(type.indexOf('.') + 1);
    return new Write.Enqueue(new OutboxMessage(id, a.id(), type, url(a), Json.write(body), now, 0));
  }

  private static String url(Agreement a) {
    return a.member("escrow").path("binding").path("url").asText();
  }
}
