package dev.asa.server.net;

import java.net.URI;
import java.util.List;

/**
 * Where the server's outbound requests may go beyond the public internet. By default nowhere:
 * loopback, private, link-local and other internal addresses are refused whatever the URL says.
 * An operator who runs a payment system or a deliverable store on an internal address lists its
 * URL prefix explicitly ({@code asa serve --allow-fetch URL-PREFIX}).
 *
 * @param allowedPrefixes absolute http(s) URL prefixes, each ending its host with a path
 */
public record FetchPolicy(List<String> allowedPrefixes) {

  public static final FetchPolicy DEFAULTS = new FetchPolicy(List.of());

  public FetchPolicy {
    allowedPrefixes = List.copyOf(allowedPrefixes);
    for (String prefix : allowedPrefixes) {
      URI uri = URI.create(prefix);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
          || uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
        // Without a path, http://10.0.0.5 would also let in http://10.0.0.5.evil.example/.
        throw new IllegalArgumentException(
            "an allowed fetch prefix is an http(s) URL whose host ends with a path, such as http://10.0.0.5:9000/, not '"
                + prefix + "'");
      }
    }
  }

  public FetchPolicy withAllowedPrefixes(List<String> prefixes) {
    return new FetchPolicy(prefixes);
  }
}
