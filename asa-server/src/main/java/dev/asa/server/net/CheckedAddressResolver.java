package dev.asa.server.net;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * The only way Jetty learns where a host is: one lookup through the {@link
 * GuardedHttpClient.HostResolver}, every address checked against {@link InternalAddresses} (one
 * internal address refuses the host), and Jetty is handed those very addresses to connect to. Jetty
 * never looks a name up itself, so there is no second lookup a rebinding DNS server could answer
 * differently.
 *
 * <p>The client for operator-allowed URL prefixes uses an instance that does not check, since the
 * operator chose those destinations; it still resolves once, here.
 */
final class CheckedAddressResolver implements SocketAddressResolver {
  private final GuardedHttpClient.HostResolver resolver;
  private final boolean refuseInternal;

  CheckedAddressResolver(GuardedHttpClient.HostResolver resolver, boolean refuseInternal) {
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.refuseInternal = refuseInternal;
  }

  @Override
  public void resolve(
      String host,
      int port,
      Map<String, Object> context,
      Promise<List<InetSocketAddress>> promise) {
    List<InetSocketAddress> checked;
    try {
      checked = resolve(host, port);
    } catch (Exception e) {
      promise.failed(e);
      return;
    }
    promise.succeeded(checked);
  }

  /**
   * @throws DestinationRefusedException an address is internal (for the log: which and why)
   * @throws UnknownHostException the name has no address
   */
  List<InetSocketAddress> resolve(String host, int port)
      throws UnknownHostException, DestinationRefusedException {
    String bare = GuardedHttpClient.bare(host);
    if (refuseInternal) {
      String name = InternalAddresses.nameKind(bare).orElse(null);
      if (name != null) {
        throw new DestinationRefusedException(bare + " is " + name);
      }
    }
    List<InetAddress> addresses = resolver.resolve(bare);
    if (addresses.isEmpty()) {
      throw new UnknownHostException(bare);
    }
    List<InetSocketAddress> out = new ArrayList<>(addresses.size());
    for (InetAddress address : addresses) {
      String kind = refuseInternal ? InternalAddresses.kind(address).orElse(null) : null;
      if (kind != null) {
        throw new DestinationRefusedException(
            bare + " resolves to " + InternalAddresses.text(address) + ", which is " + kind);
      }
      out.add(new InetSocketAddress(named(bare, address), port));
    }
    return out;
  }

  /**
   * The checked address, carrying the URL's host name without a lookup: Jetty's TLS layer takes the
   * peer name for SNI and for the certificate check from the connected address's host string, which
   * must be the name the URL gave, not the number it resolved to. An IP literal stays a literal.
   */
  private static InetAddress named(String host, InetAddress address) throws UnknownHostException {
    if (GuardedHttpClient.isIpLiteral(host)) {
      return InetAddress.getByAddress(address.getAddress());
    }
    String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (address instanceof Inet6Address v6 && v6.getScopeId() != 0) {
      return Inet6Address.getByAddress(
          name, v6.getAddress(), v6.getScopeId()); // an allowed link-local one
    }
    return InetAddress.getByAddress(name, address.getAddress());
  }
}
