package dev.asa.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

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

  /**
   * Most bound on how many sets of parser and generator buffers are kept for reuse: about as many
   * as requests run at once. Each set is a few tens of KB (a buffer that grew for a large text is
   * kept at its size, up to Jackson's segment size).
   */
  private static final int POOLED_BUFFER_SETS = 64;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          // Shared buffers, not Jackson's default of one set per thread: the server answers each
          // request on a new virtual thread, whose thread-local set is allocated for that request
          // and dropped after it (an eighth of all the bytes the server allocated, by a profile).
          .recyclerPool(JsonRecyclerPools.newBoundedPool(POOLED_BUFFER_SETS))
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

  /**
   * The largest decimal exponent (either sign) and the most significant digits a number may have.
   * No ASA value comes near; without a bound, {@code 1E+2147483647} parses into a BigDecimal that
   * exhausts memory the moment anyone prints it.
   */
  public static final int MAX_NUMBER_EXPONENT = 400;

  public static final int MAX_NUMBER_DIGITS = 100;

  /**
   * Parses UTF-8 JSON from outside, throwing {@link JsonProcessingException} (with a location where
   * the parser has one) on bad input. Beyond well-formedness it refuses what the rest of the system
   * cannot represent faithfully: numbers out of range and strings with unpaired UTF-16 surrogates
   * (which canonical JSON, and so every digest, cannot encode).
   */
  public static JsonNode parse(byte[] utf8) throws JsonProcessingException {
    try {
      return checked(MAPPER.readTree(utf8));
    } catch (JsonProcessingException e) {
      throw e;
    } catch (NumberFormatException | ArithmeticException e) {
      // The parser itself cannot read the number: the text is not usable JSON at all.
      throw new com.fasterxml.jackson.core.JsonParseException(
          null, "a number cannot be read: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As {@link #parse(byte[])}, from text. */
  public static JsonNode parse(String text) throws JsonProcessingException {
    try {
      return checked(MAPPER.readTree(text));
    } catch (NumberFormatException | ArithmeticException e) {
      throw new com.fasterxml.jackson.core.JsonParseException(
          null, "a number cannot be read: " + e.getMessage());
    }
  }

  /** Well-formed JSON that this system still cannot take (see {@link #parse(byte[])}). */
  public static final class UnusableJsonException extends JsonProcessingException {
    UnusableJsonException(String message) {
      super(message);
    }
  }

  private static JsonNode checked(JsonNode root) throws UnusableJsonException {
    java.util.ArrayDeque<JsonNode> todo = new java.util.ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      JsonNode n = todo.pop();
      if (n.isObject()) {
        for (var it = n.fields(); it.hasNext(); ) {
          var e = it.next();
          requireWellFormed(e.getKey());
          todo.push(e.getValue());
        }
      } else if (n.isArray()) {
        n.forEach(todo::push);
      } else if (n.isTextual()) {
        requireWellFormed(n.textValue());
      } else if (n.isNumber()) {
        requireInRange(n);
      }
    }
    return root;
  }

  private static void requireWellFormed(String s) throws UnusableJsonException {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new UnusableJsonException(
            "a string holds an unpaired UTF-16 surrogate (\\u"
                + Integer.toHexString(c)
                + "), which is not Unicode text");
      }
    }
  }

  private static void requireInRange(JsonNode n) throws UnusableJsonException {
    java.math.BigDecimal d;
    if (n.isBigDecimal()) {
      d = n.decimalValue();
    } else if (n.isBigInteger()) {
      d = new java.math.BigDecimal(n.bigIntegerValue());
    } else {
      return; // int, long, double: bounded by their type
    }
    long magnitude = (long) d.precision() - d.scale(); // decimal exponent of the leading digit
    if (d.precision() > MAX_NUMBER_DIGITS
        || Math.abs(magnitude) > MAX_NUMBER_EXPONENT
        || Math.abs((long) d.scale()) > MAX_NUMBER_EXPONENT + MAX_NUMBER_DIGITS) {
      throw new UnusableJsonException(
          "a number is out of range: at most "
              + MAX_NUMBER_DIGITS
              + " significant digits and exponents within +-"
              + MAX_NUMBER_EXPONENT);
    }
  }

  /** Parses JSON that this program wrote itself (resources, the store); bad input is a bug. */
  public static JsonNode parseTrusted(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "stored or bundled JSON is malformed: " + e.getOriginalMessage(), e);
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

  /**
   * As {@link #write}, as UTF-8: written straight to bytes, where text then encoded would write the
   * answer twice (every response body goes through here).
   */
  public static byte[] writeBytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String writePretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
