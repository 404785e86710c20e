package dev.asa.evaluators.judge;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationException.Reason;
import dev.asa.evaluators.Progress;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One chat call with the judge's retry policy: 429, 408, 5xx, timeouts and dropped connections are
 * retried with exponential backoff and jitter (or after the server's Retry-After), up to the
 * configured attempts; any other error fails at once. LangChain4j's own retries are off, so this is
 * the only policy in play and its attempts are the real number of requests.
 */
final class ChatCall {

  /**
   * A Retry-After longer than this is not waited for: the verification would stall for longer than
   * it is worth.
   */
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

  /** Cap of the computed backoff. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  private final ChatModel model;
  private final JudgeConfig config;

  ChatCall(ChatModel model, JudgeConfig config) {
    this.model = model;
    this.config = config;
  }

  /** A failed attempt, classified. */
  private record Failure(boolean retryable, boolean refusal, String what, Duration retryAfter) {}

  ChatResponse send(List<ChatMessage> messages, Progress progress, int step, int steps)
      throws EvaluationException {
    String server = config.evaluatorId() + " at " + config.baseUrl();
    for (int attempt = 1; ; attempt++) {
      Failure failure;
      RuntimeException error;
      try {
        return model.chat(messages);
      } catch (RuntimeException e) {
        error = e;
        failure = classify(e);
      }
      if (failure.refusal()) {
        throw new EvaluationException(
            Reason.UNUSABLE_OUTPUT,
            "the judge " + config.evaluatorId() + " refused: " + failure.what(),
            error);
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new EvaluationException(
            Reason.UNAVAILABLE, "interrupted while calling the judge " + server, error);
      }
      if (!failure.retryable()) {
        throw new EvaluationException(
            Reason.UNAVAILABLE,
            "the judge " + server + " failed: " + failure.what() + " (not retried)",
            error);
      }
      if (attempt >= config.maxAttempts()) {
        throw new EvaluationException(
            Reason.UNAVAILABLE,
            "the judge "
                + server
                + " is unavailable: "
                + failure.what()
                + ", "
                + attempt
                + (attempt == 1 ? " attempt" : " attempts")
                + "; try again later",
            error);
      }
      if (failure.retryAfter() != null && failure.retryAfter().compareTo(MAX_RETRY_AFTER) > 0) {
        throw new EvaluationException(
            Reason.UNAVAILABLE,
            "the judge "
                + server
                + " is unavailable: "
                + failure.what()
                + " and asked to retry after "
                + failure.retryAfter().toSeconds()
                + " s, longer than the "
                + MAX_RETRY_AFTER.toSeconds()
                + " s the judge waits",
            error);
      }
      Duration wait = delay(attempt, failure.retryAfter());
      progress.update(
          failure.what()
              + "; retrying in "
              + millis(wait)
              + " (attempt "
              + (attempt + 1)
              + " of "
              + config.maxAttempts()
              + ")",
          step,
          steps);
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EvaluationException(
            Reason.UNAVAILABLE, "interrupted while waiting to retry the judge " + server, e);
      }
    }
  }

  /**
   * Exponential backoff with "equal jitter": half the doubled delay fixed, half random, so that
   * judges retrying the same rate limit spread out but never retry at once. The server's
   * Retry-After is a floor.
   */
  Duration delay(int attempt, Duration retryAfter) {
    long base = config.retryBaseDelay().toMillis();
    long doubled = Math.min(MAX_BACKOFF.toMillis(), base << Math.min(attempt - 1, 20));
    long jittered =
        doubled / 2
            + (doubled / 2 == 0 ? 0 : ThreadLocalRandom.current().nextLong(doubled / 2 + 1));
    long floor = retryAfter == null ? 0 : retryAfter.toMillis();
    return Duration.ofMillis(Math.max(jittered, floor));
  }

  private Failure classify(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ContentFilteredException) {
        return new Failure(
            false,
            true,
            "its answer was a refusal or was filtered (" + snippet(t.getMessage()) + ")",
            null);
      }
      if (t instanceof HttpException http) {
        int status = http.statusCode();
        Duration retryAfter = t instanceof StatusException s ? s.retryAfter().orElse(null) : null;
        String what =
            "HTTP "
                + status
                + statusName(status)
                + snippet(http.getMessage()).transform(m -> m.isEmpty() ? "" : ": " + m);
        boolean retryable = status == 429 || status == 408 || status >= 500;
        return new Failure(retryable, false, what, retryAfter);
      }
      if (t instanceof TimeoutException || t instanceof HttpTimeoutException) {
        return new Failure(
            true,
            false,
            "no answer within the timeout of " + config.timeout().toSeconds() + " s",
            null);
      }
      if (t instanceof UnresolvedModelServerException) {
        return new Failure(
            false, false, "the host of " + config.baseUrl() + " cannot be resolved", null);
      }
      if (t instanceof InterruptedException) {
        return new Failure(false, false, "interrupted", null);
      }
      if (t instanceof JsonProcessingException) {
        // Jackson's exceptions are IOExceptions, but a 200 whose body is not a chat completion
        // (a proxy's HTML page, another protocol) will not improve on retry.
        return new Failure(
            false,
            false,
            "its answer is not a chat response in the "
                + config.provider().wireName()
                + " format ("
                + snippet(t.getMessage())
                + ")",
            null);
      }
      if (t instanceof IOException io) {
        return new Failure(
            true,
            false,
            "I/O error (" + io.getClass().getSimpleName() + ": " + snippet(io.getMessage()) + ")",
            null);
      }
    }
    // Typically an answer LangChain4j could not read as a chat completion: a wrong base URL that
    // reaches some other service, or a server speaking another protocol. Retrying will not help.
    return new Failure(
        false,
        false,
        "unexpected answer or error ("
            + e.getClass().getSimpleName()
            + ": "
            + snippet(e.getMessage())
            + ")",
        null);
  }

  private static String statusName(int status) {
    return switch (status) {
      case 400 -> " Bad Request";
      case 401 -> " Unauthorized (check the API key)";
      case 403 -> " Forbidden (check the API key's permissions)";
      case 404 -> " Not Found (check the base URL and the model name)";
      case 408 -> " Request Timeout";
      case 413 -> " Payload Too Large";
      case 422 -> " Unprocessable Entity";
      case 429 -> " Too Many Requests";
      case 500 -> " Internal Server Error";
      case 502 -> " Bad Gateway";
      case 503 -> " Service Unavailable";
      case 504 -> " Gateway Timeout";
      case 529 -> " Overloaded";
      default -> "";
    };
  }

  /** Error bodies can be long HTML pages; the first line, shortened, is what a person needs. */
  static String snippet(String message) {
    if (message == null) {
      return "";
    }
    String one = message.strip().replaceAll("\\s+", " ");
    return one.length() <= 200 ? one : one.substring(0, 200) + "...";
  }

  private static String millis(Duration d) {
    return d.toMillis() < 1000
        ? d.toMillis() + " ms"
        : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }
}
