package dev.asa.coc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.Objects;

/**
 * One entry of a CoC chain, as the reference implementation writes it (one JSON object per line):
 * the members that its hashes cover, and the optional Ed25519 signature of its {@code entry_hash}.
 * Other members the reference may write ({@code schema_version}, {@code commitment}, {@code
 * verification}, {@code commitment_match}) are covered by no hash; they are read past and ignored.
 *
 * @param signature hex Ed25519 signature over the UTF-8 bytes of {@code entryHash}, or null
 */
public record CocEntry(
    long seq,
    String ts,
    String type,
    String agent,
    String data,
    String dataHash,
    String prevHash,
    String entryHash,
    String signature) {

  public CocEntry {
    Objects.requireNonNull(ts, "ts");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(dataHash, "dataHash");
    Objects.requireNonNull(prevHash, "prevHash");
    Objects.requireNonNull(entryHash, "entryHash");
  }

  /**
   * What the reference hashes into {@code entry_hash}: {@code
   * seq|ts|type|agent|data_hash|prev_hash} joined by bars. Not injective in general (an agent may
   * contain a bar), but the verifier only accepts a {@code ts} that is a timestamp and a {@code
   * type} from a fixed list, and the two hashes are fixed-length hex, so only {@code agent} is free
   * and the split is unique.
   */
  public String hashedPayload() {
    return seq + "|" + ts + "|" + type + "|" + agent + "|" + dataHash + "|" + prevHash;
  }

  /** The {@code data_hash} the data should have. */
  public String expectedDataHash() {
    return CocHashes.sha256Hex(data);
  }

  /** The {@code entry_hash} the hashed members should have. */
  public String expectedEntryHash() {
    return CocHashes.sha256Hex(hashedPayload());
  }

  /**
   * A new entry after {@code previous} (null for a genesis), with its hashes computed as the
   * reference does. For tests and for parties building their chain with this library.
   */
  public static CocEntry next(
      CocEntry previous, String ts, String type, String agent, String data) {
    long seq = previous == null ? 0 : previous.seq + 1;
    String prev = previous == null ? CocHashes.ZERO : previous.entryHash;
    String dataHash = CocHashes.sha256Hex(data);
    CocEntry unhashed = new CocEntry(seq, ts, type, agent, data, dataHash, prev, "", null);
    return unhashed.withEntryHash(unhashed.expectedEntryHash());
  }

  public CocEntry withEntryHash(String hash) {
    return new CocEntry(seq, ts, type, agent, data, dataHash, prevHash, hash, signature);
  }

  public CocEntry withSignature(String hexSignature) {
    return new CocEntry(seq, ts, type, agent, data, dataHash, prevHash, entryHash, hexSignature);
  }

  /** The entry as the reference writes it on its line (members in its order). */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("seq", seq);
    o.put("ts", ts);
    o.put("type", type);
    o.put("agent", agent);
    o.put("data", data);
    o.put("data_hash", dataHash);
    o.put("prev_hash", prevHash);
    o.put("entry_hash", entryHash);
    o.put("schema_version", "1.1");
    if (signature != null) {
      o.put("signature", signature);
    }
    return o;
  }

  /**
   * Reads one entry; {@code index} is its place in the chain, for the failure.
   *
   * @throws CocFormatException a member missing or of the wrong type
   */
  public static CocEntry fromJson(JsonNode node, long index) {
    if (node == null || !node.isObject()) {
      throw new CocFormatException(new CocFailure(index, null, "an entry must be a JSON object"));
    }
    JsonNode seq = node.get("seq");
    if (seq == null || !seq.isIntegralNumber() || !seq.canConvertToLong() || seq.asLong() < 0) {
      throw new CocFormatException(
          new CocFailure(index, "seq", "seq must be a non-negative integer"));
    }
    JsonNode signature = node.get("signature");
    if (signature != null && !signature.isNull() && !signature.isTextual()) {
      throw new CocFormatException(
          new CocFailure(index, "signature", "signature must be a hex string or null"));
    }
    return new CocEntry(
        seq.asLong(),
        text(node, "ts", index),
        text(node, "type", index),
        text(node, "agent", index),
        text(node, "data", index),
        text(node, "data_hash", index),
        text(node, "prev_hash", index),
        text(node, "entry_hash", index),
        signature == null || signature.isNull() ? null : signature.asText());
  }

  private static String text(JsonNode node, String member, long index) {
    JsonNode v = node.get(member);
    if (v == null || !v.isTextual()) {
      throw new CocFormatException(new CocFailure(index, member, member + " must be a string"));
    }
    String s = v.asText();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      // A lone surrogate has no UTF-8 form: the reference (Python) cannot hash it, so no hash of
      // ours over it could match theirs.
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        throw lone(member, index);
      }
      if (Character.isLowSurrogate(c)) {
        throw lone(member, index);
      }
    }
    return s;
  }

  private static CocFormatException lone(String member, long index) {
    return new CocFormatException(
        new CocFailure(index, member, member + " holds a lone surrogate, which has no UTF-8 form"));
  }
}
