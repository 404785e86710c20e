package dev.asa.coc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Verifies a CoC chain one entry at a time, as the reference's {@code verify_chain} does, and a
 * little more; it keeps only the previous entry, so memory does not grow with the chain.
 *
 * <p>Per entry, in the reference's order: {@code seq} is the entry's index; {@code data_hash} is
 * the SHA-256 of {@code data}; {@code prev_hash} is the previous entry's {@code entry_hash} (64
 * zeros for the genesis); {@code entry_hash} is the SHA-256 of the bar-joined hashed members. Also
 * checked here, which the reference leaves to its writer: {@code ts} is an ISO-8601 timestamp with
 * an offset, never earlier than the previous entry's and never after {@code notAfter}; {@code type}
 * is one of the reference's event types and {@code genesis} exactly at index 0. With a chain key,
 * every entry must carry a valid Ed25519 signature of its {@code entry_hash}.
 *
 * <p>What the caller expects is checked on the way: the genesis hash (the identity), a prefix
 * recorded earlier (the entry at {@code length - 1} must still have the recorded hash: the chain
 * may have grown, its past may not change), and anchor data to look for. A prev_hash that does not
 * follow is a fork or an edited history; it is named by index and member.
 */
public final class CocChainVerifier {

  /** The reference's event types (its {@code VALID_EVENT_TYPES}). */
  public static final Set<String> EVENT_TYPES =
      Set.of(
          "genesis",
          "boot",
          "learn",
          "decide",
          "create",
          "milestone",
          "rotate",
          "anchor",
          "error",
          "note",
          "session_start",
          "session_end",
          "compaction",
          "governance");

  /** A prefix recorded earlier: the chain's length then and its last entry's hash. */
  public record Prefix(long length, Digest head) {
    public Prefix {
      Objects.requireNonNull(head, "head");
      if (length < 1) {
        throw new IllegalArgumentException("a recorded prefix has at least the genesis");
      }
    }
  }

  /**
   * What the caller knows beforehand; every part but {@code notAfter} is optional (null or empty).
   *
   * @param genesis the identity's genesis hash
   * @param key the key every entry must be signed with
   * @param prefix what an earlier verification recorded
   * @param anchorData {@code data} of {@code anchor} entries to look for
   * @param notAfter the latest timestamp an entry may carry (now, plus the clock skew allowed)
   */
  public record Expectations(
      Digest genesis,
      Ed25519PublicKey key,
      Prefix prefix,
      Set<String> anchorData,
      Instant notAfter) {
    public Expectations {
      anchorData = anchorData == null ? Set.of() : Set.copyOf(anchorData);
      Objects.requireNonNull(notAfter, "notAfter");
    }

    public static Expectations none(Instant notAfter) {
      return new Expectations(null, null, null, Set.of(), notAfter);
    }

    public Expectations withGenesis(Digest g) {
      return new Expectations(g, key, prefix, anchorData, notAfter);
    }

    public Expectations withKey(Ed25519PublicKey k) {
      return new Expectations(genesis, k, prefix, anchorData, notAfter);
    }

    public Expectations withPrefix(Prefix p) {
      return new Expectations(genesis, key, p, anchorData, notAfter);
    }

    public Expectations withAnchorData(Set<String> data) {
      return new Expectations(genesis, key, prefix, data, notAfter);
    }
  }

  private static final HexFormat HEX = HexFormat.of();

  private final Expectations expected;
  private long count;
  private CocEntry previous;
  private Instant previousAt;
  private CocEntry genesis;
  private Instant genesisAt;
  private CocFailure failure;
  private final List<Long> anchors = new ArrayList<>();

  public CocChainVerifier(Expectations expected) {
    this.expected = Objects.requireNonNull(expected, "expected");
  }

  /** Verifies a whole chain held in memory (a chain sent inline is bounded by the body limit). */
  public static CocCheck verify(Iterable<CocEntry> chain, Expectations expected) {
    CocChainVerifier v = new CocChainVerifier(expected);
    for (CocEntry e : chain) {
      if (!v.accept(e)) {
        break;
      }
    }
    return v.finish();
  }

  /** Verifies a chain given as a JSON array of entries (as the reference's {@code export}). */
  public static CocCheck verifyArray(JsonNode array, Expectations expected) {
    if (array == null || !array.isArray()) {
      return new CocCheck.Broken(new CocFailure(-1, null, "the chain must be an array of entries"));
    }
    CocChainVerifier v = new CocChainVerifier(expected);
    for (int i = 0; i < array.size(); i++) {
      if (!v.acceptJson(array.get(i))) {
        break;
      }
    }
    return v.finish();
  }

  /**
   * Verifies a chain as JSON Lines (the reference's storage: one entry a line, blank lines
   * skipped), reading as it goes: only the line at hand is held. The caller bounds the bytes.
   */
  public static CocCheck verifyJsonLines(InputStream in, Expectations expected) throws IOException {
    CocChainVerifier v = new CocChainVerifier(expected);
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, decoder))) {
      for (String line = readLine(lines, v); line != null; line = readLine(lines, v)) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = Json.parse(line);
        } catch (JsonProcessingException e) {
          v.fail(new CocFailure(v.count, null, "the line is not a JSON object"));
          break;
        }
        if (!v.acceptJson(node)) {
          break;
        }
      }
    } catch (java.nio.charset.CharacterCodingException e) {
      v.fail(new CocFailure(v.count, null, "the line is not UTF-8"));
    }
    return v.finish();
  }

  private static String readLine(BufferedReader lines, CocChainVerifier v) throws IOException {
    return v.failure == null ? lines.readLine() : null;
  }

  private boolean acceptJson(JsonNode node) {
    CocEntry entry;
    try {
      entry = CocEntry.fromJson(node, count);
    } catch (CocFormatException e) {
      return fail(e.failure());
    }
    return accept(entry);
  }

  /** Checks the next entry; false once the chain is broken (the rest need not be read). */
  public boolean accept(CocEntry e) {
    if (failure != null) {
      return false;
    }
    long i = count;
    if (e.seq() != i) {
      return fail(
          i,
          "seq",
          "expected sequence "
              + i
              + ", found "
              + e.seq()
              + (e.seq() < i ? " (a second entry at an earlier place: a fork)" : ""));
    }
    Instant at;
    try {
      at = OffsetDateTime.parse(e.ts()).toInstant();
    } catch (DateTimeParseException ex) {
      return fail(i, "ts", "not an ISO-8601 timestamp with an offset");
    }
    if (previousAt != null && at.isBefore(previousAt)) {
      return fail(i, "ts", "earlier than the previous entry's timestamp");
    }
    if (at.isAfter(expected.notAfter())) {
      return fail(i, "ts", "in the future");
    }
    if (!EVENT_TYPES.contains(e.type())) {
      return fail(i, "type", "not a CoC event type");
    }
    if (i == 0 != e.type().equals("genesis")) {
      return fail(
          i, "type", i == 0 ? "the first entry must be the genesis" : "a second genesis entry");
    }
    if (!CocHashes.isHash(e.dataHash()) || !e.dataHash().equals(e.expectedDataHash())) {
      return fail(i, "data_hash", "is not the SHA-256 of data");
    }
    String expectedPrev = i == 0 ? CocHashes.ZERO : previous.entryHash();
    if (!e.prevHash().equals(expectedPrev)) {
      return fail(
          i,
          "prev_hash",
          i == 0
              ? "a genesis entry's prev_hash is 64 zeros"
              : "is not the entry_hash of entry "
                  + (i - 1)
                  + ": the chain forks or its history was edited here");
    }
    if (!CocHashes.isHash(e.entryHash()) || !e.entryHash().equals(e.expectedEntryHash())) {
      return fail(i, "entry_hash", "is not the SHA-256 of the entry's hashed members");
    }
    if (e.signature() != null || expected.key() != null) {
      Ed25519Signature sig = signature(e.signature());
      if (sig == null) {
        return fail(
            i,
            "signature",
            e.signature() == null
                ? "missing: the identity names a chain key, so every entry is signed"
                : "not a hex Ed25519 signature (64 bytes)");
      }
      if (expected.key() != null
          && !expected.key().verify(e.entryHash().getBytes(StandardCharsets.UTF_8), sig)) {
        return fail(i, "signature", "does not verify with the identity's chain key");
      }
    }
    if (i == 0 && expected.genesis() != null) {
      if (!CocHashes.toDigest(e.entryHash()).equals(expected.genesis())) {
        return fail(
            0,
            "entry_hash",
            "the chain's genesis is not the identity's (" + expected.genesis() + ")");
      }
    }
    Prefix prefix = expected.prefix();
    if (prefix != null && i == prefix.length() - 1) {
      if (!CocHashes.toDigest(e.entryHash()).equals(prefix.head())) {
        return fail(
            i,
            "entry_hash",
            "differs from the entry recorded at this place earlier: the chain's history changed");
      }
    }
    if (e.type().equals("anchor") && expected.anchorData().contains(e.data())) {
      anchors.add(i);
    }
    if (i == 0) {
      genesis = e;
      genesisAt = at;
    }
    previous = e;
    previousAt = at;
    count++;
    return true;
  }

  /** The verdict on what was accepted. */
  public CocCheck finish() {
    if (failure != null) {
      return new CocCheck.Broken(failure);
    }
    if (count == 0) {
      return new CocCheck.Broken(new CocFailure(-1, null, "the chain is empty"));
    }
    Prefix prefix = expected.prefix();
    if (prefix != null && count < prefix.length()) {
      return new CocCheck.Broken(
          new CocFailure(
              count,
              null,
              "the chain ends before the "
                  + prefix.length()
                  + " entries recorded earlier: entries were removed"));
    }
    return new CocCheck.Valid(
        new CocSummary(
            count,
            CocHashes.toDigest(genesis.entryHash()),
            CocHashes.toDigest(previous.entryHash()),
            genesisAt,
            previousAt),
        anchors);
  }

  private static Ed25519Signature signature(String hex) {
    if (hex == null || hex.length() != 2 * Ed25519Signature.LENGTH) {
      return null;
    }
    try {
      return new Ed25519Signature(HEX.parseHex(hex));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private boolean fail(long index, String member, String reason) {
    return fail(new CocFailure(index, member, reason));
  }

  private boolean fail(CocFailure f) {
    if (failure == null) {
      failure = f;
    }
    return false;
  }
}
