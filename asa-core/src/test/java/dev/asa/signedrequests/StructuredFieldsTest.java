package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.signedrequests.RequestAuthException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StructuredFieldsTest {

  private static List<StructuredFields.Member> parse(String text) {
    return StructuredFields.parseDictionary("H", Reason.MALFORMED_SIGNATURE_INPUT, text);
  }

  @Test
  void parsesTheProfileSubset() {
    List<StructuredFields.Member> members =
        parse("sig1=(\"@method\" \"a\\\"b\");created=-5;keyid=\"k\\\\\", d=:AQID:");

    assertThat(members).hasSize(2);
    StructuredFields.Member sig1 = members.get(0);
    assertThat(sig1.key()).isEqualTo("sig1");
    assertThat(((StructuredFields.InnerList) sig1.value()).strings())
        .containsExactly("@method", "a\"b");
    assertThat(sig1.params())
        .containsExactly(
            new StructuredFields.Param("created", -5L), new StructuredFields.Param("keyid", "k\\"));
    assertThat(sig1.rawValue()).isEqualTo("(\"@method\" \"a\\\"b\");created=-5;keyid=\"k\\\\\"");
    assertThat((byte[]) members.get(1).value()).containsExactly(1, 2, 3);
    assertThat(parse("a=()").get(0).value()).isEqualTo(new StructuredFields.InnerList(List.of()));
    assertThat(parse(" a=:: ").get(0).value()).isEqualTo(new byte[0]);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "sig1",
        "sig1=",
        "Sig1=()",
        "sig1=(\"a\"",
        "sig1=( \"a\")",
        "sig1=(\"a\" )",
        "sig1=(\"a\"  \"b\")",
        "sig1=(a)",
        "sig1=(\"a\";x=1)",
        "sig1=();x",
        "sig1=(); x=1",
        "sig1=();x=1.5",
        "sig1=();x=01",
        "sig1=();x=-0",
        "sig1=();x=1234567890123456",
        "sig1=();x=tok",
        "sig1=();x=?1",
        "sig1=();x=1;x=2",
        "sig1=();x=\"a\\b\"",
        "sig1=();x=\"unterminated",
        "sig1=();x=\"tab\there\"",
        "sig1=();x=\"caf\u00e9\"",
        "sig1=\"string\"",
        "sig1=1",
        "sig1=(), sig1=()",
        "sig1=(),",
        "sig1=() sig2=()",
        "d=:AQI:",
        "d=:AQJ=:",
        "d=:AQID",
        "d=:AQ-D:",
        "d=:A===:",
      })
  void refusesEverythingElse(String text) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(
            RequestAuthException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED_SIGNATURE_INPUT))
        .hasMessageStartingWith("H ");
  }
}
