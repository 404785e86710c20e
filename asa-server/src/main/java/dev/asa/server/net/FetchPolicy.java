package dev.asa.server.net;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Where the server's outbound requests may go beyond the public internet. By default nowhere:
 * loopback, private, link-local and other internal addresses are refused whatever the URL says. An
 * operator who runs a payment system or a deliverable store on an internal address lists its URL
 * prefix explicitly ({@code asa serve --allow-fetch URL-PREFIX}).
 *
 * @param allowedPrefixes absolute http(s) URL prefixes, each ending its host with a path
 */
public record FetchPolicy(List<String> allowedPrefixes) {

  public static final FetchPolicy DEFAULTS = new FetchPolicy(List.of());

  public FetchPolicy {
    allowedPrefixes = List.copyOf(allowedPrefixes);
    for (String prefix : allowedPrefixes) {
      URI uri = URI.create(prefix);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getRawPath() == null
          || uri.getRawPath().isEmpty()) {
        // Without a path, http://10.0.0.5 would also let in http://10.0.0.5.evil.example/.
        throw new IllegalArgumentException(
            "an allowed fetch prefix is an http(s) URL whose host ends with a path, such as http://10.0.0.5:9000/, not '"
                + prefix
                + "'");
      }
    }
  }

  public FetchPolicy withAllowedPrefixes(List<String> prefixes) {
    return new FetchPolicy(prefixes);
  }

  /**
   * Whether {@code url} lies under one of the allowed prefixes, compared part by part rather than
   * as text: same scheme, host and port (default ports filled in), no user info, and a path that
   * starts with the prefix's path after dot segments are removed. A path that hides dots or slashes
   * in percent-escapes or uses backslashes is never allowed by a prefix (the receiving server may
   * decode them into a path outside it); such a URL falls back to the address check.
   */
  public boolean allows(URI url) {
    if (allowedPrefixes.isEmpty()
        || url.getHost() == null
        || url.getScheme() == null
        || url.getRawUserInfo() != null) {
      return false;
    }
    String rawPath =
        url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    String lower = rawPath.toLowerCase(Locale.ROOT);
    if (lower.contains("%2e")
        || lower.contains("%2f")
        || lower.contains("%5c")
        || lower.contains("\\")) {
      return false;
    }
    String path = URI.create("http://h" + rawPath).normalize().getRawPath();
    if (path.startsWith("/..")) {
      return false;
    }
    for (String given : allowedPrefixes) {
      URI prefix = URI.create(given);
      if (prefix.getScheme().equalsIgnoreCase(url.getScheme())
          && prefix.getHost().equalsIgnoreCase(url.getHost())
          && port(prefix) == port(url)
          && path.startsWith(prefix.getRawPath())) {
        return true;
      }
    }
    return false;
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0
        ? uri.getPort()
        : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }
}
