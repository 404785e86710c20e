package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.db.PackedText.Dictionary;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The packed form of stored JSON: lossless, readable across versions, and frozen. */
class PackedTextTest {

  @Test
  void everyTextComesBackAsItWent() {
    Random random = new Random(19);
    for (int i = 0; i < 2_000; i++) {
      String text = randomText(random, random.nextInt(i < 1_000 ? 40 : 6_000));
      for (Dictionary d : Dictionary.values()) {
        assertThat(PackedText.unpack(PackedText.pack(text, d))).isEqualTo(text);
      }
    }
    assertThat(PackedText.pack(null, Dictionary.VOCABULARY)).isNull();
    assertThat(PackedText.unpack(null)).isNull();
  }

  @Test
  void aSha256DigestIsKeptAsItsBytesAndAnythingElseAsItIs() {
    String digest = "sha256:" + "0123456789abcdef".repeat(4);
    byte[] packed = PackedDigest.pack(digest);
    assertThat(packed).hasSize(33);
    assertThat(PackedDigest.unpack(packed)).isEqualTo(digest);
    for (String other :
        new String[] {
          "sha256:" + "0123456789ABCDEF".repeat(4), // upper case would not come back as written
          "sha256:0",
          "sha256:" + "0123456789abcdeg".repeat(4), // not hex
          "sha256:" + "/:`g".repeat(16), // each just beside a hex digit's range
          "sha256:" + "0".repeat(65),
          "sha257:" + "0".repeat(64),
          "sha512:" + "ab".repeat(64),
          "x".repeat(33),
          ""
        }) {
      assertThat(PackedDigest.unpack(PackedDigest.pack(other))).isEqualTo(other);
    }
    assertThat(PackedDigest.pack(null)).isNull();
    assertThat(PackedDigest.unpack(null)).isNull();
  }

  @Test
  void textStoredBeforePackingIsReadAsItIs() {
    String json = "{\"state\":\"ACTIVE\",\"note\":\"caf\u00e9 \u2713\"}";
    assertThat(PackedText.unpack(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(json);
    assertThat(PackedText.unpack(new byte[0])).isEmpty();
    for (String leading : new String[] {"\t", "\n", "\r", " ", "\u0000"}) {
      String text = leading + json;
      assertThat(PackedText.unpack(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(text);
    }
    assertThat(PackedText.pack(json, Dictionary.VOCABULARY)[0]).isLessThan((byte) 0x20);
  }

  @Test
  void aValueKeptUnpackedIsReadBackAndOneThatCouldBeMisreadIsPackedInstead() {
    String json = "{\"actor\":\"client\",\"note\":\"caf\u00e9\"}";
    assertThat(PackedText.unpacked(json)).isEqualTo(json.getBytes(StandardCharsets.UTF_8));
    assertThat(PackedText.unpack(PackedText.unpacked(json))).isEqualTo(json);
    assertThat(PackedText.unpacked(null)).isNull();
    assertThat(PackedText.unpack(PackedText.unpacked(""))).isEmpty();
    // Begins with byte 3, which would name a dictionary: stored packed, read back the same.
    String controlFirst = "\u0003{}";
    assertThat(PackedText.unpacked(controlFirst)[0])
        .isEqualTo((byte) PackedText.Dictionary.VOCABULARY.number());
    assertThat(PackedText.unpack(PackedText.unpacked(controlFirst))).isEqualTo(controlFirst);
  }

  @Test
  void aValueFromANewerBuildOrACorruptOneIsRefusedWithTheReason() {
    assertThatThrownBy(() -> PackedText.unpack(new byte[] {14, 3, 1, 2, 3}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dictionary 14")
        .hasMessageContaining("newer server");
    byte[] packed = PackedText.pack("{\"a\":\"" + "x".repeat(500) + "\"}", Dictionary.VOCABULARY);
    byte[] cut = java.util.Arrays.copyOf(packed, packed.length - 3);
    assertThatThrownBy(() -> PackedText.unpack(cut)).hasMessageContaining("corrupt");
    byte[] garbled = packed.clone();
    garbled[garbled.length / 2] ^= (byte) 0x5a;
    assertThatThrownBy(() -> PackedText.unpack(garbled)).hasMessageContaining("corrupt");
    assertThatThrownBy(() -> PackedText.unpack(new byte[] {1, (byte) 0xff, (byte) 0xff, 0x7f}))
        .hasMessageContaining("corrupt");
  }

  @Test
  void aTemplateDocumentPacksToAFractionOfItsText() {
    String document = document();
    int packed = PackedText.pack(document, Dictionary.forDocument("general")).length;
    int plain = PackedText.pack(document, Dictionary.VOCABULARY).length;
    assertThat(packed).isLessThan(document.length() / 4);
    assertThat(packed).isLessThan(plain);
    assertThat(Dictionary.forDocument("research")).isEqualTo(Dictionary.RESEARCH);
    assertThat(Dictionary.forDocument("custom")).isEqualTo(Dictionary.VOCABULARY);
    assertThat(Dictionary.forDocument(null)).isEqualTo(Dictionary.VOCABULARY);
  }

  /**
   * Stored values name their dictionary by number, so a dictionary's bytes may never change: a new
   * dictionary is a new number. This test fails on any edit of one.
   */
  @Test
  void theDictionariesAreFrozen() throws Exception {
    Map<Dictionary, String> expected = new LinkedHashMap<>();
    expected.put(
        Dictionary.VOCABULARY, "8202aecd15577516b9e62e2e7c0395a46a933957e700cb627f6b09a5116694a5");
    expected.put(
        Dictionary.GENERAL, "a9f831a327ad7a45438dee538e6a2498437d73fbdddd90b6924183a469d10b12");
    expected.put(
        Dictionary.RESEARCH, "6f1eba1b0905d9b1b053a1070bb886501f03ecdb4518b135c655e126b8b444cd");
    expected.put(
        Dictionary.CODE_GENERATION,
        "fb8da28f89e96817a99541e2b3b42772a562f04857a6569c6311a05d33b22174");
    expected.put(
        Dictionary.DATA_ANALYSIS,
        "2caf42d1ce8a334a49bad012d24ecf5ca352d780118f89392dbff262ad20c173");
    expected.put(
        Dictionary.REVIEW, "bf491f4b04a1ddca0c5b99190846ec5df30c7ece0c6435630b5590a764700ead");
    expected.put(
        Dictionary.TRANSLATION, "8b0951f6f0bc8a65b0d8c97d2e744e223272e4064f8877278917fd7f8966046d");
    expected.put(
        Dictionary.TRAIL, "9183a3f7f9c1f1412daa5192aa68c18b2387d94e88dc095f6740fbcedbfab604");
    for (Dictionary d : Dictionary.values()) {
      String digest =
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(d.bytes()));
      assertThat(digest).as("dictionary %s (%d)", d, d.number()).isEqualTo(expected.get(d));
      assertThat(d.number()).isBetween(PackedText.FIRST_NUMBER, PackedText.LAST_NUMBER);
    }
  }

  private static String document() {
    return "{\"asa_version\":\"1.0.0\",\"service\":{\"type\":\"general\",\"deliverable_format\":"
        + "\"markdown\",\"constraints\":{\"max_tokens\":20000,\"max_duration_seconds\":3600,"
        + "\"max_cost_usd\":2.00},\"description\":\"Translate the attached contract\"},"
        + "\"quality_criteria\":{\"dimensions\":[{\"name\":\"accuracy\",\"weight\":0.30,\"metric\":"
        + "\"percentage\",\"slo\":{\"operator\":\"gte\",\"value\":80},\"shadow_metric\":"
        + "\"hallucination_rate\",\"shadow_slo\":{\"operator\":\"lte\",\"value\":5},\"description\":"
        + "\"Share of claims that are correct and supported by the sources or inputs. Shadow:"
        + " hallucination_rate, the percentage of claims with no support (at most 5).\"},"
        + "{\"name\":\"completeness\",\"weight\":0.25,\"metric\":\"percentage\",\"slo\":"
        + "{\"operator\":\"gte\",\"value\":70},\"shadow_metric\":\"verbosity\",\"shadow_slo\":"
        + "{\"operator\":\"lte\",\"value\":25},\"description\":\"Share of what the request asked"
        + " for that the deliverable covers. Shadow: verbosity, the percentage of padded or"
        + " redundant content (at most 25), so that completeness is not bought with length.\"}]},"
        + "\"parties\":{\"client\":{\"identity\":{\"scheme\":\"api_key\",\"value\":\"acme\"}}},"
        + "\"agreement_id\":\"asa-2026-11-24-0123456789abcdef\",\"status\":\"active\"}";
  }

  private static String randomText(Random random, int length) {
    StringBuilder b = new StringBuilder(length);
    String alphabet = "{}[]\":,abcdefghij_0123456789 \\\u0000\u00e9\u2713";
    while (b.length() < length) {
      int pick = random.nextInt(10);
      if (pick == 0) {
        b.appendCodePoint(0x1F600 + random.nextInt(50)); // outside the BMP: a surrogate pair
      } else {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
    }
    return b.toString();
  }
}
