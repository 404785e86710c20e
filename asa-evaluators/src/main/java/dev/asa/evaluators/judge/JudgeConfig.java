package dev.asa.evaluators.judge;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach one judge model.
 *
 * @param provider the wire format: OpenAI chat completions (also Ollama, vLLM, llama.cpp and other
 *     compatible servers) or the Anthropic Messages API
 * @param baseUrl e.g. {@code https://api.openai.com/v1}, {@code http://localhost:11434/v1}, {@code
 *     https://api.anthropic.com/v1/}
 * @param apiKey the key; empty for local servers that need none (never null)
 * @param model the model name as the server knows it
 * @param timeout how long one HTTP call may take
 * @param maxAttempts how many times one call is tried when the server answers 429 or 5xx or times
 *     out (1 = no retry)
 * @param retryBaseDelay the first backoff delay; later ones double, with jitter. Retry-After, when
 *     the server sends it, wins.
 * @param maxOutputTokens the most the judge may write per call; also the output side of the cost
 *     estimate
 * @param price what the model costs; null to use {@link PriceTable}, {@link Price#FREE} for a local
 *     model. With neither, the cost is unknown and a request with a cost cap is refused.
 */
public record JudgeConfig(
    Provider provider,
    String baseUrl,
    String apiKey,
    String model,
    Duration timeout,
    int maxAttempts,
    Duration retryBaseDelay,
    int maxOutputTokens,
    Price price) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
  public static final int DEFAULT_MAX_ATTEMPTS = 3;
  public static final Duration DEFAULT_RETRY_BASE_DELAY = Duration.ofSeconds(1);
  public static final int DEFAULT_MAX_OUTPUT_TOKENS = 2048;

  /** The two wire formats LangChain4j speaks for us. */
  public enum Provider {
    OPENAI,
    ANTHROPIC;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Provider fromWire(String name) {
      return switch (name.strip().toLowerCase(Locale.ROOT)) {
        case "openai" -> OPENAI;
        case "anthropic" -> ANTHROPIC;
        default ->
            throw new IllegalArgumentException(
                "unknown judge provider '" + name + "'; use openai or anthropic");
      };
    }
  }

  public JudgeConfig {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(baseUrl, "baseUrl");
    URI uri = URI.create(baseUrl);
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      throw new IllegalArgumentException(
          "judge base URL must be http or https, got '" + baseUrl + "'");
    }
    apiKey = apiKey == null ? "" : apiKey;
    Objects.requireNonNull(model, "model");
    if (model.isBlank()) {
      throw new IllegalArgumentException("judge model name is empty");
    }
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("judge timeout must be positive");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("judge maxAttempts must be at least 1");
    }
    Objects.requireNonNull(retryBaseDelay, "retryBaseDelay");
    if (retryBaseDelay.isNegative()) {
      throw new IllegalArgumentException("judge retryBaseDelay cannot be negative");
    }
    if (maxOutputTokens < 256) {
      throw new IllegalArgumentException(
          "judge maxOutputTokens must be at least 256 to fit the JSON answer");
    }
  }

  /** An OpenAI-compatible judge with the default timeout, attempts and output budget. */
  public static JudgeConfig openAi(String baseUrl, String apiKey, String model) {
    return new JudgeConfig(
        Provider.OPENAI,
        baseUrl,
        apiKey,
        model,
        DEFAULT_TIMEOUT,
        DEFAULT_MAX_ATTEMPTS,
        DEFAULT_RETRY_BASE_DELAY,
        DEFAULT_MAX_OUTPUT_TOKENS,
        null);
  }

  /** An Anthropic Messages API judge with the default timeout, attempts and output budget. */
  public static JudgeConfig anthropic(String baseUrl, String apiKey, String model) {
    return new JudgeConfig(
        Provider.ANTHROPIC,
        baseUrl,
        apiKey,
        model,
        DEFAULT_TIMEOUT,
        DEFAULT_MAX_ATTEMPTS,
        DEFAULT_RETRY_BASE_DELAY,
        DEFAULT_MAX_OUTPUT_TOKENS,
        null);
  }

  public JudgeConfig withTimeout(Duration t) {
    return new JudgeConfig(
        provider, baseUrl, apiKey, model, t, maxAttempts, retryBaseDelay, maxOutputTokens, price);
  }

  public JudgeConfig withRetries(int attempts, Duration baseDelay) {
    return new JudgeConfig(
        provider, baseUrl, apiKey, model, timeout, attempts, baseDelay, maxOutputTokens, price);
  }

  public JudgeConfig withMaxOutputTokens(int tokens) {
    return new JudgeConfig(
        provider, baseUrl, apiKey, model, timeout, maxAttempts, retryBaseDelay, tokens, price);
  }

  public JudgeConfig withPrice(Price p) {
    return new JudgeConfig(
        provider, baseUrl, apiKey, model, timeout, maxAttempts, retryBaseDelay, maxOutputTokens, p);
  }

  /** The configured price, else the list price; empty when the cost cannot be known. */
  public Optional<Price> effectivePrice() {
    return price != null ? Optional.of(price) : PriceTable.lookup(model);
  }

  /** The evaluator id: {@code openai/gpt-4o}, {@code anthropic/claude-sonnet-4-5}. */
  public String evaluatorId() {
    return provider.wireName() + "/" + model;
  }

  /** Never prints the key. */
  @Override
  public String toString() {
    return "JudgeConfig["
        + evaluatorId()
        + " at "
        + baseUrl
        + ", key "
        + (apiKey.isEmpty() ? "none" : "set")
        + ", timeout "
        + timeout
        + ", attempts "
        + maxAttempts
        + "]";
  }
}
