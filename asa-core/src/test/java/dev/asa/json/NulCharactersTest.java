package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.json.NulCharacters.Found;
import dev.asa.text.ControlCharacters;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NulCharactersTest {

  @Test
  void findsANulInStringsAndMemberNamesWithTheirPointersInDocumentOrder() throws Exception {
    var doc =
        Json.parse(
            "{\"a\": \"x\\u0000\", \"b\": [1, \"ok\", {\"c/d\": \"\\u0000\"}],"
                + " \"e\\u0000~\": true, \"f\": {\"g\": \"no nul here\"}}");
    assertThat(NulCharacters.in(doc))
        .containsExactly(
            new Found("/a", 1, false),
            new Found("/b/2/c~1d", 0, false),
            new Found("/e\u0000~0", 1, true));
  }

  @Test
  void findsNothingInTextWithoutNulWhateverElseItHolds() throws Exception {
    var doc =
        Json.parse(
            "{\"a\": \"\\u0001\\t\\n\\u007f \\u00e9 \\ud83d\\ude00 \\\\u0000\", \"b\": [null, 1.5]}");
    assertThat(NulCharacters.in(doc)).isEmpty();
  }

  @Test
  void aNulPlacedAtRandomIsAlwaysFoundAtItsIndex() throws Exception {
    Random random = new Random(21);
    for (int i = 0; i < 500; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      for (int j = 0; j < length; j++) {
        text.append((char) (' ' + random.nextInt(90)));
      }
      int at = random.nextInt(length + 1);
      text.insert(at, '\u0000');
      var doc = Json.object();
      doc.putArray("items").addObject().put("text", text.toString());
      assertThat(NulCharacters.in(doc)).containsExactly(new Found("/items/0/text", at, false));
    }
  }

  @Test
  void escapingANulForTheRecordWritesItsJsonEscape() {
    assertThat(ControlCharacters.escapeNul("a\u0000b\u0000")).isEqualTo("a\\u0000b\\u0000");
    assertThat(ControlCharacters.escapeNul("plain")).isEqualTo("plain");
    assertThat(ControlCharacters.escapeNul(null)).isNull();
  }
}
