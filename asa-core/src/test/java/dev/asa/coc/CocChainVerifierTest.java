package dev.asa.coc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CocChainVerifierTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final CocChainVerifier.Expectations NONE = CocChainVerifier.Expectations.none(NOW);
  private static final List<String> TYPES =
      CocChainVerifier.EVENT_TYPES.stream().filter(t -> !t.equals("genesis")).sorted().toList();

  @Test
  void aChainWrittenByTheReferenceVerifies() throws Exception {
    byte[] jsonl = reference();
    String first = new String(jsonl, StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    String genesisHash = Json.parse(first).path("entry_hash").asText();
    CocCheck check =
        CocChainVerifier.verifyJsonLines(
            new ByteArrayInputStream(jsonl), NONE.withGenesis(CocHashes.toDigest(genesisHash)));
    assertThat(check).isInstanceOf(CocCheck.Valid.class);
    CocSummary s = ((CocCheck.Valid) check).summary();
    assertThat(s.length()).isEqualTo(5);
    assertThat(s.genesis()).hasToString("sha256:" + genesisHash);
    assertThat(s.age()).isPositive();
  }

  @Test
  void anEditedReferenceEntryIsNamed() throws Exception {
    List<String> lines =
        new ArrayList<>(new String(reference(), StandardCharsets.UTF_8).lines().toList());
    lines.set(3, lines.get(3).replace("strategy A", "strategy B"));
    CocCheck check =
        CocChainVerifier.verifyJsonLines(
            new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)),
            NONE);
    assertThat(check)
        .isEqualTo(
            new CocCheck.Broken(new CocFailure(3, "data_hash", "is not the SHA-256 of data")));
  }

  /** Any one member of any one entry changed: refused, naming that entry. */
  @Test
  void oneAlteredEntryIsNamedWhateverIsAltered() {
    long seed = Long.getLong("coc.seed", new Random().nextLong()); // -Dcoc.seed=N replays a run
    System.out.println("CocChainVerifierTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      List<CocEntry> chain = chain(random, 1 + random.nextInt(30), null);
      assertThat(CocChainVerifier.verify(chain, NONE))
          .as("seed %d round %d", seed, round)
          .isInstanceOf(CocCheck.Valid.class);
      int k = random.nextInt(chain.size());
      CocEntry e = chain.get(k);
      String member =
          List.of("seq", "ts", "type", "agent", "data", "data_hash", "prev_hash", "entry_hash")
              .get(random.nextInt(8));
      CocEntry altered =
          switch (member) {
            case "seq" -> copy(e, e.seq() + 1 + random.nextInt(3), null, null, null, null);
            case "ts" ->
                copy(
                    e,
                    -1,
                    java.time.OffsetDateTime.parse(e.ts()).toInstant().minusSeconds(1).toString(),
                    null,
                    null,
                    null);
            case "type" -> copy(e, -1, null, k == 0 ? "boot" : "genesis", null, null);
            case "agent" -> copy(e, -1, null, null, e.agent() + "|x", null);
            case "data" -> copy(e, -1, null, null, null, e.data() + " ");
            case "data_hash" -> withHashes(e, CocHashes.sha256Hex("x"), null, null);
            case "prev_hash" -> withHashes(e, null, CocHashes.sha256Hex("y"), null);
            default -> withHashes(e, null, null, CocHashes.sha256Hex("z"));
          };
      chain.set(k, altered);
      CocCheck check = CocChainVerifier.verify(chain, NONE);
      assertThat(check)
          .as("seed %d round %d %s of %d", seed, round, member, k)
          .isInstanceOf(CocCheck.Broken.class);
      assertThat(((CocCheck.Broken) check).failure().index())
          .as("seed %d round %d %s of %d", seed, round, member, k)
          .isEqualTo(k);
    }
  }

  /**
   * An entry rewritten with its own hashes recomputed (a rewritten history) breaks the link of the
   * entry after it; the last one rewritten is caught by the prefix recorded earlier.
   */
  @Test
  void aRewrittenHistoryIsCaughtByTheNextLinkOrTheRecordedPrefix() {
    long seed = Long.getLong("coc.seed", new Random().nextLong()); // -Dcoc.seed=N replays a run
    System.out.println("CocChainVerifierTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      List<CocEntry> chain = chain(random, 2 + random.nextInt(20), null);
      CocSummary recorded = ((CocCheck.Valid) CocChainVerifier.verify(chain, NONE)).summary();
      var prefix = new CocChainVerifier.Prefix(recorded.length(), recorded.head());
      int k = 1 + random.nextInt(chain.size() - 1);
      CocEntry old = chain.get(k);
      chain.set(k, CocEntry.next(chain.get(k - 1), old.ts(), old.type(), old.agent(), "rewritten"));
      CocCheck check = CocChainVerifier.verify(chain, NONE.withPrefix(prefix));
      assertThat(check).isInstanceOf(CocCheck.Broken.class);
      CocFailure f = ((CocCheck.Broken) check).failure();
      if (k == chain.size() - 1) {
        assertThat(f)
            .isEqualTo(
                new CocFailure(
                    k,
                    "entry_hash",
                    "differs from the entry recorded at this place earlier: the chain's history"
                        + " changed"));
      } else {
        assertThat(f.index()).as("seed %d round %d", seed, round).isEqualTo(k + 1);
        assertThat(f.member()).isEqualTo("prev_hash");
      }
    }
  }

  @Test
  void aGrownChainKeepsItsRecordedPrefixAndAShorterOneIsRefused() {
    Random random = new Random(7);
    List<CocEntry> chain = chain(random, 5, null);
    CocSummary s = ((CocCheck.Valid) CocChainVerifier.verify(chain, NONE)).summary();
    var prefix = new CocChainVerifier.Prefix(s.length(), s.head());
    chain.add(CocEntry.next(chain.getLast(), "2029-01-01T00:00:00Z", "note", "a", "later"));
    CocCheck grown = CocChainVerifier.verify(chain, NONE.withPrefix(prefix));
    assertThat(((CocCheck.Valid) grown).summary().length()).isEqualTo(6);
    CocCheck shorter = CocChainVerifier.verify(chain.subList(0, 4), NONE.withPrefix(prefix));
    assertThat(((CocCheck.Broken) shorter).failure().index()).isEqualTo(4);
  }

  @Test
  void aForkIsNamedAtTheSecondBranch() {
    List<CocEntry> chain = chain(new Random(3), 6, null);
    // A second entry 3, on the same entry 2: two histories from one point.
    CocEntry branch =
        CocEntry.next(chain.get(2), chain.get(3).ts(), "decide", "agent", "the other branch");
    chain.add(4, branch);
    CocFailure f = ((CocCheck.Broken) CocChainVerifier.verify(chain, NONE)).failure();
    assertThat(f.index()).isEqualTo(4);
    assertThat(f.member()).isEqualTo("seq");
    assertThat(f.pointer("/parties/provider/identity/chain"))
        .isEqualTo("/parties/provider/identity/chain/4/seq");
  }

  @Test
  void aGenesisThatIsNotTheIdentitysIsRefusedAtEntryZero() {
    List<CocEntry> chain = chain(new Random(5), 3, null);
    CocFailure f =
        ((CocCheck.Broken)
                CocChainVerifier.verify(
                    chain, NONE.withGenesis(CocHashes.toDigest(CocHashes.sha256Hex("other")))))
            .failure();
    assertThat(f.index()).isZero();
    assertThat(f.member()).isEqualTo("entry_hash");
  }

  @Test
  void signaturesAreCheckedAgainstTheChainKey() {
    Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(new byte[32]);
    List<CocEntry> chain = chain(new Random(11), 4, key);
    assertThat(CocChainVerifier.verify(chain, NONE.withKey(key.publicKey())))
        .isInstanceOf(CocCheck.Valid.class);
    Ed25519PrivateKey other =
        Ed25519PrivateKey.fromSeed(
            new byte[] {
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
              17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
            });
    CocFailure wrong =
        ((CocCheck.Broken) CocChainVerifier.verify(chain, NONE.withKey(other.publicKey())))
            .failure();
    assertThat(wrong.index()).isZero();
    assertThat(wrong.member()).isEqualTo("signature");
    List<CocEntry> unsigned = new ArrayList<>(chain);
    unsigned.set(2, chain.get(2).withSignature(null));
    CocFailure missing =
        ((CocCheck.Broken) CocChainVerifier.verify(unsigned, NONE.withKey(key.publicKey())))
            .failure();
    assertThat(missing)
        .extracting(CocFailure::index, CocFailure::member)
        .containsExactly(2L, "signature");
    // Without a key a signature cannot be checked, as in the reference: the chain verifies.
    assertThat(CocChainVerifier.verify(unsigned, NONE)).isInstanceOf(CocCheck.Valid.class);
  }

  @Test
  void anchorEntriesHoldingTheExpectedDataAreFound() {
    List<CocEntry> chain = chain(new Random(13), 3, null);
    String data = "{\"format\":\"asa-anchor/1\"}";
    chain.add(CocEntry.next(chain.getLast(), "2029-06-01T00:00:00Z", "anchor", "a", data));
    chain.add(CocEntry.next(chain.getLast(), "2029-06-01T00:00:01Z", "note", "a", data));
    CocCheck.Valid v =
        (CocCheck.Valid) CocChainVerifier.verify(chain, NONE.withAnchorData(Set.of(data)));
    assertThat(v.anchors()).containsExactly(3L);
  }

  @Test
  void jsonLinesThatAreNotEntriesAreNamedByLine() {
    List<CocEntry> chain = chain(new Random(17), 3, null);
    StringBuilder text = new StringBuilder();
    chain.forEach(e -> text.append(Json.write(e.toJson())).append("\n\n"));
    text.append("{not json\n");
    CocFailure f = ((CocCheck.Broken) lines(text.toString())).failure();
    assertThat(f.index()).isEqualTo(3);
    CocFailure wrongType =
        ((CocCheck.Broken)
                lines(Json.write(chain.getFirst().toJson()).replace("\"seq\":0", "\"seq\":\"0\"")))
            .failure();
    assertThat(wrongType)
        .extracting(CocFailure::index, CocFailure::member)
        .containsExactly(0L, "seq");
    assertThat(((CocCheck.Broken) lines("")).failure().index()).isEqualTo(-1);
  }

  @Test
  void anInlineArrayIsVerifiedAsTheLinesAre() {
    List<CocEntry> chain = chain(new Random(19), 4, null);
    ArrayNode array = Json.mapper().createArrayNode();
    chain.forEach(e -> array.add(e.toJson()));
    assertThat(CocChainVerifier.verifyArray(array, NONE)).isInstanceOf(CocCheck.Valid.class);
    ((com.fasterxml.jackson.databind.node.ObjectNode) array.get(2)).put("agent", "mallory");
    CocFailure f = ((CocCheck.Broken) CocChainVerifier.verifyArray(array, NONE)).failure();
    assertThat(f.pointer("/chain")).isEqualTo("/chain/2/entry_hash");
  }

  @Test
  void hashesCrossTheBoundaryByPrefixNotByRehashing() {
    String hex = CocHashes.sha256Hex("abc");
    assertThat(hex).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(CocHashes.toDigest(hex)).hasToString("sha256:" + hex);
    assertThat(CocHashes.fromDigest(CocHashes.toDigest(hex))).isEqualTo(hex);
  }

  // ---- helpers --------------------------------------------------------------------------------

  static List<CocEntry> chain(Random random, int length, Ed25519PrivateKey key) {
    List<CocEntry> chain = new ArrayList<>();
    Instant at = Instant.parse("2025-01-01T00:00:00Z");
    CocEntry prev = null;
    for (int i = 0; i < length; i++) {
      at = at.plusSeconds(1 + random.nextInt(86_400));
      String ts =
          random.nextBoolean()
              ? at.toString()
              : at.atOffset(java.time.ZoneOffset.UTC).toString().replace("Z", "+00:00");
      String type = i == 0 ? "genesis" : TYPES.get(random.nextInt(TYPES.size()));
      String data = "entry " + i + " " + randomText(random);
      CocEntry e = CocEntry.next(prev, ts, type, "agent-" + random.nextInt(3), data);
      if (key != null) {
        e =
            e.withSignature(
                HexFormat.of()
                    .formatHex(key.sign(e.entryHash().getBytes(StandardCharsets.UTF_8)).bytes()));
      }
      chain.add(e);
      prev = e;
    }
    return chain;
  }

  private static String randomText(Random random) {
    String alphabet = "abc |\"\\é😀\n\t{}";
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      s.appendCodePoint(
          alphabet.codePoints()
              .toArray()[random.nextInt(alphabet.codePointCount(0, alphabet.length()))]);
    }
    return s.toString();
  }

  private static CocEntry copy(
      CocEntry e, long seq, String ts, String type, String agent, String data) {
    return new CocEntry(
        seq < 0 ? e.seq() : seq,
        ts == null ? e.ts() : ts,
        type == null ? e.type() : type,
        agent == null ? e.agent() : agent,
        data == null ? e.data() : data,
        e.dataHash(),
        e.prevHash(),
        e.entryHash(),
        e.signature());
  }

  private static CocEntry withHashes(CocEntry e, String data, String prev, String entry) {
    return new CocEntry(
        e.seq(),
        e.ts(),
        e.type(),
        e.agent(),
        e.data(),
        data == null ? e.dataHash() : data,
        prev == null ? e.prevHash() : prev,
        entry == null ? e.entryHash() : entry,
        e.signature());
  }

  private static CocCheck lines(String text) {
    try {
      return CocChainVerifier.verifyJsonLines(
          new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), NONE);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  static byte[] reference() throws Exception {
    try (InputStream in =
        CocChainVerifierTest.class.getResourceAsStream("/dev/asa/coc/reference-chain.jsonl")) {
      return in.readAllBytes();
    }
  }
}
