package dev.asa.evaluators.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationException.Reason;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.Progress;
import dev.asa.json.Json;
import dev.asa.scoring.DimensionInput;
import dev.asa.text.ModelNames;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicChatResponseMetadata;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Semantic verification by an LLM judge (whitepaper 5.3, Agent-as-a-Judge), over the OpenAI chat
 * completions wire format (OpenAI, Ollama, vLLM, llama.cpp...) or the Anthropic Messages API.
 *
 * <p>One call scores all the dimensions it judges. The deliverable is most of the tokens, so one
 * call per dimension would multiply the cost by the number of dimensions for the same reading; each
 * dimension still has its own rubric and its own score, evidence and confidence, and the evaluation
 * stays pointwise (one deliverable, never a comparison: position bias, 5.6).
 *
 * <p>What it refuses rather than guesses:
 *
 * <ul>
 *   <li>its own model's work ({@link Reason#SELF_JUDGING}, self-enhancement bias, 5.6);
 *   <li>a cost cap it would exceed, or cannot check because the model's price is unknown ({@link
 *       Reason#COST_CAP}, before anything is sent);
 *   <li>an answer that is not the JSON contract, twice, or a refusal ({@link
 *       Reason#UNUSABLE_OUTPUT});
 *   <li>a server that keeps failing or rejects the request ({@link Reason#UNAVAILABLE}).
 * </ul>
 *
 * <p>Timeliness and format compliance are measured by the structural evaluator, and count or
 * duration metrics are not opinions; those dimensions come back not evaluated, with the reason.
 *
 * <p>Immutable and thread-safe.
 */
public final class LlmJudge implements Evaluator {

  public static final String TYPE = "agent_as_judge";

  /** The shadow metric the spot-checks measure, on the accuracy dimension. */
  public static final String HALLUCINATION_RATE = "hallucination_rate";

  /**
   * A score read from a second, corrected answer is less trustworthy than one the judge got right
   * the first time: the judge has shown it is not following the contract closely. Its stated
   * confidence is scaled by this factor.
   */
  static final BigDecimal SECOND_ATTEMPT_CONFIDENCE = new BigDecimal("0.8");

  /**
   * Sent with an empty key: LangChain4j's Anthropic client insists on one; local servers ignore it.
   */
  private static final String NO_KEY = "none";

  private static final int STEPS = 3;

  private final JudgeConfig config;
  private final ChatCall call;

  private LlmJudge(JudgeConfig config, ChatModel model) {
    this.config = config;
    this.call = new ChatCall(model, config);
  }

  /** A judge for this configuration. Nothing is sent until {@link #evaluate}. */
  public static LlmJudge create(JudgeConfig config) {
    Objects.requireNonNull(config, "config");
    return new LlmJudge(config, chatModel(config));
  }

  private static ChatModel chatModel(JudgeConfig config) {
    return switch (config.provider()) {
      case OPENAI -> {
        OpenAiChatModel.OpenAiChatModelBuilder b =
            OpenAiChatModel.builder()
                .httpClientBuilder(JudgeHttpClient.builder())
                .baseUrl(config.baseUrl())
                // No Authorization header at all for local servers that need no key.
                .apiKey(config.apiKey().isEmpty() ? null : config.apiKey())
                .modelName(config.model())
                .timeout(config.timeout())
                .maxRetries(0) // the retry policy is ChatCall's
                .temperature(0.0) // a verdict should not depend on the dice
                .responseFormat(ResponseFormat.JSON);
        // OpenAI's own API has deprecated max_tokens in favour of max_completion_tokens; the
        // compatible servers (Ollama, vLLM, llama.cpp) all read max_tokens.
        if ("api.openai.com".equalsIgnoreCase(URI.create(config.baseUrl()).getHost())) {
          b.maxCompletionTokens(config.maxOutputTokens());
        } else {
          b.maxTokens(config.maxOutputTokens());
        }
        yield b.build();
      }
      case ANTHROPIC ->
          AnthropicChatModel.builder()
              .httpClientBuilder(JudgeHttpClient.builder())
              .baseUrl(config.baseUrl())
              .apiKey(config.apiKey().isEmpty() ? NO_KEY : config.apiKey())
              .modelName(config.model())
              .timeout(config.timeout())
              .maxRetries(0)
              .temperature(0.0)
              .maxTokens(config.maxOutputTokens())
              .build();
    };
  }

  public JudgeConfig config() {
    return config;
  }

  /** {@code openai/<model>} or {@code anthropic/<model>}. */
  @Override
  public String id() {
    return config.evaluatorId();
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public boolean runsModel(String providerModel) {
    return providerModel != null
        && !providerModel.isBlank()
        && ModelNames.same(config.model(), providerModel);
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) throws EvaluationException {
    Objects.requireNonNull(task, "task");
    Progress progress = task.progress();
    progress.update("checking the task for " + id(), 0, STEPS);
    String family = family(task.options().rubricId());
    if (runsModel(task.providerModel())) {
      throw new EvaluationException(
          Reason.SELF_JUDGING,
          "the judge model "
              + config.model()
              + " is the provider's own model ("
              + task.providerModel()
              + "); models rate their own output higher, so another judge model must evaluate this deliverable");
    }

    List<Dimension> judged =
        task.criteria().dimensions().stream().filter(d -> notJudgedBecause(d) == null).toList();
    if (judged.isEmpty()) {
      progress.update("nothing for the judge to score", STEPS, STEPS);
      return evaluation(task, null, 1, Evaluation.Usage.FREE, config.model());
    }
    Dimension accuracy = judged.stream().filter(d -> isAccuracy(d.name())).findFirst().orElse(null);
    // Spot-checks inform accuracy; without an accuracy dimension there is nothing for them to
    // inform.
    int spotChecks = accuracy == null ? 0 : task.options().spotCheckClaims();

    JudgePrompt prompt = JudgePrompt.build(task, judged, family, spotChecks);
    Optional<Price> price = config.effectivePrice();
    BigDecimal cap = task.options().maxCostUsd();
    long estimatedInput = prompt.estimatedInputTokens();
    if (cap != null) {
      checkCap(cap, price, estimatedInput, BigDecimal.ZERO, Reason.COST_CAP, "");
    }

    List<ChatMessage> messages =
        new ArrayList<>(
            List.of(SystemMessage.from(prompt.system()), UserMessage.from(prompt.user())));
    progress.update("judging " + names(judged) + " with " + id(), 1, STEPS);
    ChatResponse first = call.send(messages, progress, 1, STEPS);
    Evaluation.Usage usage = usage(first, estimatedInput, price);
    String firstText = answerText(first);
    progress.update("checking the judge's answer", 2, STEPS);
    JudgeReply.Parsed parsed = JudgeReply.parse(firstText, judged, spotChecks);
    if (parsed instanceof JudgeReply.Ok ok) {
      progress.update("judged " + names(judged), STEPS, STEPS);
      return evaluation(task, ok.reply(), 1, usage, modelOf(first));
    }

    List<String> problems = new ArrayList<>(((JudgeReply.Problems) parsed).problems());
    if (first.finishReason() == FinishReason.LENGTH) {
      problems.add("the answer was cut off at the output limit; keep the evidence shorter");
    }
    String correction =
        "Your answer could not be used: "
            + String.join("; ", problems)
            + ". Reply again with only the JSON object"
            + " described in the instructions, with exactly one entry for each of: "
            + names(judged)
            + ".";
    messages.add(AiMessage.from(firstText == null || firstText.isBlank() ? "(empty)" : firstText));
    messages.add(UserMessage.from(correction));
    long secondInput = messages.stream().mapToLong(m -> JudgePrompt.tokens(textOf(m))).sum();
    if (cap != null) {
      // Something has been spent already, so this is not COST_CAP ("nothing was sent"): the
      // evaluation failed for want of a usable answer, and the cap forbids asking again.
      checkCap(
          cap,
          price,
          secondInput,
          usage.costUsd(),
          Reason.UNUSABLE_OUTPUT,
          "the judge's first answer was unusable ("
              + String.join("; ", problems)
              + ") and a second attempt cannot fit: ");
    }
    progress.update("the judge's answer was unusable; asking once more", 2, STEPS);
    ChatResponse second = call.send(messages, progress, 2, STEPS);
    usage = usage.plus(usage(second, secondInput, price));
    JudgeReply.Parsed again = JudgeReply.parse(answerText(second), judged, spotChecks);
    if (again instanceof JudgeReply.Ok ok) {
      progress.update("judged " + names(judged) + " (second attempt)", STEPS, STEPS);
      return evaluation(task, ok.reply(), 2, usage, modelOf(second));
    }
    throw new EvaluationException(
        Reason.UNUSABLE_OUTPUT,
        "the judge "
            + id()
            + " answered twice without the required JSON: first "
            + String.join("; ", problems)
            + "; then "
            + String.join("; ", ((JudgeReply.Problems) again).problems())
            + ". No score is guessed; retry later or use another judge model");
  }

  // ------------------------------------------------------------------ pieces

  /** The rubric family the request names, checked; null for the deliverable type's default. */
  private static String family(String rubricId) throws EvaluationException {
    if (rubricId == null || rubricId.isBlank()) {
      return null;
    }
    if (!Rubrics.FAMILIES.contains(rubricId)) {
      throw new EvaluationException(
          Reason.INVALID_TASK,
          "unknown rubric_id '"
              + rubricId
              + "'; this judge knows "
              + String.join(", ", Rubrics.FAMILIES)
              + " (or omit it for the deliverable type's default)");
    }
    return rubricId;
  }

  /** Why the judge leaves a dimension to others, or null when it scores it. */
  private static String notJudgedBecause(Dimension d) {
    if (Rubrics.isStructural(d.name())) {
      return d.name()
          + " is measured by the structural evaluator (delivery time, format and schema checks), not judged by a model";
    }
    if (d.metric() == MetricType.COUNT || d.metric() == MetricType.DURATION_SECONDS) {
      return d.name()
          + " is a "
          + d.metric().wireName()
          + ", which is measured, not judged; the LLM judge scores only"
          + " percentage, score and boolean dimensions";
    }
    return null;
  }

  private static boolean isAccuracy(String name) {
    return Rubrics.known(name).map(r -> r.dimension().equals("accuracy")).orElse(false);
  }

  private void checkCap(
      BigDecimal cap,
      Optional<Price> price,
      long inputTokens,
      BigDecimal spent,
      Reason reason,
      String context)
      throws EvaluationException {
    if (price.isEmpty()) {
      throw new EvaluationException(
          reason,
          context
              + "the cost of "
              + id()
              + " cannot be estimated: the model is not in the price table and no price is"
              + " configured, so max_cost_usd "
              + cap.toPlainString()
              + " cannot be guaranteed (configure a price,"
              + " Price.FREE for a local model, or send no cap)");
    }
    BigDecimal estimate = spent.add(price.get().cost(inputTokens, config.maxOutputTokens()));
    if (estimate.compareTo(cap) > 0) {
      throw new EvaluationException(
          reason,
          context
              + "the estimated cost of "
              + id()
              + " is $"
              + estimate.toPlainString()
              + " (about "
              + inputTokens
              + " input tokens, counted as characters / "
              + JudgePrompt.CHARACTERS_PER_TOKEN
              + ", plus up to "
              + config.maxOutputTokens()
              + " output tokens"
              + (spent.signum() > 0 ? ", plus $" + spent.toPlainString() + " already spent" : "")
              + "), above max_cost_usd "
              + cap.toPlainString()
              + "; nothing more was sent");
    }
  }

  /**
   * Usage from the server's token counts. A server that reports none (some local ones) is billed at
   * the estimate: characters / 4 of what was sent and of the answer.
   */
  private Evaluation.Usage usage(
      ChatResponse response, long estimatedInput, Optional<Price> price) {
    TokenUsage tokens = response.tokenUsage();
    long in =
        tokens != null && tokens.inputTokenCount() != null
            ? tokens.inputTokenCount()
            : estimatedInput;
    String text =
        response.aiMessage() == null || response.aiMessage().text() == null
            ? ""
            : response.aiMessage().text();
    long out =
        tokens != null && tokens.outputTokenCount() != null
            ? tokens.outputTokenCount()
            : JudgePrompt.tokens(text);
    // An unknown price is reported as zero: the Usage record cannot say "unknown", and a cap was
    // refused up front in that case, so no budget decision rests on this zero.
    BigDecimal cost = price.map(p -> p.cost(in, out)).orElse(BigDecimal.ZERO);
    return new Evaluation.Usage(in, out, cost);
  }

  /** The answer's text, after refusing a refusal (Anthropic's stop_reason, or refusal wording). */
  private String answerText(ChatResponse response) throws EvaluationException {
    String text = response.aiMessage() == null ? null : response.aiMessage().text();
    if ("refusal".equals(anthropicStopReason(response))) {
      throw new EvaluationException(
          Reason.UNUSABLE_OUTPUT,
          "the judge " + id() + " refused to evaluate (stop_reason refusal)" + quoted(text));
    }
    if (response.finishReason() == FinishReason.CONTENT_FILTER) {
      throw new EvaluationException(
          Reason.UNUSABLE_OUTPUT,
          "the judge " + id() + "'s answer was withheld by its content filter");
    }
    if (text != null && JudgeReply.looksLikeRefusal(text)) {
      throw new EvaluationException(
          Reason.UNUSABLE_OUTPUT, "the judge " + id() + " refused to evaluate" + quoted(text));
    }
    return text;
  }

  /** LangChain4j maps Anthropic's "refusal" to OTHER; the raw answer says what it really was. */
  private static String anthropicStopReason(ChatResponse response) {
    if (!(response.metadata() instanceof AnthropicChatResponseMetadata m)
        || m.rawHttpResponse() == null) {
      return null;
    }
    try {
      JsonNode reason = Json.parse(m.rawHttpResponse().body()).get("stop_reason");
      return reason != null && reason.isTextual() ? reason.asText() : null;
    } catch (Exception unreadable) {
      return null; // LangChain4j has already read it; if we cannot, there is nothing more to learn
    }
  }

  private static String quoted(String text) {
    return text == null || text.isBlank() ? "" : ": \"" + ChatCall.snippet(text) + "\"";
  }

  private String modelOf(ChatResponse response) {
    // The server's name is more precise ("gpt-4o-2024-08-06") for the evidence trail.
    return response.modelName() != null && !response.modelName().isBlank()
        ? response.modelName()
        : config.model();
  }

  private static String textOf(ChatMessage m) {
    return switch (m) {
      case SystemMessage s -> s.text();
      case UserMessage u -> u.singleText();
      case AiMessage a -> a.text() == null ? "" : a.text();
      default -> "";
    };
  }

  private static String names(List<Dimension> dimensions) {
    return dimensions.stream().map(Dimension::name).collect(Collectors.joining(", "));
  }

  /** One input per dimension of the criteria, in their order. */
  private Evaluation evaluation(
      EvaluationTask task, JudgeReply reply, int attempt, Evaluation.Usage usage, String model) {
    Map<String, DimensionInput> dimensions = new LinkedHashMap<>();
    for (Dimension d : task.criteria().dimensions()) {
      String why = notJudgedBecause(d);
      if (why != null) {
        dimensions.put(d.name(), DimensionInput.notEvaluated(d.name(), why));
        continue;
      }
      JudgeReply.Score s = reply.scores().get(d.name());
      BigDecimal confidence = s.confidence();
      if (attempt > 1) {
        confidence = confidence.multiply(SECOND_ATTEMPT_CONFIDENCE);
      }
      confidence = confidence.setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
      String evidence = s.evidence();
      DimensionInput input;
      if (isAccuracy(d.name()) && !reply.claims().isEmpty()) {
        evidence = evidence + " " + SpotChecks.summary(reply.claims());
        input = DimensionInput.scored(d.name(), s.score(), evidence, confidence, id());
        if (HALLUCINATION_RATE.equals(d.shadowMetric())) {
          input =
              input.withShadow(
                  SpotChecks.hallucinationRate(reply.claims()),
                  SpotChecks.rateEvidence(reply.claims()));
        }
      } else {
        input = DimensionInput.scored(d.name(), s.score(), evidence, confidence, id());
      }
      dimensions.put(d.name(), input);
    }
    return new Evaluation(id(), TYPE, model, dimensions, Map.of(), usage);
  }
}
