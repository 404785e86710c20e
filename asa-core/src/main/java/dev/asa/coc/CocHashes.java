package dev.asa.coc;

import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The boundary between CoC's hashes and ASA's. CoC writes a SHA-256 as 64 lowercase hex digits with
 * no prefix, computed over UTF-8 text; ASA writes {@code sha256:<hex>}. A CoC hash is converted by
 * prefixing, never by hashing again, so {@code sha256:<genesis entry_hash>} is the same 32 bytes
 * the chain's own tools print.
 */
public final class CocHashes {
  private CocHashes() {}

  private static final HexFormat HEX = HexFormat.of();

  /** The {@code prev_hash} of a genesis entry: 64 zeros. */
  public static final String ZERO = "0".repeat(64);

  /** SHA-256 of the UTF-8 bytes of {@code text}, as CoC writes it (bare lowercase hex). */
  public static String sha256Hex(String text) {
    try {
      return HEX.formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }

  /** Whether {@code text} is a CoC hash: exactly 64 lowercase hex digits. */
  public static boolean isHash(String text) {
    if (text == null || text.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** A CoC hash as an ASA digest ({@code sha256:} and the same hex). */
  public static Digest toDigest(String cocHash) {
    if (!isHash(cocHash)) {
      throw new IllegalArgumentException("not a CoC hash (64 lowercase hex digits)");
    }
    return Digest.parse("sha256:" + cocHash);
  }

  /** An ASA digest as CoC writes a hash (its hex, no prefix). */
  public static String fromDigest(Digest digest) {
    return digest.hex();
  }
}
