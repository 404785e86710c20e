package dev.asa.server.verification;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Digest;
import dev.asa.server.net.FetchLimits;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.net.OutboundRequest;
import dev.asa.server.net.OutboundResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches a deliverable that was delivered by URL, at verification time, and refuses it unless its
 * bytes hash to the digest recorded at delivery (a swapped deliverable never gets verified).
 *
 * <p>The URL is the caller's, so the fetch goes through the {@link GuardedHttpClient} (no internal
 * addresses unless the operator allowed them), and every failure reads the same to the caller: an
 * internal address refused, a closed port, a 404, a wrong digest or a timeout must not be told
 * apart, or the server becomes a scanner of the networks it can see. The details go to the log.
 */
public final class DeliverableFetcher {
  private static final Logger LOG = LoggerFactory.getLogger(DeliverableFetcher.class);

  /** What an API caller is told about any failure to fetch; nothing about the other side. */
  public static final String COULD_NOT_FETCH =
      "the deliverable could not be fetched from content_url";

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration TOTAL_TIMEOUT = Duration.ofSeconds(30);

  private final GuardedHttpClient http;
  private final FetchLimits limits;

  /** A fetcher that reaches public addresses only (no operator allowances). */
  public DeliverableFetcher(long maxBytes) {
    this(new GuardedHttpClient(FetchPolicy.DEFAULTS), maxBytes);
  }

  /**
   * @param maxBytes the largest deliverable: the request body limit, as if it had been sent inline
   */
  public DeliverableFetcher(GuardedHttpClient http, long maxBytes) {
    this.http = Objects.requireNonNull(http, "http");
    this.limits = new FetchLimits(CONNECT_TIMEOUT, TOTAL_TIMEOUT, maxBytes);
  }

  public String fetch(String url, Digest expected) {
    return fetch(url, expected, "/content_url");
  }

  /**
   * @param pointer the JSON pointer of the URL in the request, for the refusal
   */
  public String fetch(String url, Digest expected, String pointer) {
    if (url == null) {
      throw new IllegalStateException("a deliverable with neither content nor URL");
    }
    URI uri;
    try {
      uri = URI.create(url);
      OutboundResponse response =
          http.send(OutboundRequest.get(uri, Map.of("Accept", "*/*")), limits);
      if (response.status() / 100 != 2) {
        throw failed(uri, "it answered HTTP " + response.status());
      }
      if (response.truncated()) {
        throw failed(uri, "it answered more than " + limits.maxResponseBytes() + " bytes");
      }
      Digest actual = Digest.sha256(response.body());
      if (!actual.equals(expected)) {
        throw failed(
            uri, "the content hashes to " + actual + ", not to the " + expected + " recorded");
      }
      return new String(response.body(), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      LOG.warn("a deliverable URL is not an http(s) URL: {}", e.getMessage());
      throw new InvalidDocumentException(pointer, COULD_NOT_FETCH);
    } catch (IOException e) {
      LOG.warn(
          "could not fetch a deliverable from {}: {}",
          GuardedHttpClient.describe(URI.create(url)),
          e.toString());
      throw new InvalidDocumentException(pointer, COULD_NOT_FETCH);
    } catch (Failed e) {
      LOG.warn(e.getMessage());
      throw new InvalidDocumentException(pointer, COULD_NOT_FETCH);
    }
  }

  private static Failed failed(URI uri, String why) {
    return new Failed(
        "could not use the deliverable at " + GuardedHttpClient.describe(uri) + ": " + why);
  }

  /** A fetch that got an answer it cannot use; its message is for the log. */
  private static final class Failed extends RuntimeException {
    Failed(String message) {
      super(message, null, false, false);
    }
  }
}
