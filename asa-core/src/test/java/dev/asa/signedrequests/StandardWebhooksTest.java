package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.signedrequests.StandardWebhooks.InvalidWebhookException;
import dev.asa.signedrequests.StandardWebhooks.InvalidWebhookException.Reason;
import dev.asa.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class StandardWebhooksTest {

  private static final Ed25519PrivateKey SERVER = Fixtures.key("asa-server");
  private static final Ed25519PublicKey SERVER_PUBLIC = SERVER.publicKey();
  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);
  private static final Duration TOLERANCE = Duration.ofMinutes(5);
  private static final String ID = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
  private static final String TS = "1700000000";
  private static final String BODY =
      "{\"kind\":\"escrow.release\",\"amount\":\"10.00\",\"note\":\"é ✓\"}";

  private static String sign(String id, long ts, String body) {
    return StandardWebhooks.sign(id, ts, body, SERVER);
  }

  private static void verify(String id, String ts, String signature, String body) {
    StandardWebhooks.verify(id, ts, signature, body, SERVER_PUBLIC, NOW, TOLERANCE);
  }

  private static void assertRefused(
      String id, String ts, String signature, String body, Reason reason) {
    assertThatThrownBy(() -> verify(id, ts, signature, body))
        .isInstanceOf(InvalidWebhookException.class)
        .satisfies(e -> assertThat(((InvalidWebhookException) e).reason()).isEqualTo(reason));
  }

  @Test
  void headerNamesAreTheStandardOnes() {
    assertThat(StandardWebhooks.WEBHOOK_ID).isEqualTo("webhook-id");
    assertThat(StandardWebhooks.WEBHOOK_TIMESTAMP).isEqualTo("webhook-timestamp");
    assertThat(StandardWebhooks.WEBHOOK_SIGNATURE).isEqualTo("webhook-signature");
  }

  @Test
  void signedWebhookVerifies() {
    String signature = sign(ID, 1_700_000_000L, BODY);
    assertThatCode(() -> verify(ID, TS, signature, BODY)).doesNotThrowAnyException();
    assertThatThrownBy(() -> verify(ID, TS, signature, ""))
        .isInstanceOf(InvalidWebhookException.class);
    String empty = sign(ID, 1_700_000_000L, "");
    assertThatCode(() -> verify(ID, TS, empty, "")).doesNotThrowAnyException();
  }

  @Test
  void signatureIsV1aAndStandardBase64OfAnEd25519SignatureThatTheJdkAlsoAccepts() throws Exception {
    String header = sign(ID, 1_700_000_000L, BODY);
    assertThat(header).startsWith("v1a,");
    byte[] signature = Base64.getDecoder().decode(header.substring(4));
    assertThat(signature).hasSize(64);
    assertThat(sign(ID, 1_700_000_000L, BODY)).as("Ed25519 is deterministic").isEqualTo(header);

    // Independent check with the JDK's own Ed25519, over the spec's "id.timestamp.body".
    byte[] spki = HexFormat.of().parseHex("302a300506032b6570032100");
    byte[] encoded = new byte[spki.length + 32];
    System.arraycopy(spki, 0, encoded, 0, spki.length);
    System.arraycopy(SERVER_PUBLIC.bytes(), 0, encoded, spki.length, 32);
    PublicKey jdkKey =
        KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded));
    Signature verifier = Signature.getInstance("Ed25519");
    verifier.initVerify(jdkKey);
    verifier.update((ID + "." + TS + "." + BODY).getBytes(StandardCharsets.UTF_8));
    assertThat(verifier.verify(signature)).isTrue();
  }

  @Test
  void tamperedBodyIdOrTimestampIsRefused() {
    String signature = sign(ID, 1_700_000_000L, BODY);
    assertRefused(ID, TS, signature, BODY.replace("10.00", "99.00"), Reason.BAD_SIGNATURE);
    assertRefused(ID, TS, signature, BODY + " ", Reason.BAD_SIGNATURE);
    assertRefused(ID + "x", TS, signature, BODY, Reason.BAD_SIGNATURE);
    assertRefused(ID, "1700000001", signature, BODY, Reason.BAD_SIGNATURE);
    // Same number, different spelling: the header text is what is signed.
    assertRefused(ID, "01700000000", signature, BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void wrongKeyIsRefused() {
    String signature = StandardWebhooks.sign(ID, 1_700_000_000L, BODY, Fixtures.key("mallory"));
    assertRefused(ID, TS, signature, BODY, Reason.BAD_SIGNATURE);
    assertThatThrownBy(() -> verify(ID, TS, signature, BODY))
        .hasMessageContaining(SERVER_PUBLIC.toBase64Url());
  }

  @Test
  void staleAndFutureTimestampsAreRefusedAndTheEdgesAccepted() {
    long now = NOW.getEpochSecond();
    for (long ts : new long[] {now - 301, now + 301, 0, now - 86_400, now + 86_400}) {
      String signature = sign(ID, ts, BODY);
      assertRefused(ID, Long.toString(ts), signature, BODY, Reason.TIMESTAMP_OUT_OF_TOLERANCE);
    }
    assertThatThrownBy(() -> verify(ID, Long.toString(now - 301), sign(ID, now - 301, BODY), BODY))
        .hasMessageContaining("301s in the past");
    assertThatThrownBy(() -> verify(ID, Long.toString(now + 400), sign(ID, now + 400, BODY), BODY))
        .hasMessageContaining("400s in the future");
    for (long ts : new long[] {now - 300, now + 300, now}) {
      String signature = sign(ID, ts, BODY);
      assertThatCode(() -> verify(ID, Long.toString(ts), signature, BODY))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void missingOrBlankHeadersAreRefused() {
    String signature = sign(ID, 1_700_000_000L, BODY);
    for (String missing : new String[] {null, "", "   ", "\t"}) {
      assertRefused(missing, TS, signature, BODY, Reason.MISSING_HEADER);
      assertRefused(ID, missing, signature, BODY, Reason.MISSING_HEADER);
      assertRefused(ID, TS, missing, BODY, Reason.MISSING_HEADER);
    }
    assertThatThrownBy(() -> verify(ID, null, signature, BODY))
        .hasMessageContaining("webhook-timestamp");
  }

  @Test
  void nonIntegerTimestampsAreRefused() {
    String signature = sign(ID, 1_700_000_000L, BODY);
    for (String ts :
        new String[] {
          "abc",
          "-1700000000",
          "+1700000000",
          "1700000000.0",
          "1.7e9",
          " 1700000000",
          "1700000000 ",
          "0x6553f100",
          "\u0661\u0667\u0660\u0660",
          "9".repeat(13),
          "99999999999999999999999"
        }) {
      assertRefused(ID, ts, signature, BODY, Reason.MALFORMED_TIMESTAMP);
    }
  }

  @Test
  void anyVerifyingV1aEntryIsAcceptedAndOtherVersionsIgnored() throws Exception {
    String ours = sign(ID, 1_700_000_000L, BODY);
    Mac hmac = Mac.getInstance("HmacSHA256");
    hmac.init(
        new SecretKeySpec(
            "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String v1 =
        "v1,"
            + Base64.getEncoder()
                .encodeToString(
                    hmac.doFinal((ID + "." + TS + "." + BODY).getBytes(StandardCharsets.UTF_8)));
    String rotated = StandardWebhooks.sign(ID, 1_700_000_000L, BODY, Fixtures.key("old-server"));

    for (String header :
        List.of(
            v1 + " " + ours,
            ours + " " + v1,
            rotated + " " + ours,
            v1 + " " + rotated + "  " + ours + " v2,whatever",
            "v1a,!!! " + ours)) {
      assertThatCode(() -> verify(ID, TS, header, BODY)).as(header).doesNotThrowAnyException();
    }
    assertRefused(ID, TS, v1, BODY, Reason.NO_V1A_SIGNATURE);
    assertRefused(ID, TS, v1 + " v2,abc", BODY, Reason.NO_V1A_SIGNATURE);
    assertRefused(ID, TS, ours.replace("v1a,", "v1,"), BODY, Reason.NO_V1A_SIGNATURE);
    assertRefused(ID, TS, ours.replace("v1a,", "V1A,"), BODY, Reason.NO_V1A_SIGNATURE);
    assertRefused(ID, TS, ours.replace("v1a,", "v1a "), BODY, Reason.NO_V1A_SIGNATURE);
    assertRefused(ID, TS, v1 + " " + rotated, BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void malformedBase64IsRefused() {
    String ours = sign(ID, 1_700_000_000L, BODY);
    String b64 = ours.substring(4);
    for (String header :
        List.of(
            "v1a,",
            "v1a,!!!!",
            "v1a," + b64.replace('+', '-').replace('/', '_').replace("=", "") + "%",
            "v1a," + b64.substring(0, b64.length() - 4),
            "v1a," + Base64.getEncoder().encodeToString(new byte[63]),
            "v1a," + Base64.getEncoder().encodeToString(new byte[65]),
            "v1a," + b64 + "AAAA",
            "v1a,\u00e9" + b64)) {
      assertRefused(ID, TS, header, BODY, Reason.MALFORMED_SIGNATURE);
    }
  }

  @Test
  void oversizedHeadersAreRefusedBeforeAnyWork() {
    String ours = sign(ID, 1_700_000_000L, BODY);
    String seventeen = (ours + " ").repeat(16) + ours;
    assertRefused(ID, TS, seventeen, BODY, Reason.HEADER_TOO_LARGE);
    String sixteenWithOursLast = ("v1,abc ").repeat(15) + ours;
    assertThatCode(() -> verify(ID, TS, sixteenWithOursLast, BODY)).doesNotThrowAnyException();
    assertRefused(ID, TS, ours + " " + "x".repeat(5000), BODY, Reason.HEADER_TOO_LARGE);
    assertRefused("x".repeat(4097), TS, ours, BODY, Reason.HEADER_TOO_LARGE);
  }

  @Test
  void signRefusesWhatNoReceiverWouldAccept() {
    assertThatThrownBy(() -> sign(" ", 1, BODY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> sign(ID, -1, BODY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() ->
            StandardWebhooks.verify(
                ID, TS, "v1a,x", BODY, SERVER_PUBLIC, NOW, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void messagesEscapeWhatTheSenderSent() {
    assertThatThrownBy(() -> verify(ID, "12\r\nX-Forged: 1", "v1a,x", BODY))
        .isInstanceOf(InvalidWebhookException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\r").doesNotContain("\n"));
  }

  // ---- fuzz ----

  /** Characters that matter to the parser, plus some that must never be accepted. */
  private static final String INTERESTING =
      "v1a, =+/.0123456789AZaz-_\t\r\n\u0000\u007f\u00e9\u0661\u2028\uffff\ud800";

  @Test
  void mutatedWebhooksAreRefusedCleanlyAndNeverAcceptedWhenChanged() {
    long seed = Long.getLong("asa.fuzz.seed", System.nanoTime());
    System.out.println(StandardWebhooksTest.class.getSimpleName() + " seed: " + seed);
    Random random = new Random(seed);
    Ed25519PrivateKey other = Fixtures.key("other");
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
      String id = "msg_" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
      long ts = NOW.getEpochSecond() + random.nextInt(601) - 300;
      byte[] raw = new byte[random.nextInt(40)];
      random.nextBytes(raw);
      String body = "{\"x\":\"" + Base64.getEncoder().encodeToString(raw) + "\"}";
      // Mostly our key, sometimes another: a foreign signature must never get through either.
      Ed25519PrivateKey signer = random.nextInt(4) == 0 ? other : SERVER;
      String[] fields = {id, Long.toString(ts), StandardWebhooks.sign(id, ts, body, signer), body};
      int mutations = random.nextInt(4);
      for (int m = 0; m < mutations; m++) {
        int which = random.nextInt(fields.length);
        fields[which] = mutate(random, fields[which], which == 3);
      }
      String mId = fields[0];
      String mTs = fields[1];
      String mSig = fields[2];
      String mBody = fields[3];
      try {
        verify(mId, mTs, mSig, mBody);
        accepted++;
        if (signer != SERVER
            || !id.equals(mId)
            || !Long.toString(ts).equals(mTs)
            || !body.equals(mBody)) {
          fail(
              "seed "
                  + seed
                  + " iteration "
                  + i
                  + ": accepted a changed webhook "
                  + List.of(fields));
        }
      } catch (InvalidWebhookException e) {
        assertThat(e.getMessage()).as("seed %d", seed).isNotBlank().doesNotContain("\n");
      } catch (RuntimeException e) {
        throw new AssertionError("seed " + seed + " iteration " + i + ": " + nullSafe(fields), e);
      }
    }
    assertThat(accepted).as("some unchanged webhooks get through (seed %d)", seed).isPositive();
  }

  private static List<String> nullSafe(String[] fields) {
    List<String> out = new ArrayList<>();
    for (String f : fields) {
      out.add(String.valueOf(f));
    }
    return out;
  }

  private static String mutate(Random random, String value, boolean isBody) {
    if (value == null) {
      return random.nextBoolean() ? "" : "v1a,";
    }
    StringBuilder s = new StringBuilder(value);
    switch (random.nextInt(isBody ? 8 : 10)) {
      case 0 -> { // replace a character
        if (!s.isEmpty()) {
          s.setCharAt(random.nextInt(s.length()), pick(random));
        }
      }
      case 1 -> s.insert(random.nextInt(s.length() + 1), pick(random));
      case 2 -> {
        if (!s.isEmpty()) {
          s.deleteCharAt(random.nextInt(s.length()));
        }
      }
      case 3 -> s.setLength(random.nextInt(s.length() + 1));
      case 4 -> s.append(' ').append(value); // a duplicated entry or field
      case 5 -> s.insert(0, random.nextBoolean() ? "v1,abc " : "v1a,AAAA ");
      case 6 -> s.append(String.valueOf(pick(random)).repeat(random.nextInt(5000)));
      case 7 -> { // swap two characters
        if (s.length() > 1) {
          int a = random.nextInt(s.length());
          int b = random.nextInt(s.length());
          char c = s.charAt(a);
          s.setCharAt(a, s.charAt(b));
          s.setCharAt(b, c);
        }
      }
      case 8 -> {
        return null;
      }
      default -> {
        return random.nextBoolean() ? " " : "v1a," + "A".repeat(random.nextInt(100));
      }
    }
    return s.toString();
  }

  private static char pick(Random random) {
    return INTERESTING.charAt(random.nextInt(INTERESTING.length()));
  }
}
