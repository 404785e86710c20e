package dev.asa.evaluators.judge;

import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The HTTP client LangChain4j's chat models use for the judge: the JDK's, like LangChain4j's
 * default, but an error answer keeps its Retry-After header (see {@link StatusException}), and an
 * I/O failure keeps its {@link IOException} as the cause, so the judge's retry policy can tell a
 * dropped connection from a bad request. The judge never streams.
 */
final class JudgeHttpClient implements HttpClient {

  private final java.net.http.HttpClient delegate;
  private final Duration readTimeout;

  private JudgeHttpClient(Duration connectTimeout, Duration readTimeout) {
    this.delegate =
        java.net.http.HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .followRedirects(java.net.http.HttpClient.Redirect.NEVER)
            .build();
    this.readTimeout = readTimeout;
  }

  static Builder builder() {
    return new Builder();
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    java.net.http.HttpRequest.Builder jdk =
        java.net.http.HttpRequest.newBuilder(URI.create(request.url())).timeout(readTimeout);
    request.headers().forEach((name, values) -> values.forEach(value -> jdk.header(name, value)));
    String body = request.body();
    jdk.method(
        request.method().name(),
        body == null
            ? java.net.http.HttpRequest.BodyPublishers.noBody()
            : java.net.http.HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    HttpResponse<String> response;
    try {
      response =
          delegate.send(jdk.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new TimeoutException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LangChain4jException("interrupted while waiting for the judge", e);
    }
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      throw new StatusException(status, response.body(), retryAfter(response.headers()));
    }
    return SuccessfulHttpResponse.builder()
        .statusCode(status)
        .headers(response.headers().map())
        .body(response.body())
        .build();
  }

  @Override
  public void execute(
      HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    throw new UnsupportedOperationException("the judge does not stream");
  }

  /**
   * Retry-After as delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable.
   */
  static Duration retryAfter(HttpHeaders headers) {
    String value = headers.firstValue("Retry-After").map(String::strip).orElse(null);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      long seconds = Long.parseLong(value);
      return seconds < 0 ? null : Duration.ofSeconds(seconds);
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration wait = Duration.between(Instant.now(), at);
        return wait.isNegative() ? Duration.ZERO : wait;
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }

  /**
   * The builder LangChain4j's model builders ask for; they set both timeouts from the model's
   * timeout.
   */
  static final class Builder implements HttpClientBuilder {
    private Duration connectTimeout = Duration.ofSeconds(15);
    private Duration readTimeout = Duration.ofSeconds(60);

    @Override
    public Duration connectTimeout() {
      return connectTimeout;
    }

    @Override
    public Builder connectTimeout(Duration timeout) {
      if (timeout != null) {
        this.connectTimeout = timeout;
      }
      return this;
    }

    @Override
    public Duration readTimeout() {
      return readTimeout;
    }

    @Override
    public Builder readTimeout(Duration timeout) {
      if (timeout != null) {
        this.readTimeout = timeout;
      }
      return this;
    }

    @Override
    public JudgeHttpClient build() {
      return new JudgeHttpClient(connectTimeout, readTimeout);
    }
  }
}
