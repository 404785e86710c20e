package dev.asa.server.escrow.erc8183;

import java.util.Locale;
import java.util.regex.Pattern;

/** EVM addresses as text: {@code 0x} and 40 hex digits, compared without case. */
public final class Addresses {
  private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");

  private Addresses() {}

  public static boolean isAddress(String s) {
    return s != null && ADDRESS.matcher(s).matches();
  }

  /** Mixed case is only an EIP-55 checksum: the same address either way. */
  public static boolean same(String a, String b) {
    return a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }

  public static boolean isZero(String a) {
    return same(a, Job.ZERO_ADDRESS);
  }
}
