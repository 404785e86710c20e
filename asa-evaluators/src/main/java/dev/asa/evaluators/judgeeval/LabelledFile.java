package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.judgeeval.LabelledFileException.Problem;
import dev.asa.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A file of labelled records, one JSON object a line (JSON Lines), all pairwise or all pointwise.
 *
 * <p>Pairwise: {@code {"request", "answer_a", "answer_b", "human": "a"|"b", "category"?}}.
 * Pointwise: {@code {"request", "answer", "human_score", "category"?}}. Either may add {@code id}
 * (shown in the JSON report), {@code type} (the section 5.4 deliverable type whose default
 * dimensions score the answers; general when absent, as in {@code POST /verifications}) and {@code
 * format} (the answers' format; undeclared when absent). Other members are ignored, so a file can
 * carry its own bookkeeping. Blank lines are skipped.
 *
 * <p>A bad line stops the run: a calibration figure computed on the lines that happened to parse
 * would describe some other data set, and nobody would notice. Every problem of the file is
 * reported at once, each with its line and member, so one pass fixes them all. A file mixing both
 * kinds is refused too: agreement and rank correlation are different questions, and one figure for
 * both would answer neither.
 */
public record LabelledFile(Kind kind, List<LabelledRecord> records) {

  /** What the file's records are. */
  public enum Kind {
    PAIRWISE,
    POINTWISE
  }

  /** The same rule as a deliverable's {@code format} in the server's requests. */
  private static final Pattern FORMAT = Pattern.compile("[a-z][a-z0-9_+.-]{0,31}");

  private static final String PAIRWISE_FIELDS = "answer_a, answer_b, human";
  private static final String POINTWISE_FIELDS = "answer, human_score";

  public LabelledFile {
    records = List.copyOf(records);
  }

  /**
   * Reads a file.
   *
   * @throws IOException when it cannot be read at all (missing, unreadable)
   * @throws LabelledFileException naming every problem of its content
   */
  public static LabelledFile read(Path file) throws IOException, LabelledFileException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (CharacterCodingException e) {
      throw new LabelledFileException(
          List.of(
              new Problem(
                  lines.size() + 1, null, "is not UTF-8 text; JSON Lines files are UTF-8")));
    }
    return parse(lines);
  }

  /** Parses lines, the first being line 1. */
  public static LabelledFile parse(List<String> lines) throws LabelledFileException {
    List<Problem> problems = new ArrayList<>();
    List<LabelledRecord> records = new ArrayList<>();
    int firstPairwise = 0;
    int firstPointwise = 0;
    for (int i = 0; i < lines.size(); i++) {
      int line = i + 1;
      if (lines.get(i).isBlank()) {
        continue;
      }
      LabelledRecord r = record(line, lines.get(i), problems);
      if (r instanceof LabelledRecord.Pairwise && firstPairwise == 0) {
        firstPairwise = line;
      } else if (r instanceof LabelledRecord.Pointwise && firstPointwise == 0) {
        firstPointwise = line;
      }
      if (r != null) {
        records.add(r);
      }
    }
    if (firstPairwise > 0 && firstPointwise > 0) {
      problems.add(
          new Problem(
              0,
              null,
              "the file mixes pairwise records (the first at line "
                  + firstPairwise
                  + ") and pointwise ones (the first at line "
                  + firstPointwise
                  + "); put each kind in a file of its own"));
    }
    if (problems.isEmpty() && records.isEmpty()) {
      problems.add(new Problem(0, null, "holds no records (one JSON object a line)"));
    }
    if (!problems.isEmpty()) {
      throw new LabelledFileException(problems);
    }
    return new LabelledFile(firstPairwise > 0 ? Kind.PAIRWISE : Kind.POINTWISE, records);
  }

  /** The record of one line, or null with its problems added. */
  private static LabelledRecord record(int line, String text, List<Problem> problems) {
    JsonNode node;
    try {
      node = Json.parse(text);
    } catch (JsonProcessingException e) {
      problems.add(new Problem(line, null, "is not valid JSON: " + e.getOriginalMessage()));
      return null;
    }
    if (!node.isObject()) {
      problems.add(new Problem(line, null, "must be a JSON object"));
      return null;
    }
    boolean pairwise = node.has("answer_a") || node.has("answer_b") || node.has("human");
    boolean pointwise = node.has("answer") || node.has("human_score");
    if (pairwise == pointwise) {
      problems.add(
          new Problem(
              line,
              null,
              pairwise
                  ? "mixes pairwise members ("
                      + PAIRWISE_FIELDS
                      + ") with pointwise ones ("
                      + POINTWISE_FIELDS
                      + ")"
                  : "is neither pairwise (request, "
                      + PAIRWISE_FIELDS
                      + ") nor pointwise (request, "
                      + POINTWISE_FIELDS
                      + ")"));
      return null;
    }
    Fields f = new Fields(line, node, problems);
    String request = f.text("request", true, false);
    String id = f.text("id", false, true);
    String category = f.text("category", false, false);
    String type = f.text("type", false, false);
    if (type != null && !StandaloneCriteria.isKnownType(type)) {
      f.problem(
          "type",
          "'"
              + type
              + "' is not a deliverable type; one of "
              + String.join(", ", StandaloneCriteria.TYPES));
    }
    String format = f.text("format", false, false);
    if (format != null && !FORMAT.matcher(format).matches()) {
      f.problem("format", "a short lower-case name such as markdown, json, csv or code");
    }
    String answerType = type == null ? "general" : type;
    if (pairwise) {
      String a = f.text("answer_a", true, true);
      String b = f.text("answer_b", true, true);
      Preference human = f.preference("human");
      if (f.failed()) {
        return null;
      }
      return new LabelledRecord.Pairwise(
          line,
          id,
          category,
          new Answer(request, a, answerType, format),
          new Answer(request, b, answerType, format),
          human);
    }
    String answer = f.text("answer", true, true);
    double score = f.number("human_score");
    if (f.failed()) {
      return null;
    }
    return new LabelledRecord.Pointwise(
        line, id, category, new Answer(request, answer, answerType, format), score);
  }

  /** The members of one line, each checked, every problem noted with its name. */
  private static final class Fields {
    private final int line;
    private final JsonNode node;
    private final List<Problem> problems;
    private final int before;

    Fields(int line, JsonNode node, List<Problem> problems) {
      this.line = line;
      this.node = node;
      this.problems = problems;
      this.before = problems.size();
    }

    void problem(String field, String message) {
      problems.add(new Problem(line, field, message));
    }

    boolean failed() {
      return problems.size() > before;
    }

    /**
     * A string member; null when absent and not required.
     *
     * @param mayBeBlank an answer may be empty (people judge empty answers too), a request not
     */
    String text(String field, boolean required, boolean mayBeBlank) {
      JsonNode v = node.get(field);
      if (v == null || v.isNull()) {
        if (required) {
          problem(field, "is missing");
        }
        return null;
      }
      if (!v.isTextual()) {
        problem(field, "must be a string");
        return null;
      }
      if (!mayBeBlank && v.textValue().isBlank()) {
        problem(field, "must not be blank");
        return null;
      }
      return v.textValue();
    }

    Preference preference(String field) {
      JsonNode v = node.get(field);
      if (v == null || v.isNull()) {
        problem(field, "is missing");
        return null;
      }
      if (v.isTextual() && v.textValue().equals("a")) {
        return Preference.A;
      }
      if (v.isTextual() && v.textValue().equals("b")) {
        return Preference.B;
      }
      problem(
          field,
          "must be \"a\" or \"b\", not "
              + v
              + " (a pair people judged a tie says nothing about a judge's picks: leave it out)");
      return null;
    }

    double number(String field) {
      JsonNode v = node.get(field);
      if (v == null || v.isNull()) {
        problem(field, "is missing");
        return Double.NaN;
      }
      if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
        problem(field, "must be a number");
        return Double.NaN;
      }
      return v.doubleValue();
    }
  }
}
