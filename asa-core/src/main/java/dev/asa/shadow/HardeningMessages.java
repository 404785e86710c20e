package dev.asa.shadow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the provider may read during hardening ({@code GET /agreements/{id}/hardening}): one message
 * per failed criterion under an opaque id, and nothing else: no criterion ids, categories,
 * assertions, evidence, totals or scores.
 *
 * <p>The ids are HMAC-SHA256 of the criterion id keyed with the seal's nonce: stable across reads
 * and cycles (the provider can tell an issue that persists), but not derivable from the criterion
 * ids without the nonce, which stays secret until the reveal. Messages are listed in id order, so
 * their order does not leak the sealer's order either.
 *
 * <pre>
 * {"messages":[{"id":"f-3a9c0e1b7d52c4e8","message":"Edge case for empty input not addressed"}]}
 * </pre>
 */
public record HardeningMessages(List<Item> messages) {

  public record Item(String id, String message) {}

  public HardeningMessages {
    messages = List.copyOf(messages);
  }

  /** The messages of the failed (or undecided) criteria of {@code validation}. */
  public static HardeningMessages of(ShadowValidation validation, Nonce nonce) {
    List<Item> items = new ArrayList<>();
    for (CriterionResult r : validation.results()) {
      if (!r.passed()) {
        items.add(new Item(opaqueId(nonce, r.criterion().id()), r.criterion().message()));
      }
    }
    items.sort(Comparator.comparing(Item::id));
    return new HardeningMessages(items);
  }

  static String opaqueId(Nonce nonce, String criterionId) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(nonce.bytes(), "HmacSHA256"));
      byte[] tag =
          mac.doFinal(
              ("asa-shadow-hardening-v1\u0000" + criterionId).getBytes(StandardCharsets.UTF_8));
      return "f-" + HexFormat.of().formatHex(tag, 0, 8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform must provide HmacSHA256", e);
    }
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    ArrayNode a = o.putArray("messages");
    messages.forEach(m -> a.addObject().put("id", m.id()).put("message", m.message()));
    return o;
  }

  /** The seed's text form, for a provider that reads text. */
  public String toText() {
    StringBuilder s = new StringBuilder("SHADOW HARDENING - Fix these issues:\n");
    messages.forEach(
        m -> s.append("- [").append(m.id()).append("] ").append(m.message()).append('\n'));
    return s.toString();
  }
}
