package dev.asa.integrity;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's canary tasks ({@code asa serve --canaries FILE}), read from either a JSON array of
 * canaries or JSON Lines (one canary per line; blank lines are skipped). Every problem of every
 * canary is reported at once, by the pointer of the canary in the file ({@code /3/known_scores/x}:
 * the fourth canary) and the line on which that canary starts.
 */
public record CanarySet(List<Canary> canaries) {

  /** More canaries than this is a data set, not a canary set. */
  public static final int MAX_CANARIES = 10_000;

  public CanarySet {
    canaries = List.copyOf(canaries);
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < canaries.size(); i++) {
      Integer first = seen.putIfAbsent(canaries.get(i).id(), i);
      if (first != null) {
        throw new IllegalArgumentException(
            "canary id '"
                + canaries.get(i).id()
                + "' is used twice (canaries "
                + first
                + " and "
                + i
                + ")");
      }
    }
  }

  public static final CanarySet EMPTY = new CanarySet(List.of());

  public boolean isEmpty() {
    return canaries.isEmpty();
  }

  /** The canaries that can pose as work of this service type, in file order. */
  public List<Canary> forServiceType(String serviceType) {
    return canaries.stream().filter(c -> c.posesAs(serviceType)).toList();
  }

  public Optional<Canary> byId(String id) {
    return canaries.stream().filter(c -> c.id().equals(id)).findFirst();
  }

  /**
   * Reads a canary file.
   *
   * @throws InvalidDocumentException listing every problem
   */
  public static CanarySet parse(String text) {
    if (text.strip().startsWith("[")) {
      return readArray(parseJson(text, ""), elementLines(text));
    }
    StrictJson json = new StrictJson();
    List<Canary> out = new ArrayList<>();
    List<Integer> positions = new ArrayList<>(); // each read canary's index in the file
    String[] lines = text.split("\r?\n", -1);
    tooMany((int) Arrays.stream(lines).filter(l -> !l.isBlank()).count());
    int index = 0;
    for (int line = 0; line < lines.length; line++) {
      if (lines[line].isBlank()) {
        continue;
      }
      String at = "/" + index;
      String where = " (line " + (line + 1) + ")";
      StrictJson one = new StrictJson();
      try {
        add(out, positions, index, Canary.read(parseJson(lines[line], at), at, one));
        one.throwIfAny();
      } catch (InvalidDocumentException e) {
        e.violations().forEach(v -> json.add(v.pointer(), v.message() + where));
      }
      index++;
    }
    return finish(out, positions, json);
  }

  /**
   * Reads a canary set sent as JSON (a request body): an array of canaries, problems named by
   * pointer only, since the sender's lines are not known.
   *
   * @throws InvalidDocumentException listing every problem
   */
  public static CanarySet fromJson(JsonNode array) {
    if (array == null || !array.isArray()) {
      throw new InvalidDocumentException(
          "", "must be a JSON array of canaries, found " + StrictJson.kind(array));
    }
    return readArray(array, new int[0]);
  }

  /** The array form; {@code lines[i]}, when known, is the line where canary i starts. */
  private static CanarySet readArray(JsonNode array, int[] lines) {
    StrictJson json = new StrictJson();
    List<Canary> out = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    tooMany(array.size());
    for (int i = 0; i < array.size(); i++) {
      String at = "/" + i;
      String where = i < lines.length ? " (line " + lines[i] + ")" : "";
      StrictJson one = new StrictJson();
      try {
        add(out, positions, i, Canary.read(array.get(i), at, one));
        one.throwIfAny();
      } catch (InvalidDocumentException e) {
        e.violations().forEach(v -> json.add(v.pointer(), v.message() + where));
      }
    }
    return finish(out, positions, json);
  }

  private static CanarySet finish(List<Canary> out, List<Integer> positions, StrictJson json) {
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < out.size(); i++) {
      Integer first = seen.putIfAbsent(out.get(i).id(), positions.get(i));
      if (first != null) {
        json.add(
            "/" + positions.get(i) + "/id",
            "'" + out.get(i).id() + "' is already the id of canary " + first);
      }
    }
    if (out.isEmpty() && json.ok()) {
      json.add("", "holds no canary: give a JSON array of canaries, or one canary per line");
    }
    json.throwIfAny();
    return new CanarySet(out);
  }

  // Checked before reading any canary: a file of a million canaries is refused, not parsed.
  private static void tooMany(int count) {
    if (count > MAX_CANARIES) {
      throw new InvalidDocumentException(
          "", "holds " + count + " canaries; at most " + MAX_CANARIES + " are allowed");
    }
  }

  private static void add(List<Canary> out, List<Integer> positions, int index, Canary c) {
    if (c != null) {
      out.add(c);
      positions.add(index);
    }
  }

  private static JsonNode parseJson(String text, String at) {
    try {
      return Json.parse(text);
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      throw new InvalidDocumentException(
          at,
          "is not valid JSON: "
              + e.getOriginalMessage()
              + (where == null || where.getLineNr() < 1 || !at.isEmpty()
                  ? ""
                  : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"));
    }
  }

  /**
   * The line on which each element of a JSON array starts, so that a problem of the fourth canary
   * of an array file names its line as it does for JSON Lines. The text was already parsed, so a
   * failure here only loses the line numbers.
   */
  private static int[] elementLines(String text) {
    try (JsonParser p = Json.mapper().getFactory().createParser(text)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        return new int[0];
      }
      List<Integer> lines = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        lines.add(p.currentTokenLocation().getLineNr());
        p.skipChildren();
      }
      return lines.stream().mapToInt(Integer::intValue).toArray();
    } catch (IOException e) {
      return new int[0];
    }
  }
}
