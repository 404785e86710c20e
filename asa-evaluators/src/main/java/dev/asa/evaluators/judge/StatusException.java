package dev.asa.evaluators.judge;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;
import java.util.Optional;

/**
 * An HTTP error answer from the judge's server, with its Retry-After. LangChain4j's own {@link
 * HttpException} keeps only the status and body, and a rate-limited server's Retry-After is the one
 * piece of advice worth following.
 */
final class StatusException extends HttpException {

  private final transient Duration retryAfter;

  StatusException(int statusCode, String body, Duration retryAfter) {
    super(statusCode, body);
    this.retryAfter = retryAfter;
  }

  Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
