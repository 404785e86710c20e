package dev.asa.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The one JSON configuration of the project.
 *
 * <p>Parsing is strict on purpose: duplicate member names, trailing garbage and absurd nesting are
 * refused, because a document that two parsers read differently cannot be signed safely. Decimals
 * are read as {@link java.math.BigDecimal} so that no value is silently rounded on the way in.
 */
public final class Json {

  /** Deepest nesting accepted in any incoming document. Agreements need fewer than 12 levels. */
  public static final int MAX_NESTING_DEPTH = 64;

  /** Longest string value accepted anywhere (deliverable content has its own, larger limit). */
  public static final int MAX_STRING_LENGTH = 16 * 1024 * 1024;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_NESTING_DEPTH)
                  .maxStringLength(MAX_STRING_LENGTH)
                  .maxNumberLength(100)
                  .build())
          .build();

  private static final ObjectMapper MAPPER =
      JsonMapper.builder(FACTORY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .build();

  private Json() {}

  /** The shared, thread-safe mapper. Do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Parses UTF-8 JSON text, throwing {@link JsonProcessingException} with a location on bad input. */
  public static JsonNode parse(byte[] utf8) throws JsonProcessingException {
    try {
      return MAPPER.readTree(utf8);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses JSON text, throwing {@link JsonProcessingException} with a location on bad input. */
  public static JsonNode parse(String text) throws JsonProcessingException {
    return MAPPER.readTree(text);
  }

  /** Parses JSON that this program wrote itself (resources, the store); bad input is a bug. */
  public static JsonNode parseTrusted(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored or bundled JSON is malformed: " + e.getOriginalMessage(), e);
    }
  }

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Compact JSON text (not canonical: use {@link Jcs} for anything that is hashed or signed). */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static byte[] writeBytes(JsonNode node) {
    return write(node).getBytes(StandardCharsets.UTF_8);
  }

  public static String writePretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
