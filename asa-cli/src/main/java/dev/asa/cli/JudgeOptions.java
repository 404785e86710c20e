package dev.asa.cli;

import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.Price;
import java.net.URI;
import picocli.CommandLine.Option;

/**
 * The LLM judge on the command line, for {@code serve} and {@code verify}: {@code --judge
 * openai|anthropic} with its URL, model and the environment variable holding the API key.
 */
final class JudgeOptions {

  @Option(
      names = "--judge",
      paramLabel = "openai|anthropic",
      description =
          "an LLM judge: OpenAI-compatible chat completions (also Ollama, vLLM, llama.cpp) or the"
              + " Anthropic Messages API")
  String judge;

  @Option(
      names = "--judge-url",
      paramLabel = "URL",
      description =
          "the judge's base URL (default https://api.openai.com/v1 or https://api.anthropic.com/v1)")
  String url;

  @Option(
      names = "--judge-model",
      paramLabel = "M",
      description = "the judge's model, e.g. gpt-4o-mini or claude-sonnet-4-5")
  String model;

  @Option(
      names = "--judge-key-env",
      paramLabel = "VAR",
      description =
          "environment variable with the API key (default OPENAI_API_KEY or ANTHROPIC_API_KEY;"
              + " unset is fine for local servers)")
  String keyEnv;

  @Option(
      names = "--judge-free",
      description = "the judge costs nothing (a local model): no price needed for max_cost_usd")
  boolean free;

  /** The first judge option given, or null when none is. */
  String given() {
    return judge != null
        ? "--judge"
        : url != null
            ? "--judge-url"
            : model != null ? "--judge-model" : keyEnv != null ? "--judge-key-env" : null;
  }

  /** The judge the options describe, or null without {@code --judge}. */
  JudgeConfig config(Session session) throws UsageException {
    if (judge == null) {
      String dependent = given();
      if (dependent != null) {
        throw new UsageException(dependent + " needs --judge openai|anthropic");
      }
      return null;
    }
    boolean anthropic;
    switch (judge) {
      case "openai" -> anthropic = false;
      case "anthropic" -> anthropic = true;
      default ->
          throw new UsageException("--judge must be openai or anthropic, not '" + judge + "'");
    }
    if (model == null) {
      throw new UsageException(
          "--judge needs --judge-model, e.g. " + (anthropic ? "claude-sonnet-4-5" : "gpt-4o-mini"));
    }
    String base =
        url != null
            ? url
            : anthropic ? "https://api.anthropic.com/v1" : "https://api.openai.com/v1";
    try {
      URI uri = URI.create(base);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new IllegalArgumentException();
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--judge-url must be an http(s) URL such as http://127.0.0.1:11434/v1, not '"
              + base
              + "'");
    }
    String keyVariable =
        keyEnv != null ? keyEnv : anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    String key = session.env(keyVariable);
    JudgeConfig config =
        anthropic
            ? JudgeConfig.anthropic(base, key == null ? "" : key, model)
            : JudgeConfig.openAi(base, key == null ? "" : key, model);
    return free ? config.withPrice(Price.FREE) : config;
  }
}
