package dev.asa.server.http;

import java.net.URI;
import java.util.List;

/**
 * The scheme and authority under which clients reach this server ({@code asa serve --public-url}).
 * A signed request's {@code @target-uri} must name one of them: a request signed for another
 * server, or sent with a forged {@code Host}, is refused. Empty means the listen address and its
 * localhost forms.
 *
 * @param urls absolute http(s) URLs with a host and no path beyond "/"
 */
public record PublicUrls(List<URI> urls) {

  public static final PublicUrls DEFAULTS = new PublicUrls(List.of());

  public PublicUrls {
    urls = List.copyOf(urls);
    for (URI uri : urls) {
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
          || (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !"/".equals(uri.getRawPath()))
          || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "a public URL is http(s)://host[:port] with no path, such as https://asa.example.com, not '" + uri + "'");
      }
    }
  }
}
