package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SignatureBaseTest {

  private static SignatureBase.Component c(String name, String value) {
    return new SignatureBase.Component(name, value);
  }

  @Test
  void linesJoinedByNewlineWithoutATrailingOne() {
    SignatureBase base =
        SignatureBase.of(
            List.of(c("@method", "GET"), c("@target-uri", "http://h/a?b=c")),
            "(\"@method\" \"@target-uri\");created=1");
    assertThat(base.text())
        .isEqualTo(
            "\"@method\": GET\n\"@target-uri\": http://h/a?b=c\n"
                + "\"@signature-params\": (\"@method\" \"@target-uri\");created=1");
  }

  @Test
  void noComponentsIsJustTheParams() {
    assertThat(SignatureBase.of(List.of(), "();created=1").text())
        .isEqualTo("\"@signature-params\": ();created=1");
  }

  @Test
  void paramsMustListExactlyTheComponents() {
    List<SignatureBase.Component> components = List.of(c("@method", "GET"));
    assertThatThrownBy(() -> SignatureBase.of(components, "(\"@target-uri\");created=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must start with the covered components (\"@method\")");
    assertThatThrownBy(() -> SignatureBase.of(components, "(\"@method\" \"x\");created=1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SignatureBase.of(components, "(\"@method\")x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void valuesCannotForgeLines() {
    assertThatThrownBy(() -> c("@method", "GET\n\"@target-uri\": http://evil/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("U+000A");
    assertThatThrownBy(
            () -> SignatureBase.of(List.of(c("@method", "GET")), "(\"@method\");a=1\n\"x\": y"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesAreLowerCaseAndUnique() {
    assertThatThrownBy(() -> c("Content-Digest", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lower-case");
    assertThatThrownBy(() -> c("@", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() ->
            SignatureBase.of(
                List.of(c("@method", "GET"), c("@method", "PUT")), "(\"@method\" \"@method\")"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("covered twice");
  }
}
