package dev.asa.server.config;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scheme and authority under which clients reach this server ({@code asa serve --public-url}).
 * A signed request's {@code @target-uri} must name one of them: a request signed for another
 * server, or sent with a forged {@code Host}, is refused (see {@link TargetUris}). Empty means the
 * listen address and its localhost forms.
 *
 * @param urls absolute http(s) URLs with a host and no path beyond "/"; no two with the same host
 *     and port, since the scheme a client signed is read from the one its Host header matches
 */
public record PublicUrls(List<URI> urls) {

  public static final PublicUrls DEFAULTS = new PublicUrls(List.of());

  public PublicUrls {
    urls = List.copyOf(urls);
    Map<String, URI> byAuthority = new HashMap<>();
    for (URI uri : urls) {
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || (uri.getRawPath() != null
              && !uri.getRawPath().isEmpty()
              && !"/".equals(uri.getRawPath()))
          || uri.getRawQuery() != null
          || uri.getRawFragment() != null
          || uri.getRawUserInfo() != null) {
        throw new IllegalArgumentException(
            "a public URL is http(s)://host[:port] with no path, such as https://asa.example.com, not '"
                + uri
                + "'");
      }
      URI clash = byAuthority.put(uri.getHost().toLowerCase(Locale.ROOT) + ":" + port(uri), uri);
      if (clash != null) {
        throw new IllegalArgumentException(
            "the public URLs "
                + clash
                + " and "
                + uri
                + " name the same host and port; give each host and port once");
      }
    }
  }

  /** The URL's port, or its scheme's default. */
  public static int port(URI url) {
    return url.getPort() == -1 ? defaultPort(url.getScheme()) : url.getPort();
  }

  public static int defaultPort(String scheme) {
    return "https".equals(scheme) ? 443 : 80;
  }
}
