package dev.asa.server.reputation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.reputation.SignedSignals;
import dev.asa.server.escrow.Courier;
import dev.asa.server.store.escrow.OutboxMessage;
import java.time.Clock;

/**
 * Pushes an identity's signals to the ARP endpoint: the outbox message names the subject and role
 * ({@link ReputationFeed}); this courier computes and signs the signals as they are at the moment
 * of sending and hands the result to the webhook courier, which signs the request as every webhook
 * is signed (Standard Webhooks, the server's key) and reports how it went. The message id is kept,
 * so a receiver deduplicates retries as it does any webhook's.
 */
public final class ArpCourier implements Courier {

  private final Reputation reputation;
  private final Ed25519PrivateKey serverKey;
  private final Courier webhooks;
  private final Clock clock;

  public ArpCourier(
      Reputation reputation, Ed25519PrivateKey serverKey, Courier webhooks, Clock clock) {
    this.reputation = reputation;
    this.serverKey = serverKey;
    this.webhooks = webhooks;
    this.clock = clock;
  }

  @Override
  public Attempt deliver(OutboxMessage message) {
    JsonNode subject = Json.parseTrusted(message.body());
    Identity identity =
        new Identity(
            subject.path("identity").path("scheme").asText(),
            subject.path("identity").path("value").asText(),
            null);
    Role role = Role.fromWire(subject.path("role").asText());
    ObjectNode body = Json.object();
    body.put("type", ReputationFeed.KIND);
    body.put("timestamp", clock.instant().toString());
    ObjectNode data = body.putObject("data");
    data.putObject("identity").put("scheme", identity.scheme()).put("value", identity.value());
    data.put("role", role.wireName());
    ArrayNode signals = data.putArray("signals");
    reputation.local(identity, role).forEach(s -> signals.add(SignedSignals.sign(s, serverKey)));
    return webhooks.deliver(
        new OutboxMessage(
            message.id(),
            message.agreementId(),
            message.kind(),
            message.destination(),
            Json.write(body),
            message.createdAt(),
            message.attempts()));
  }
}
