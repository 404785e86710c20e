package dev.asa.server.store.db;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A digest the store keeps ("sha256:" and 64 lowercase hex digits, 71 bytes as text), packed as the
 * 32 bytes it stands for behind a marker byte: 33 bytes. An event log holds two per event, so this
 * halves what its hash chain takes on disk. Any other text (and text stored before packing) is kept
 * and read as UTF-8 as it is, so the round trip is exact whatever is given.
 */
public final class PackedDigest {
  private PackedDigest() {}

  /** The first byte of a packed SHA-256 digest (never the first byte of text the store keeps). */
  private static final byte SHA256 = 1;

  private static final String PREFIX = "sha256:";

  /** Whether {@code digest} is "sha256:" and 64 lowercase hex digits (a regex took longer). */
  private static boolean isLowerHexSha256(String digest) {
    if (digest.length() != PREFIX.length() + 64 || !digest.startsWith(PREFIX)) {
      return false;
    }
    for (int i = PREFIX.length(); i < digest.length(); i++) {
      char c = digest.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  public static byte[] pack(String digest) {
    if (digest == null) {
      return null;
    }
    if (!isLowerHexSha256(digest)) {
      return digest.getBytes(StandardCharsets.UTF_8);
    }
    byte[] packed = new byte[33];
    packed[0] = SHA256;
    System.arraycopy(
        HexFormat.of().parseHex(digest, PREFIX.length(), digest.length()), 0, packed, 1, 32);
    return packed;
  }

  public static String unpack(byte[] stored) {
    if (stored == null) {
      return null;
    }
    if (stored.length == 33 && stored[0] == SHA256) {
      return PREFIX + HexFormat.of().formatHex(Arrays.copyOfRange(stored, 1, 33));
    }
    return new String(stored, StandardCharsets.UTF_8);
  }
}
