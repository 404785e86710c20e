package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Money;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.scoring.Release;
import dev.asa.scoring.Settlement;
import dev.asa.server.store.Write;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The link to a payment rail (section 8.1), chosen by {@code escrow.binding.type}. Every binding's
 * money is also booked in the server's double-entry ledger (so {@code GET /agreements/{id}/escrow}
 * shows where it stands whatever the rail); a binding adds what its rail needs: messages to a
 * payment system, a captured authorization. Bindings only return writes: the caller commits them in
 * the same transaction as the agreement's change, so money and state never disagree.
 */
public interface EscrowBinding {

  /** The {@code escrow.binding.type} this binding handles. */
  String type();

  /**
   * Refuses, at creation, binding members this server cannot honour (InvalidDocumentException
   * naming the field).
   */
  void check(JsonNode binding, Money amount);

  /**
   * Why this escrow can release only all of its amount or none of it, if so (an x402 {@code exact}
   * authorization moves its whole value or nothing); empty when any share can be released. The
   * caller then refuses terms, and rulings, that could release a part.
   */
  default Optional<String> wholeReleasesOnly(JsonNode binding) {
    return Optional.empty();
  }

  /**
   * Refuses, at creation, release terms this rail cannot pay exactly (InvalidDocumentException
   * naming the field); asked of a binding with no {@link #wholeReleasesOnly} reason, when the
   * escrow holds money.
   */
  default void checkReleases(Agreement agreement) {}

  /**
   * Refuses a ruling's release percentage this rail cannot pay exactly (InvalidDocumentException,
   * pointer {@code /release_percent}, the ruling's own field): an ERC-8183 escrow releases sums of
   * whole jobs only.
   */
  default void checkRuling(Agreement agreement, BigDecimal percent) {}

  /**
   * How a held escrow of {@code amount} is divided for {@code percent}: {@link Release#split}
   * unless the rail pays in coarser steps, whose released share is then what the rail really moves
   * (so the ledger and the rail never disagree).
   */
  default Settlement split(Agreement agreement, Money amount, BigDecimal percent) {
    return Release.split(amount, percent);
  }

  /**
   * What funding adds to the ledger's transfers: writes and facts for the agreement's {@code
   * escrow} metadata.
   *
   * @param body the client's {@code POST /agreements/{id}/fund} body (validated by the caller: an
   *     object)
   */
  Funded fund(Agreement agreement, ObjectNode body, Instant now);

  /**
   * Whether this rail can hold a provider's collateral ({@code escrow.collateral}) beside the
   * escrow, and slash it to the client or return it. Only the ledger can today: the other rails
   * move the client's money alone (an x402 authorization is the client's, ERC-8183 jobs hold the
   * client's budget only), so terms with a collateral on them are refused at creation.
   */
  default boolean holdsCollateral() {
    return false;
  }

  /**
   * Refuses a {@code POST /agreements/{id}/collateral} body this rail cannot take
   * (InvalidDocumentException naming the member); asked only of a binding that {@link
   * #holdsCollateral}.
   *
   * @param body the provider's body (validated by the caller: an object)
   */
  default void checkStake(ObjectNode body) {}

  /**
   * Refuses a first delivery the rail does not show yet (an ERC-8183 provider submits on chain
   * itself): {@link ChainNotReadyException}, or InvalidDocumentException when it shows another one.
   */
  default void checkDelivery(Agreement agreement, Digest contentHash) {}

  /** What moving the held money adds to the ledger's release and refund transfers. */
  List<Write> settle(Agreement agreement, Settlement split, String reason, Instant now);

  /**
   * What a client needs to know to fund through this binding (shown in the escrow view), or null.
   */
  default ObjectNode describe(Agreement agreement) {
    return null;
  }

  /** A binding's contribution to a funding. */
  record Funded(List<Write> writes, ObjectNode facts) {
    public Funded {
      writes = List.copyOf(writes);
    }
  }
}
