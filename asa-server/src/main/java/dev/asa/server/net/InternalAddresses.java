package dev.asa.server.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;

/**
 * Which addresses and names are not the public internet: what an outbound request made on a
 * caller's behalf must never reach. Pure code on bytes, no lookups, so every form of an address
 * (decimal, hex, short, IPv4-mapped, NAT64, 6to4 ...) is judged by the address it denotes.
 */
public final class InternalAddresses {

  private InternalAddresses() {}

  /**
   * Why {@code address} is internal ("loopback", "private", ...), or empty for a public address.
   * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4
   * address, since a dual-stack host or a translator on the path delivers to it.
   */
  public static Optional<String> kind(InetAddress address) {
    byte[] b = address.getAddress();
    return b.length == 4 ? ipv4(b, 0) : ipv6(b);
  }

  /**
   * Why a host name is internal whatever it resolves to, or empty: {@code localhost} and any name
   * under it (RFC 6761), in any case, with or without the final dot. Resolvers may answer these
   * from local files without asking DNS, so their addresses are not the only thing to trust.
   */
  public static Optional<String> nameKind(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    while (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.equals("localhost")
        || name.endsWith(".localhost")
        || name.equals("localhost.localdomain")
        || name.equals("ip6-localhost")
        || name.equals("ip6-loopback")) {
      return Optional.of("a loopback name");
    }
    return Optional.empty();
  }

  private static Optional<String> ipv4(byte[] b, int at) {
    int a0 = b[at] & 0xff;
    int a1 = b[at + 1] & 0xff;
    int a2 = b[at + 2] & 0xff;
    int a3 = b[at + 3] & 0xff;
    if (a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0) {
      return Optional.of("unspecified");
    }
    if (a0 == 0) {
      return Optional.of("this network (0/8)"); // Linux connects 0.x.y.z to the local host
    }
    if (a0 == 127) {
      return Optional.of("loopback");
    }
    if (a0 == 10 || a0 == 172 && (a1 & 0xf0) == 16 || a0 == 192 && a1 == 168) {
      return Optional.of("private");
    }
    if (a0 == 169 && a1 == 254) {
      return Optional.of("link-local"); // cloud metadata services live at 169.254.169.254
    }
    if (a0 == 100 && (a1 & 0xc0) == 64) {
      return Optional.of("shared address space (CGNAT, 100.64/10)");
    }
    if (a0 == 192 && a1 == 0 && a2 == 0) {
      return Optional.of("IETF protocol assignments (192.0.0/24)");
    }
    if (a0 == 192 && a1 == 0 && a2 == 2
        || a0 == 198 && a1 == 51 && a2 == 100
        || a0 == 203 && a1 == 0 && a2 == 113) {
      return Optional.of("documentation");
    }
    if (a0 == 198 && (a1 & 0xfe) == 18) {
      return Optional.of("benchmarking (198.18/15)");
    }
    if (a0 >= 224 && a0 <= 239) {
      return Optional.of("multicast");
    }
    if (a0 == 255 && a1 == 255 && a2 == 255 && a3 == 255) {
      return Optional.of("broadcast");
    }
    if (a0 >= 240) {
      return Optional.of("reserved (240/4)");
    }
    return Optional.empty();
  }

  private static Optional<String> ipv6(byte[] b) {
    if (zero(b, 0, 16)) {
      return Optional.of("unspecified");
    }
    if (zero(b, 0, 15) && b[15] == 1) {
      return Optional.of("loopback");
    }
    if (zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
      return embedded("IPv4-mapped", b, 12); // ::ffff:a.b.c.d
    }
    if (zero(b, 0, 12)) {
      return embedded(
          "IPv4-compatible", b, 12); // ::a.b.c.d (deprecated, still routed by some stacks)
    }
    if (zero(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && zero(b, 10, 2)) {
      return embedded("IPv4-translated", b, 12); // ::ffff:0:a.b.c.d (SIIT)
    }
    int w0 = word(b, 0);
    int w1 = word(b, 2);
    if (w0 == 0x0064 && w1 == 0xff9b && zero(b, 4, 8)) {
      return embedded("NAT64", b, 12); // 64:ff9b::a.b.c.d
    }
    if (w0 == 0x0064 && w1 == 0xff9b) {
      return Optional.of("local-use NAT64 (64:ff9b:1::/48)");
    }
    if (w0 == 0x2002) {
      return embedded("6to4", b, 2); // 2002:aabb:ccdd::/48
    }
    if (w0 == 0x2001 && w1 == 0x0000) {
      // Teredo hides the client's IPv4 address (XORed); nothing public needs to be reached this
      // way.
      return Optional.of("Teredo (2001::/32)");
    }
    if (w0 == 0x2001 && w1 == 0x0db8) {
      return Optional.of("documentation");
    }
    if (w0 == 0x0100 && zero(b, 2, 6)) {
      return Optional.of("discard-only (100::/64)");
    }
    if ((b[0] & 0xfe) == 0xfc) {
      return Optional.of("private (unique local, fc00::/7)");
    }
    if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80) {
      return Optional.of("link-local");
    }
    if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0) {
      return Optional.of("site-local (fec0::/10)");
    }
    if ((b[0] & 0xff) == 0xff) {
      return Optional.of("multicast");
    }
    return Optional.empty();
  }

  /**
   * An IPv6 form that carries an IPv4 address is as internal as that address; else it is public.
   */
  private static Optional<String> embedded(String form, byte[] b, int at) {
    return ipv4(b, at).map(kind -> kind + " (" + form + ")");
  }

  private static boolean zero(byte[] b, int from, int count) {
    for (int i = from; i < from + count; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static int word(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
  }

  /** For log lines: the address without a reverse lookup. */
  static String text(InetAddress address) {
    return address instanceof Inet6Address
        ? "[" + address.getHostAddress() + "]"
        : address instanceof Inet4Address ? address.getHostAddress() : address.toString();
  }
}
