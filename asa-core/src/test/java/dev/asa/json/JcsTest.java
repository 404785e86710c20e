package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JcsTest {

  /** RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical number text. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2",
  })
  void numberVectorsOfRfc8785AppendixB(String ieeeHex, String expected) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieeeHex, 16));
    assertThat(Jcs.canonicalString(DoubleNode.valueOf(value))).isEqualTo(expected);
  }

  @Test
  void refusesNanAndInfinity() {
    for (long bits :
        new long[] {0x7fff_ffff_ffff_ffffL, 0x7ff0_0000_0000_0000L, 0xfff0_0000_0000_0000L}) {
      double value = Double.longBitsToDouble(bits);
      assertThatThrownBy(() -> Jcs.canonicalString(DoubleNode.valueOf(value)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("NaN and Infinity");
    }
  }

  @Test
  void refusesDecimalTooLargeForADouble() throws Exception {
    // Json.parse refuses such a number already; Jcs must refuse it on its own too.
    var array =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
            .arrayNode()
            .add(new java.math.BigDecimal("1e400"));
    assertThatThrownBy(() -> Jcs.canonicalString(array))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too large for a double");
  }

  @Test
  void exponentBoundariesFollowEcmaScript() {
    assertThat(Jcs.numberToString(1e21)).isEqualTo("1e+21");
    assertThat(Jcs.numberToString(1e20)).isEqualTo("100000000000000000000");
    assertThat(Jcs.numberToString(1e-7)).isEqualTo("1e-7");
    assertThat(Jcs.numberToString(1.5e-7)).isEqualTo("1.5e-7");
    assertThat(Jcs.numberToString(1e-6)).isEqualTo("0.000001");
    assertThat(Jcs.numberToString(1.5)).isEqualTo("1.5");
    assertThat(Jcs.numberToString(123456789)).isEqualTo("123456789");
    assertThat(Jcs.numberToString(0.1)).isEqualTo("0.1");
    assertThat(Jcs.numberToString(100)).isEqualTo("100");
    assertThat(Jcs.numberToString(2 * Double.MIN_VALUE)).isEqualTo("1e-323");
    assertThat(Jcs.numberToString(-1.5e300)).isEqualTo("-1.5e+300");
  }

  @Test
  void integerAndBigNumberNodesAreConvertedToDoubleFirst() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    assertThat(Jcs.canonicalString(f.numberNode(42))).isEqualTo("42");
    assertThat(Jcs.canonicalString(f.numberNode(-7L))).isEqualTo("-7");
    // 2^53 + 1 is not a double; it rounds to 2^53.
    assertThat(Jcs.canonicalString(f.numberNode(9007199254740993L))).isEqualTo("9007199254740992");
    assertThat(Jcs.canonicalString(f.numberNode(new BigInteger("100000000000000000000000"))))
        .isEqualTo("1e+23");
    assertThat(Jcs.canonicalString(f.numberNode(new BigDecimal("4.50")))).isEqualTo("4.5");
    assertThat(Jcs.canonicalString(f.numberNode(new BigDecimal("-0.0")))).isEqualTo("0");
    assertThat(Jcs.canonicalString(f.numberNode(1.5f))).isEqualTo("1.5");
  }

  /** RFC 8785 section 3.2.2. */
  @Test
  void rfcSampleOfSection322() throws Exception {
    String input =
        """
        {
          "numbers": [333333333.33333329, 1E30, 4.50,
                      2e-3, 0.000000000000000000000000001],
          "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
          "literals": [null, true, false]
        }
        """;
    String expected =
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";

    JsonNode parsed = Json.parse(input);

    assertThat(Jcs.canonicalString(parsed)).isEqualTo(expected);
    assertThat(Jcs.canonicalize(parsed)).isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
  }

  /** RFC 8785 section 3.2.3. */
  @Test
  void propertiesSortByUtf16CodeUnits() throws Exception {
    String input =
        """
        {
          "\\u20ac": "Euro Sign",
          "\\r": "Carriage Return",
          "\\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\\ud83d\\ude00": "Emoji: Grinning Face",
          "\\u0080": "Control",
          "\\u00f6": "Latin Small Letter O With Diaeresis"
        }
        """;

    JsonNode canonical = Json.parse(Jcs.canonicalString(Json.parse(input)));

    List<String> order = new ArrayList<>();
    canonical.fieldNames().forEachRemaining(order::add);
    assertThat(order)
        .containsExactly("\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33");
    assertThat(Jcs.canonicalString(Json.parse(input)))
        .startsWith("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\"");
  }

  @Test
  void escapesOnlyWhatJsonStringifyEscapes() {
    String all = "\u0000\u0001\u001f \"\\/\b\f\n\r\t\u007f\u00e9\u2028\ud83d\ude00";
    assertThat(Jcs.canonicalString(TextNode.valueOf(all)))
        .isEqualTo(
            "\"\\u0000\\u0001\\u001f \\\"\\\\/\\b\\f\\n\\r\\t\u007f\u00e9\u2028\ud83d\ude00\"");
  }

  @Test
  void refusesUnpairedSurrogates() {
    for (String bad : List.of("\ud800", "a\udc00b", "\ude00\ud83d", "x\ud83d")) {
      assertThatThrownBy(() -> Jcs.canonicalString(TextNode.valueOf(bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unpaired UTF-16 surrogate");
    }
    ObjectNode badKey = Json.object();
    badKey.put("\udfff", 1);
    assertThatThrownBy(() -> Jcs.canonicalString(badKey))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesNonJsonNodes() {
    assertThatThrownBy(() -> Jcs.canonicalString(BinaryNode.valueOf(new byte[] {1})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BINARY");
  }

  @Test
  void nestedObjectsAndArrays() throws Exception {
    String input =
        """
        { "b": [ {"z": 1, "a": {"y": [], "x": {}}}, [ [ 2.0 ] ], "s" ],
          "a": { "d": null, "c": [true, {"f": 1e2, "e": -0.0}] } }
        """;

    assertThat(Jcs.canonicalString(Json.parse(input)))
        .isEqualTo(
            "{\"a\":{\"c\":[true,{\"e\":0,\"f\":100}],\"d\":null},"
                + "\"b\":[{\"a\":{\"x\":{},\"y\":[]},\"z\":1},[[2]],\"s\"]}");
  }

  @Test
  void emptyContainers() throws Exception {
    assertThat(Jcs.canonicalString(Json.parse("{ }"))).isEqualTo("{}");
    assertThat(Jcs.canonicalString(Json.parse("[ ]"))).isEqualTo("[]");
    assertThat(Jcs.canonicalString(Json.parse("\"\""))).isEqualTo("\"\"");
  }

  /**
   * Canonical output, parsed again and re-serialized in a non-canonical way, canonicalizes back to
   * itself: the scheme is a fixed point, which is what lets a verifier recompute a signer's bytes.
   */
  @Test
  void canonicalFormIsAFixedPoint() throws Exception {
    long seed = System.nanoTime();
    System.out.println("JcsTest.canonicalFormIsAFixedPoint seed = " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 500; i++) {
      JsonNode value = randomValue(random, 0);
      String canonical = Jcs.canonicalString(value);

      String reserialized = Json.writePretty(Json.parse(canonical));
      String again = Jcs.canonicalString(Json.parse(reserialized));

      assertThat(again)
          .as("seed %d, iteration %d, value %s", seed, i, canonical)
          .isEqualTo(canonical);
      assertThat(Jcs.canonicalString(Json.parse(canonical))).isEqualTo(canonical);
    }
  }

  private static JsonNode randomValue(Random random, int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    int kind = random.nextInt(depth >= 4 ? 6 : 8);
    return switch (kind) {
      case 0 -> f.nullNode();
      case 1 -> f.booleanNode(random.nextBoolean());
      case 2 -> f.numberNode(random.nextLong() >> random.nextInt(64));
      case 3 -> f.numberNode(randomFiniteDouble(random));
      case 4 ->
          f.numberNode(
              new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(60) - 30));
      case 5 -> f.textNode(randomString(random));
      case 6 -> {
        ArrayNode array = f.arrayNode();
        for (int n = random.nextInt(5); n > 0; n--) {
          array.add(randomValue(random, depth + 1));
        }
        yield array;
      }
      default -> {
        ObjectNode object = f.objectNode();
        for (int n = random.nextInt(5); n > 0; n--) {
          object.set(randomString(random), randomValue(random, depth + 1));
        }
        yield object;
      }
    };
  }

  private static double randomFiniteDouble(Random random) {
    while (true) {
      double d =
          switch (random.nextInt(3)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(50) - 25);
            default -> random.nextInt(2000) / 8.0;
          };
      if (Double.isFinite(d)) {
        return d;
      }
    }
  }

  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(8); n > 0; n--) {
      switch (random.nextInt(5)) {
        case 0 -> s.append((char) random.nextInt(0x20));
        case 1 -> s.append("\"\\/".charAt(random.nextInt(3)));
        case 2 -> s.append((char) ('a' + random.nextInt(26)));
        case 3 -> s.append((char) (0xa0 + random.nextInt(0xd700 - 0xa0)));
        default -> s.appendCodePoint(0x10000 + random.nextInt(0x100000));
      }
    }
    return s.toString();
  }
}
