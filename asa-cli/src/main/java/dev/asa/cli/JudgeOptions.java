package dev.asa.cli;

import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.Price;
import java.net.URI;
import java.util.List;

/**
 * The LLM judge on the command line, for {@code serve} and {@code verify}: {@code --judge
 * openai|anthropic} with its URL, model and the environment variable holding the API key.
 */
final class JudgeOptions {
  private JudgeOptions() {}

  static List<Option> options() {
    return List.of(
        Option.value(
            "--judge",
            "openai|anthropic",
            "an LLM judge: OpenAI-compatible chat completions (also Ollama, vLLM, llama.cpp) or the Anthropic Messages API"),
        Option.value(
            "--judge-url",
            "URL",
            "the judge's base URL (default https://api.openai.com/v1 or https://api.anthropic.com/v1)"),
        Option.value(
            "--judge-model", "M", "the judge's model, e.g. gpt-4o-mini or claude-sonnet-4-5"),
        Option.value(
            "--judge-key-env",
            "VAR",
            "environment variable with the API key (default OPENAI_API_KEY or ANTHROPIC_API_KEY; unset is fine for local servers)"),
        Option.flag(
            "--judge-free",
            "the judge costs nothing (a local model): no price needed for max_cost_usd"));
  }

  /** The judge the options describe, or null without {@code --judge}. */
  static JudgeConfig config(Arguments args, Session session) throws UsageException {
    if (!args.has("--judge")) {
      for (String dependent : List.of("--judge-url", "--judge-model", "--judge-key-env")) {
        if (args.has(dependent)) {
          throw new UsageException(dependent + " needs --judge openai|anthropic");
        }
      }
      return null;
    }
    String provider = args.value("--judge");
    boolean anthropic;
    switch (provider) {
      case "openai" -> anthropic = false;
      case "anthropic" -> anthropic = true;
      default ->
          throw new UsageException("--judge must be openai or anthropic, not '" + provider + "'");
    }
    if (!args.has("--judge-model")) {
      throw new UsageException(
          "--judge needs --judge-model, e.g. " + (anthropic ? "claude-sonnet-4-5" : "gpt-4o-mini"));
    }
    String url =
        args.value(
            "--judge-url",
            anthropic ? "https://api.anthropic.com/v1" : "https://api.openai.com/v1");
    try {
      URI uri = URI.create(url);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new IllegalArgumentException();
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--judge-url must be an http(s) URL such as http://127.0.0.1:11434/v1, not '"
              + url
              + "'");
    }
    String keyVariable =
        args.value("--judge-key-env", anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
    String key = session.env(keyVariable);
    String model = args.value("--judge-model");
    JudgeConfig config =
        anthropic
            ? JudgeConfig.anthropic(url, key == null ? "" : key, model)
            : JudgeConfig.openAi(url, key == null ? "" : key, model);
    return args.flag("--judge-free") ? config.withPrice(Price.FREE) : config;
  }
}
