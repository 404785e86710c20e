package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class StrictJsonTest {

  private static List<String> problems(StrictJson strict) {
    try {
      strict.throwIfAny();
      return List.of();
    } catch (InvalidDocumentException e) {
      return e.violations().stream().map(Violation::toString).toList();
    }
  }

  @Test
  void failFastThrowsTheFirstProblemWithItsPointer() {
    ObjectNode body = (ObjectNode) Json.parseTrusted("{\"party\": 7, \"extra\": 1}");
    StrictJson strict = StrictJson.failFast();
    assertThatThrownBy(() -> strict.text(body, "", "party", "\"client\" or \"provider\""))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessage("/party: must be \"client\" or \"provider\", found a number");
    assertThatThrownBy(() -> strict.text(body, "/signature", "scheme", "\"ed25519\""))
        .hasMessage("/signature/scheme: is missing: expected \"ed25519\"");
    assertThatThrownBy(() -> strict.allowOnly(body, "", "party"))
        .hasMessage("/extra: unknown member 'extra'; expected only party");
    assertThatThrownBy(() -> strict.object(Json.parseTrusted("[]"), "", "a sign request"))
        .hasMessage("(document): a sign request must be an object, found an array");
    assertThat(strict.optionalText(body, "", "absent")).isNull();
    assertThat(strict.ok()).isTrue(); // a fail-fast reader keeps nothing: it is shared
  }

  @Test
  void collectingGathersEveryProblemAndReturnsNullForEach() {
    JsonNode doc =
        Json.parseTrusted(
            "{\"a/b~\": 1, \"to\": \"0xzz\", \"n\": 3.5, \"flag\": \"yes\", \"name\": \"  \"}");
    StrictJson strict = new StrictJson();
    strict.allowOnly(doc, "/x", List.of("to", "n", "flag", "name"));
    assertThat(
            strict.text(
                doc,
                "/x",
                "to",
                Pattern.compile("0x[0-9a-f]{2}"),
                "an address: 0x and 2 hex digits"))
        .isNull();
    assertThat(strict.integer(doc, "/x", "n", 0, 10)).isNull();
    assertThat(strict.bool(doc, "/x", "flag", false)).isNull();
    assertThat(strict.text(doc, "/x", "name", 10)).isNull();
    assertThat(strict.count()).isEqualTo(5);
    assertThat(problems(strict))
        .containsExactly(
            "/x/a~1b~0: unknown member 'a/b~'; expected only flag, n, name, to",
            "/x/to: must be an address: 0x and 2 hex digits",
            "/x/n: must be a whole number from 0 to 10, found a number 3.5",
            "/x/flag: must be true or false, found a string",
            "/x/name: must not be empty or blank");
  }

  @Test
  void nestedObjectsAreReadAtTheirOwnPointer() {
    JsonNode doc = Json.parseTrusted("{\"deliverable\": {\"content\": 1}, \"config\": \"x\"}");
    StrictJson strict = StrictJson.failFast();
    ObjectNode d = strict.object(doc.get("deliverable"), "/deliverable", "the deliverable");
    assertThatThrownBy(() -> strict.optionalText(d, "/deliverable", "content"))
        .hasMessage("/deliverable/content: must be a string, found a number");
    InvalidDocumentException e =
        catchThrowableOfType(
            InvalidDocumentException.class,
            () -> strict.object(doc.get("config"), StrictJson.child("", "config"), "config"));
    assertThat(e.violations())
        .containsExactly(new Violation("/config", "config must be an object, found a string"));
  }

  /**
   * Random objects with random member values, read by the same getters both ways: the fail-fast
   * reader throws exactly when the collecting one records a problem, and throws its first one.
   */
  @Test
  void failFastThrowsTheFirstOfWhatCollectingGathers() {
    long seed = new Random().nextLong();
    System.out.println("StrictJsonTest seed " + seed);
    Random r = new Random(seed);
    String[] values = {
      "\"text\"", "\"\"", "\" \"", "1", "2.0", "2.5", "-3", "true", "null", "[]", "{}", "\"0xab\""
    };
    String[] members = {"a", "b", "c", "d", "e"};
    for (int round = 0; round < 2_000; round++) {
      StringBuilder json = new StringBuilder("{");
      for (String m : members) {
        if (r.nextInt(3) > 0) {
          json.append(json.length() > 1 ? "," : "")
              .append('"')
              .append(m)
              .append("\":")
              .append(values[r.nextInt(values.length)]);
        }
      }
      JsonNode doc = Json.parseTrusted(json.append('}').toString());
      long readSeed = r.nextLong();
      StrictJson collecting = new StrictJson();
      read(collecting, doc, new Random(readSeed));
      List<String> gathered = problems(collecting);
      InvalidDocumentException thrown =
          catchThrowableOfType(
              InvalidDocumentException.class,
              () -> read(StrictJson.failFast(), doc, new Random(readSeed)));
      if (gathered.isEmpty()) {
        assertThat(thrown).as("seed %d round %d: %s", seed, round, doc).isNull();
      } else {
        assertThat(thrown).as("seed %d round %d: %s", seed, round, doc).isNotNull();
        assertThat(thrown.violations().get(0).toString()).isEqualTo(gathered.get(0));
      }
    }
  }

  private static void read(StrictJson strict, JsonNode doc, Random r) {
    if (r.nextInt(4) == 0) {
      strict.allowOnly(doc, "", "a", "b", "c");
    }
    for (String m : List.of("a", "b", "c", "d", "e")) {
      switch (r.nextInt(6)) {
        case 0 -> strict.text(doc, "", m, "some text");
        case 1 -> strict.optionalText(doc, "", m);
        case 2 -> strict.text(doc, "", m, 8);
        case 3 -> strict.integer(doc, "", m, 0, 5);
        case 4 -> strict.bool(doc, "", m, true);
        default -> strict.text(doc, "", m, Pattern.compile("0x[0-9a-f]+"), "hex");
      }
    }
  }
}
