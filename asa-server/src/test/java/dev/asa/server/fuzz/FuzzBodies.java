package dev.asa.server.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Malformed and mutated request bodies, all drawn from a caller's {@link Random} so that a seed
 * reproduces them. Tokens Jackson cannot produce (1e999999, NaN, lone surrogates) are spliced into
 * the written text through a placeholder string.
 */
final class FuzzBodies {
  private FuzzBodies() {}

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final String RAW = "@@fuzz-raw-token@@";

  /** Number tokens that are huge, tiny, overlong, or not JSON numbers at all. */
  static final List<String> ODD_NUMBERS =
      List.of(
          "1e999999",
          "-1e999999",
          "1e-999999",
          "1E+2147483648",
          "1e-2147483649",
          "9".repeat(400),
          "-" + "9".repeat(400),
          "9".repeat(99),
          "1" + "0".repeat(99),
          "1" + "0".repeat(100),
          "0." + "0".repeat(98) + "1",
          "-0",
          "-0.0",
          "1.0e+999999999999",
          "1E+2147483647",
          "-1E+2147483647",
          "1E-2147483647",
          "123456789012345678901234567890",
          "9223372036854775808",
          "-9223372036854775809",
          "2147483648",
          "1e308",
          "1e309",
          "4.9e-325",
          "NaN",
          "Infinity",
          "-Infinity",
          "0x10",
          "01",
          "1.",
          ".5",
          "+1",
          "1e",
          "--1",
          "1_000");

  /** Strings meant to upset whoever reads them; escapes are JSON text, spliced in raw. */
  static final List<String> ODD_STRING_TOKENS =
      List.of(
          "\"\"",
          "\" \"",
          "\"\\u0000\"",
          "\"\\ud800\"",
          "\"\\udc00x\\ud800\"",
          "\"null\"",
          "\"true\"",
          "\"0\"",
          "\"-1\"",
          "\"NaN\"",
          "\"sha256:\"",
          "\"sha256:" + "0".repeat(64) + "\"",
          "\"sha256:" + "g".repeat(64) + "\"",
          "\"../../etc/passwd\"",
          "\"%00\"",
          "\"\\\\\"",
          "\"\\\"\"",
          "\"\\u202e\"",
          "\"\\ufeff\"",
          "\"\\uffff\"",
          "\"\u00e9\u4e2d\ud83d\ude00\"",
          "\"' OR 1=1 --\"",
          "\"${jndi:ldap://x}\"",
          "\"<script>\"",
          "\"\\n\\r\\t\"",
          "\"1e999999\"",
          "\"9999-99-99T99:99:99Z\"",
          "\"+999999999-12-31T23:59:59Z\"",
          "\"2026-02-30T00:00:00Z\"",
          "\"http://\"",
          "\"file:///etc/passwd\"",
          "\"http://[::1\"",
          "\"quality_criteria.dimensions[99999999999].weight\"");

  /** Keys an attacker might try: unknown, empty, odd, or negotiable terms with absurd indexes. */
  static final List<String> ODD_KEYS =
      List.of(
          "",
          " ",
          "x_unknown",
          "__proto__",
          "constructor",
          "$ref",
          "\u0000",
          "\ud83d\ude00",
          "a".repeat(1000),
          "quality_criteria.dimensions[99999999999].weight",
          "quality_criteria.dimensions[2147483648].slo.value",
          "quality_criteria.dimensions[-1].weight",
          "quality_criteria.dimensions[0]",
          "service.constraints.",
          "service.constraints.a",
          "escrow.payment.amount.x",
          "expires_at",
          "verification.challenge_window_seconds",
          "escrow.dead_mans_switch.client_timeout_seconds",
          "quality_criteria.composite_threshold");

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes {@code tree}, replacing the one placeholder string (if any) by {@code raw} JSON text.
   */
  static byte[] write(JsonNode tree, String raw) {
    String text = Json.write(tree);
    if (raw != null) {
      text = text.replace("\"" + RAW + "\"", raw);
    }
    return utf8(text);
  }

  // ---- values --------------------------------------------------------------------------------

  static String randomText(Random r, int maxLen) {
    int len = r.nextInt(maxLen + 1);
    StringBuilder s = new StringBuilder(len);
    for (int i = 0; i < len; i++) {
      int k = r.nextInt(10);
      if (k < 6) {
        s.append((char) ('a' + r.nextInt(26)));
      } else if (k < 8) {
        s.append((char) (0x20 + r.nextInt(0x5f)));
      } else if (k < 9) {
        s.append((char) r.nextInt(0x20));
      } else {
        s.appendCodePoint(0xa0 + r.nextInt(0x2f000));
      }
    }
    String out = s.toString();
    // never a wire name the server would accept as a value (the mutated guarded bodies must stay
    // invalid)
    return out.matches("[a-z_]+") ? "zz" + out : out;
  }

  /** A random JSON value; raw tokens come back as the placeholder when {@code raw} has room. */
  static JsonNode randomValue(Random r, int depth, String[] raw) {
    int k = r.nextInt(depth <= 0 ? 6 : 8);
    return switch (k) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(r.nextBoolean());
      case 2 ->
          switch (r.nextInt(4)) {
            case 0 -> NODES.numberNode(r.nextInt());
            case 1 -> NODES.numberNode(r.nextLong());
            case 2 ->
                NODES.numberNode(
                    new java.math.BigDecimal(r.nextGaussian() * 1000)
                        .setScale(r.nextInt(6), java.math.RoundingMode.HALF_UP));
            default -> NODES.numberNode(r.nextInt(201) - 100);
          };
      case 3 -> NODES.textNode(randomText(r, 20));
      case 4, 5 -> {
        if (raw[0] == null) {
          raw[0] = r.nextBoolean() ? pick(r, ODD_NUMBERS) : pick(r, ODD_STRING_TOKENS);
          yield NODES.textNode(RAW);
        }
        yield NODES.textNode(randomText(r, 8));
      }
      case 6 -> {
        ArrayNode a = NODES.arrayNode();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) a.add(randomValue(r, depth - 1, raw));
        yield a;
      }
      default -> {
        ObjectNode o = NODES.objectNode();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++)
          o.set(
              r.nextInt(3) == 0 ? pick(r, ODD_KEYS) : randomText(r, 6),
              randomValue(r, depth - 1, raw));
        yield o;
      }
    };
  }

  /** A value of the given JSON type: 0 null, 1 number, 2 string, 3 array, 4 object, 5 boolean. */
  static JsonNode ofType(Random r, int type, String[] raw) {
    return switch (type) {
      case 0 -> NODES.nullNode();
      case 1 -> {
        if (r.nextInt(3) == 0 && raw[0] == null) {
          raw[0] = pick(r, List.of("1e999999", "9".repeat(400), "-1", "0", "1e-999999", "1.5"));
          yield NODES.textNode(RAW);
        }
        yield NODES.numberNode(r.nextInt(3) - 1);
      }
      case 2 -> NODES.textNode(randomText(r, 12));
      case 3 -> r.nextBoolean() ? NODES.arrayNode() : NODES.arrayNode().add(randomValue(r, 1, raw));
      case 4 ->
          r.nextBoolean()
              ? NODES.objectNode()
              : NODES.objectNode().set("x_" + r.nextInt(100), randomValue(r, 1, raw));
      default -> NODES.booleanNode(r.nextBoolean());
    };
  }

  static <T> T pick(Random r, List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  // ---- trees ---------------------------------------------------------------------------------

  /** A place in a tree: the container and the member name or index of the node. */
  record Slot(JsonNode parent, String field, int index, String pointer) {
    JsonNode get() {
      return field != null ? parent.get(field) : parent.get(index);
    }

    void set(JsonNode v) {
      if (field != null) ((ObjectNode) parent).set(field, v);
      else ((ArrayNode) parent).set(index, v);
    }

    void remove() {
      if (field != null) ((ObjectNode) parent).remove(field);
      else ((ArrayNode) parent).remove(index);
    }
  }

  /** Every member and element of {@code root}, depth first (the root itself excluded). */
  static List<Slot> slots(JsonNode root) {
    List<Slot> out = new ArrayList<>();
    collect(root, "", out);
    return out;
  }

  private static void collect(JsonNode node, String pointer, List<Slot> out) {
    if (node instanceof ObjectNode o) {
      for (var it = o.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        String p = pointer + "/" + f.replace("~", "~0").replace("/", "~1");
        out.add(new Slot(o, f, -1, p));
        collect(o.get(f), p, out);
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        String p = pointer + "/" + i;
        out.add(new Slot(a, null, i, p));
        collect(a.get(i), p, out);
      }
    }
  }

  // ---- byte-level malformations --------------------------------------------------------------

  static byte[] truncated(Random r, byte[] valid) {
    if (valid.length <= 1) return new byte[0];
    int cut = 1 + r.nextInt(valid.length - 1);
    return java.util.Arrays.copyOf(valid, cut);
  }

  static byte[] randomBytes(Random r) {
    int len = 1 + r.nextInt(r.nextInt(8) == 0 ? 20_000 : 300);
    byte[] b = new byte[len];
    switch (r.nextInt(3)) {
      case 0 -> r.nextBytes(b);
      case 1 -> {
        for (int i = 0; i < len; i++) b[i] = (byte) (0x20 + r.nextInt(0x5f));
      }
      default -> {
        String tokens = "{}[]:,\"\\ nulltruefalse0123456789.eE+-";
        for (int i = 0; i < len; i++) b[i] = (byte) tokens.charAt(r.nextInt(tokens.length()));
      }
    }
    return b;
  }

  private static final byte[][] BAD_UTF8 = {
    {(byte) 0xc3, 0x28},
    {(byte) 0xff},
    {(byte) 0xfe},
    {(byte) 0xc0, (byte) 0xaf},
    {(byte) 0xe0, (byte) 0x80, (byte) 0xaf},
    {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
    {(byte) 0xed, (byte) 0xbf, (byte) 0xbf},
    {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {(byte) 0xe2, (byte) 0x82},
    {(byte) 0x80},
    {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
    {0x00}
  };

  /** Invalid UTF-8 inside a string (value or key), or at a random spot. */
  static byte[] invalidUtf8(Random r, byte[] valid) {
    byte[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
    List<Integer> quotes = new ArrayList<>();
    for (int i = 0; i < valid.length; i++) if (valid[i] == '"') quotes.add(i + 1);
    int at =
        quotes.isEmpty() || r.nextInt(5) == 0
            ? r.nextInt(valid.length + 1)
            : quotes.get(r.nextInt(quotes.size()));
    ByteArrayOutputStream out = new ByteArrayOutputStream(valid.length + bad.length);
    out.write(valid, 0, at);
    out.writeBytes(bad);
    out.write(valid, at, valid.length - at);
    return out.toByteArray();
  }

  /**
   * Arrays and/or objects nested {@code depth} deep, optionally unclosed, optionally under a valid
   * member.
   */
  static byte[] deep(Random r, int depth, String member) {
    int shape = r.nextInt(3);
    StringBuilder s = new StringBuilder(depth * 6 + 32);
    if (member != null) s.append("{\"").append(member).append("\":");
    for (int i = 0; i < depth; i++) {
      boolean arr = shape == 0 || (shape == 2 && (i & 1) == 0);
      s.append(arr ? "[" : "{\"a\":");
    }
    s.append("1");
    if (r.nextInt(4) != 0) {
      for (int i = depth - 1; i >= 0; i--) {
        boolean arr = shape == 0 || (shape == 2 && (i & 1) == 0);
        s.append(arr ? "]" : "}");
      }
      if (member != null) s.append("}");
    }
    return utf8(s.toString());
  }

  /** The text of {@code valid} (a JSON object) with its first member repeated at the front. */
  static byte[] duplicateKey(Random r, JsonNode valid) {
    if (!(valid instanceof ObjectNode o) || o.isEmpty()) return utf8("{\"a\":1,\"a\":2}");
    List<Slot> objects = new ArrayList<>();
    for (Slot s : slots(o))
      if (s.get() instanceof ObjectNode child && !child.isEmpty()) objects.add(s);
    ObjectNode copy = o.deepCopy();
    ObjectNode target = copy;
    if (!objects.isEmpty() && r.nextBoolean()) {
      target = (ObjectNode) copy.at(pick(r, objects).pointer());
    }
    String first = target.fieldNames().next();
    ObjectNode marker = Json.object();
    marker.set(first, r.nextBoolean() ? target.get(first) : randomValue(r, 1, new String[] {"1"}));
    String dup = Json.write(marker);
    String inner = dup.substring(1, dup.length() - 1);
    target.put(RAW + "dup", 0);
    String text = Json.write(copy).replace("\"" + RAW + "dup\":0", inner);
    return utf8(text);
  }

  /** Bodies that are not a JSON object, or not JSON as this server must read it. */
  static final List<byte[]> NOT_AN_OBJECT =
      List.of(
          utf8("[]"),
          utf8("[1,2]"),
          utf8("\"x\""),
          utf8("1"),
          utf8("null"),
          utf8("true"),
          utf8(" "),
          utf8("\n\t"),
          utf8("{}{}"),
          utf8("{} x"),
          utf8("{}]"),
          utf8("/**/{}"),
          utf8("// c\n{}"),
          utf8("{'a':1}"),
          utf8("{a:1}"),
          utf8("{\"a\":NaN}"),
          utf8("{\"a\":1,}"),
          utf8("[1,]"),
          new byte[] {0},
          new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'},
          "{}".getBytes(StandardCharsets.UTF_16BE),
          "{}".getBytes(StandardCharsets.UTF_16LE),
          utf8("\"\\ud800\""),
          utf8("{\"\\u0000\":1}"),
          utf8("{\"a\":\"\\x41\"}"),
          utf8("{\"a\":\"\\u12\"}"),
          utf8("{\"a\":\"line\nbreak\"}"),
          utf8(" ".repeat(100_000) + "{}"),
          utf8("{\"a\":tru}"),
          utf8("\u00a0{}"));
}
