package dev.asa.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.server.config.PublicUrls;
import io.javalin.http.Context;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code @target-uri} a signed request is verified against, built from this server's own URLs
 * rather than believed from the request.
 *
 * <p>The client signs the absolute URI it sends to, and the {@code Host} header carries its
 * authority. A request whose {@code Host} names none of this server's URLs was signed for another
 * server (or its {@code Host} was forged), and is refused with 401 before any signature check,
 * saying so. Otherwise the target URI is the matching URL's scheme, the {@code Host} as sent (the
 * signature compares text), and the path and query as received: so behind a TLS-terminating proxy
 * configured with {@code --public-url https://asa.example.com}, a request the client signed for
 * {@code https://asa.example.com/...} verifies although it reached this server over plain http.
 *
 * <p>The server's URLs are the configured {@link PublicUrls}, each scheme and authority with its
 * default port when none is written. With none configured, they are the address the connection
 * arrived on, with the listening port, over http; when that address is loopback also {@code
 * localhost}, {@code 127.0.0.1} and {@code [::1]}. For a server listening on every interface
 * ({@code --host 0.0.0.0}) that means a client must name the IP address it connects to; clients
 * that use a DNS name need {@code --public-url}. Names are never resolved: only IP literals are
 * compared as addresses.
 */
final class TargetUris {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final List<String> LOOPBACK_NAMES = List.of("127.0.0.1", "localhost", "[::1]");

  private final PublicUrls configured;

  TargetUris(PublicUrls configured) {
    this.configured = configured;
  }

  /**
   * The target URI of this request.
   *
   * @throws RequestException 401 (reason {@code wrong_server}) when the Host names another server,
   *     400 when the Host or path cannot form a URI
   */
  URI of(Context ctx) {
    String host = ctx.header("Host");
    Authority asked = host == null ? null : Authority.parse(host);
    String scheme = null;
    List<String> ours = new ArrayList<>();
    if (configured.urls().isEmpty()) {
      int port = ctx.req().getLocalPort();
      for (String name : localNames(ctx.req().getLocalAddr())) {
        ours.add("http://" + name + ":" + port);
        if (asked != null && asked.port(80) == port && sameHost(asked.host(), name)) {
          scheme = "http";
        }
      }
    } else {
      for (URI url : configured.urls()) {
        ours.add(url.getScheme() + "://" + url.getRawAuthority());
        if (asked != null
            && asked.port(PublicUrls.defaultPort(url.getScheme())) == PublicUrls.port(url)
            && sameHost(asked.host(), url.getHost())) {
          scheme = url.getScheme();
        }
      }
    }
    if (scheme == null) {
      throw wrongServer(ctx, host, ours);
    }
    String query = ctx.req().getQueryString();
    String raw =
        scheme + "://" + host + ctx.req().getRequestURI() + (query == null ? "" : "?" + query);
    try {
      return new URI(raw);
    } catch (URISyntaxException e) {
      throw new RequestException(
          Problem.of(
              "bad-target",
              "Unusable request target",
              400,
              "the request's Host or path cannot form a URI: " + e.getReason()));
    }
  }

  private static RequestException wrongServer(Context ctx, String host, List<String> ours) {
    String signedFor =
        host == null
            ? "no server (the request has no Host header)"
            : ctx.scheme() + "://" + quote(host);
    ObjectNode ext = Json.object().put("reason", "wrong_server");
    ctx.header("WWW-Authenticate", "Signature");
    return new RequestException(
        new Problem(
            "unauthenticated",
            "The request signature was not accepted",
            401,
            "the request was signed for "
                + signedFor
                + ", but this server is "
                + String.join(", ", ours)
                + "; sign for the URL you send the request to, one of those (the Host header names it)",
            List.of(),
            ext));
  }

  /** The names a client may use for the local address {@code local} (a textual IP address). */
  private static List<String> localNames(String local) {
    InetAddress address = literal(local);
    if (address != null && address.isLoopbackAddress()) {
      return LOOPBACK_NAMES;
    }
    String name = local.contains(":") && !local.startsWith("[") ? "[" + local + "]" : local;
    return List.of(name);
  }

  /**
   * Host names compare case-insensitively; IP literals as addresses ([::1] = [0:0:0:0:0:0:0:1]).
   */
  private static boolean sameHost(String asked, String ours) {
    if (asked.equalsIgnoreCase(ours)) {
      return true;
    }
    InetAddress a = literal(asked);
    InetAddress b = literal(ours);
    return a != null && a.equals(b);
  }

  /** The address an IP literal names, or null for anything else (never a DNS lookup). */
  private static InetAddress literal(String host) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    boolean ipv6 =
        bare.contains(":")
            && bare.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
    if (!IPV4.matcher(bare).matches() && !ipv6) {
      return null;
    }
    try {
      return InetAddress.getByName(bare); // a literal: parsed, not looked up
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static String quote(String text) {
    String shown = text.length() > 100 ? text.substring(0, 100) + "..." : text;
    return shown.replaceAll("[^\\x21-\\x7e]", "?");
  }

  /** A Host header: host (an IPv6 literal keeps its brackets) and the port, -1 when absent. */
  private record Authority(String host, int port) {
    static Authority parse(String text) {
      int colon = text.lastIndexOf(':');
      if (colon < 0 || text.endsWith("]")) {
        return new Authority(text, -1);
      }
      try {
        return new Authority(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
      } catch (NumberFormatException e) {
        return new Authority(text, -2); // matches no port
      }
    }

    int port(int whenAbsent) {
      return port == -1 ? whenAbsent : port;
    }
  }
}
