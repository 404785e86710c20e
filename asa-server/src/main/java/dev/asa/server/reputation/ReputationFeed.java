package dev.asa.server.reputation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.reputation.Outcome;
import dev.asa.reputation.Outcomes;
import dev.asa.server.store.Write;
import dev.asa.server.store.escrow.OutboxMessage;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an agreement's end writes for reputation, in the same transaction as the end itself: one
 * outcome per role it contributes ({@link Outcomes}), and, with {@code --arp-endpoint}, an outbox
 * message per party whose aggregates changed. The message names only the subject; the signals are
 * computed and signed when it is sent ({@link ArpCourier}), so a retry an hour later pushes the
 * figures as they are then, never stale ones, and two agreements ending at once cannot push figures
 * that miss either.
 */
public final class ReputationFeed {

  /** The outbox message kind of an ARP push. */
  public static final String KIND = "arp.signals";

  /** Records outcomes, pushes nothing. */
  public static final ReputationFeed LOCAL = new ReputationFeed(null);

  private final URI endpoint;

  /**
   * @param endpoint where changed aggregates are pushed ({@code --arp-endpoint}); null for none
   */
  public ReputationFeed(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** The writes that record {@code ended}'s outcomes (none for a {@code parties} agreement). */
  public List<Write> ended(Agreement ended, Instant now) {
    List<Write> writes = new ArrayList<>();
    for (Outcome o : Outcomes.of(ended, now)) {
      writes.add(new Write.PutOutcome(o));
      if (endpoint != null) {
        ObjectNode subject = Json.object();
        subject
            .putObject("identity")
            .put("scheme", o.identity().scheme())
            .put("value", o.identity().value());
        subject.put("role", o.role().wireName());
        writes.add(
            new Write.Enqueue(
                new OutboxMessage(
                    "msg_arp_" + ended.id() + "_" + o.role().wireName(),
                    ended.id(),
                    KIND,
                    endpoint.toString(),
                    Json.write(subject),
                    now,
                    0)));
      }
    }
    return writes;
  }
}
