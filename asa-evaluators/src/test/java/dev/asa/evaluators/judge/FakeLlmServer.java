package dev.asa.evaluators.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A scriptable LLM server for tests, on 127.0.0.1 and a random port, speaking the real wire
 * formats: OpenAI chat completions ({@code POST /v1/chat/completions} or {@code /chat/completions})
 * and the Anthropic Messages API ({@code POST /v1/messages} or {@code /messages}).
 *
 * <p>Each request is answered by the next queued {@link Behaviour}, or by the default one when the
 * queue is empty (at first a 500 saying nothing was scripted). Every request is recorded before it
 * is answered, so tests can assert prompts, headers and model names, and that nothing was sent.
 *
 * <pre>{@code
 * try (FakeLlmServer llm = FakeLlmServer.start()) {
 *   llm.enqueue(Behaviour.rateLimited(Duration.ofSeconds(1)))
 *      .byDefault(Behaviour.replyWith(req -> req.allText().contains("X") ? HIGH : LOW));
 *   JudgeConfig config = JudgeConfig.openAi(llm.openAiBaseUrl(), "sk-test", "gpt-4o");
 *   ...
 *   assertThat(llm.requests()).hasSize(2);
 * }
 * }</pre>
 */
public final class FakeLlmServer implements AutoCloseable {

  /** How one request is answered. */
  public sealed interface Behaviour permits Reply, Refusal, Status, Raw, Delayed {

    /** 200 with this text as the assistant's content; token usage estimated from the lengths. */
    static Behaviour reply(String content) {
      return new Reply(request -> content, null, null);
    }

    /** 200 with this content and exactly these token counts in {@code usage}. */
    static Behaviour reply(String content, long inputTokens, long outputTokens) {
      return new Reply(request -> content, inputTokens, outputTokens);
    }

    /** 200 with content computed from the request (e.g. a score depending on the deliverable). */
    static Behaviour replyWith(Function<Request, String> content) {
      return new Reply(content, null, null);
    }

    /** 200 whose content is cut-off JSON. */
    static Behaviour malformed() {
      return reply("{\"dimensions\": [{\"name\": \"accuracy\", \"score\": 8");
    }

    /**
     * A refusal as each API expresses it: OpenAI's {@code message.refusal} with null content;
     * Anthropic's {@code stop_reason: "refusal"}.
     */
    static Behaviour refusal(String why) {
      return new Refusal(why);
    }

    /** This HTTP status with an error body in the endpoint's format. */
    static Behaviour status(int status, String message) {
      return new Status(status, message, null);
    }

    /** 429 with {@code Retry-After} in whole seconds (none when null). */
    static Behaviour rateLimited(Duration retryAfter) {
      return new Status(429, "Rate limit reached", retryAfter);
    }

    /**
     * Exactly this status and body, whatever the endpoint (a proxy's HTML page, a broken server).
     */
    static Behaviour raw(int status, String contentType, String body) {
      return new Raw(status, contentType, body);
    }

    /** Waits, then behaves as {@code then}: longer than the client's timeout, it is a timeout. */
    static Behaviour delayed(Duration delay, Behaviour then) {
      return new Delayed(delay, then);
    }
  }

  public record Reply(Function<Request, String> content, Long inputTokens, Long outputTokens)
      implements Behaviour {}

  public record Refusal(String why) implements Behaviour {}

  public record Status(int status, String message, Duration retryAfter) implements Behaviour {}

  public record Raw(int status, String contentType, String body) implements Behaviour {}

  public record Delayed(Duration delay, Behaviour then) implements Behaviour {}

  /**
   * One received request.
   *
   * @param path the request path
   * @param headers by lower-case name
   * @param body the raw body
   * @param json the body parsed (an empty object if it was not JSON)
   */
  public record Request(
      String path, Map<String, List<String>> headers, String body, JsonNode json) {

    public boolean isAnthropic() {
      return path.endsWith("/messages");
    }

    /** The first value of a header (case-insensitive name), or null. */
    public String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    public String model() {
      return json.path("model").asText(null);
    }

    /** The system prompt: OpenAI's system message(s), or Anthropic's {@code system} field. */
    public String system() {
      if (isAnthropic()) {
        return text(json.get("system"));
      }
      StringBuilder out = new StringBuilder();
      for (JsonNode m : json.path("messages")) {
        if ("system".equals(m.path("role").asText())) {
          out.append(text(m.get("content")));
        }
      }
      return out.toString();
    }

    /** The text of every non-system message, in order. */
    public List<String> messages() {
      List<String> out = new ArrayList<>();
      for (JsonNode m : json.path("messages")) {
        if (!"system".equals(m.path("role").asText())) {
          out.add(m.path("role").asText() + ": " + text(m.get("content")));
        }
      }
      return out;
    }

    /** The last user message's text. */
    public String lastUserText() {
      String last = "";
      for (JsonNode m : json.path("messages")) {
        if ("user".equals(m.path("role").asText())) {
          last = text(m.get("content"));
        }
      }
      return last;
    }

    /** System prompt and all messages, for "does the prompt contain X" assertions. */
    public String allText() {
      return system() + "\n" + String.join("\n", messages());
    }

    /** A string, or an array of {@code {"type":"text","text":...}} blocks. */
    private static String text(JsonNode content) {
      if (content == null || content.isNull()) {
        return "";
      }
      if (content.isTextual()) {
        return content.asText();
      }
      StringBuilder out = new StringBuilder();
      for (JsonNode block : content) {
        out.append(block.path("text").asText(""));
      }
      return out.toString();
    }
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final HttpServer server;
  private final ExecutorService executor;
  private final ConcurrentLinkedDeque<Behaviour> queue = new ConcurrentLinkedDeque<>();
  private final AtomicReference<Behaviour> fallback =
      new AtomicReference<>(
          Behaviour.status(500, "FakeLlmServer: nothing scripted for this request"));
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();

  private FakeLlmServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static FakeLlmServer start() {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      // One thread per exchange: a delayed answer must not hold up the client's retry.
      ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
      FakeLlmServer fake = new FakeLlmServer(server, executor);
      server.createContext("/", fake::handle);
      server.setExecutor(executor);
      server.start();
      return fake;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>} */
  public String baseUrl() {
    return "http://"
        + server.getAddress().getAddress().getHostAddress()
        + ":"
        + server.getAddress().getPort();
  }

  /** The base URL an OpenAI-compatible client is given: {@code http://127.0.0.1:<port>/v1}. */
  public String openAiBaseUrl() {
    return baseUrl() + "/v1";
  }

  /** The base URL an Anthropic client is given: {@code http://127.0.0.1:<port>/v1/}. */
  public String anthropicBaseUrl() {
    return baseUrl() + "/v1/";
  }

  /** Answers the next requests with these, in order. */
  public FakeLlmServer enqueue(Behaviour... behaviours) {
    queue.addAll(List.of(behaviours));
    return this;
  }

  /** Answers with this once the queue is empty. */
  public FakeLlmServer byDefault(Behaviour behaviour) {
    fallback.set(behaviour);
    return this;
  }

  /** Every request received so far, in order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public Request lastRequest() {
    List<Request> all = requests();
    if (all.isEmpty()) {
      throw new IllegalStateException("no request received");
    }
    return all.get(all.size() - 1);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ------------------------------------------------------------------ serving

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      boolean openAi = path.equals("/v1/chat/completions") || path.equals("/chat/completions");
      boolean anthropic = path.equals("/v1/messages") || path.equals("/messages");
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!"POST".equals(exchange.getRequestMethod()) || !(openAi || anthropic)) {
        send(
            exchange,
            404,
            error(
                anthropic,
                404,
                "FakeLlmServer: no such endpoint " + exchange.getRequestMethod() + " " + path),
            null);
        return;
      }
      Map<String, List<String>> headers = new TreeMap<>();
      exchange
          .getRequestHeaders()
          .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
      JsonNode json;
      try {
        json = Json.parse(body);
      } catch (IOException notJson) {
        json = NODES.objectNode();
      }
      Request request = new Request(path, Collections.unmodifiableMap(headers), body, json);
      requests.add(request);
      Behaviour behaviour = queue.poll();
      respond(exchange, request, behaviour == null ? fallback.get() : behaviour);
    } catch (IOException clientGone) {
      // The client timed out and closed the connection: exactly what a delay test provokes.
    }
  }

  private void respond(HttpExchange exchange, Request request, Behaviour behaviour)
      throws IOException {
    boolean anthropic = request.isAnthropic();
    switch (behaviour) {
      case Delayed d -> {
        try {
          Thread.sleep(d.delay());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return; // the server is closing
        }
        respond(exchange, request, d.then());
      }
      case Status s ->
          send(exchange, s.status(), error(anthropic, s.status(), s.message()), s.retryAfter());
      case Raw r -> send(exchange, r.status(), r.contentType(), r.body(), null);
      case Refusal r ->
          send(
              exchange,
              200,
              anthropic
                  ? anthropicMessage(request, null, r.why(), null, null)
                  : openAiCompletion(request, null, r.why(), null, null),
              null);
      case Reply r -> {
        String content = r.content().apply(request);
        String answer =
            anthropic
                ? anthropicMessage(request, content, null, r.inputTokens(), r.outputTokens())
                : openAiCompletion(request, content, null, r.inputTokens(), r.outputTokens());
        send(exchange, 200, answer, null);
      }
    }
  }

  private String openAiCompletion(
      Request request, String content, String refusal, Long in, Long out) {
    ObjectNode root = NODES.objectNode();
    root.put("id", "chatcmpl-fake-" + ids.incrementAndGet());
    root.put("object", "chat.completion");
    root.put("created", System.currentTimeMillis() / 1000);
    root.put("model", request.model() == null ? "fake" : request.model());
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    message.put("content", content);
    message.put("refusal", refusal);
    choice.put("finish_reason", "stop");
    ObjectNode usage = root.putObject("usage");
    long prompt = in != null ? in : estimate(request.body());
    long completion = out != null ? out : estimate(content == null ? refusal : content);
    usage.put("prompt_tokens", prompt);
    usage.put("completion_tokens", completion);
    usage.put("total_tokens", prompt + completion);
    return root.toString();
  }

  private String anthropicMessage(
      Request request, String content, String refusal, Long in, Long out) {
    ObjectNode root = NODES.objectNode();
    root.put("id", "msg_fake_" + ids.incrementAndGet());
    root.put("type", "message");
    root.put("role", "assistant");
    ArrayNode blocks = root.putArray("content");
    if (content != null) {
      blocks.addObject().put("type", "text").put("text", content);
    }
    root.put("model", request.model() == null ? "fake" : request.model());
    root.put("stop_reason", refusal != null ? "refusal" : "end_turn");
    root.putNull("stop_sequence");
    ObjectNode usage = root.putObject("usage");
    usage.put("input_tokens", in != null ? in : estimate(request.body()));
    usage.put("output_tokens", out != null ? out : estimate(content == null ? refusal : content));
    return root.toString();
  }

  private static String error(boolean anthropic, int status, String message) {
    ObjectNode root = NODES.objectNode();
    if (anthropic) {
      root.put("type", "error");
      root.putObject("error")
          .put("type", status == 429 ? "rate_limit_error" : "api_error")
          .put("message", message);
    } else {
      ObjectNode error = root.putObject("error");
      error.put("message", message);
      error.put("type", status == 429 ? "rate_limit_exceeded" : "server_error");
      error.putNull("code");
    }
    return root.toString();
  }

  private static long estimate(String text) {
    return text == null ? 0 : (text.length() + 3) / 4;
  }

  private static void send(HttpExchange exchange, int status, String json, Duration retryAfter)
      throws IOException {
    send(exchange, status, "application/json", json, retryAfter);
  }

  private static void send(
      HttpExchange exchange, int status, String contentType, String body, Duration retryAfter)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (retryAfter != null) {
      exchange.getResponseHeaders().set("Retry-After", Long.toString(retryAfter.toSeconds()));
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
