package dev.asa.server.agreements;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Fetches a deliverable that was delivered by URL, at verification time, and refuses it unless its
 * bytes hash to the digest recorded at delivery (a swapped deliverable never gets verified).
 */
public final class DeliverableFetcher {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
  private final long maxBytes;

  public DeliverableFetcher(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  public String fetch(String url, Digest expected) {
    if (url == null) {
      throw new IllegalStateException("a deliverable with neither content nor URL");
    }
    try {
      HttpResponse<InputStream> response = http.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        if (response.statusCode() / 100 != 2) {
          throw new InvalidDocumentException("/content_url", "fetching the deliverable answered HTTP " + response.statusCode());
        }
        byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        if (bytes.length > maxBytes) {
          throw new InvalidDocumentException("/content_url", "the deliverable is larger than " + maxBytes + " bytes");
        }
        Digest actual = Digest.sha256(bytes);
        if (!actual.equals(expected)) {
          throw new InvalidDocumentException("/content_url",
              "the content at the URL hashes to " + actual + ", not to the " + expected + " recorded at delivery");
        }
        return new String(bytes, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new InvalidDocumentException("/content_url", "could not fetch the deliverable: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching the deliverable", e);
    }
  }
}
