package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.agreement.StrictJson;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.Settlement;
import dev.asa.server.store.Write;
import java.time.Instant;
import java.util.List;

/**
 * The default binding: the server's own ledger is the payment system; its transfers are the money.
 */
final class LedgerBinding implements EscrowBinding {

  @Override
  public String type() {
    return "ledger";
  }

  @Override
  public void check(JsonNode binding, Money amount) {
    for (var field : binding.properties()) {
      if (!field.getKey().equals("type")) {
        throw new InvalidDocumentException(
            "/escrow/binding/" + field.getKey(),
            "the ledger binding takes no members besides type");
      }
    }
  }

  @Override
  public Funded fund(Agreement agreement, ObjectNode body, Instant now) {
    if (body.size() > 0) {
      throw new InvalidDocumentException(
          "/" + body.fieldNames().next(),
          "funding a ledger escrow takes no members besides amount and currency");
    }
    return new Funded(List.of(), Json.object());
  }

  /** The ledger holds a collateral as it holds the escrow: in an account of the agreement's. */
  @Override
  public boolean holdsCollateral() {
    return true;
  }

  @Override
  public void checkStake(ObjectNode body) {
    if (body.size() > 0) {
      throw new InvalidDocumentException(
          StrictJson.child("", body.fieldNames().next()),
          "staking a collateral on a ledger escrow takes no members: send {} or no body");
    }
  }

  @Override
  public List<Write> settle(Agreement agreement, Settlement split, String reason, Instant now) {
    return List.of();
  }
}
