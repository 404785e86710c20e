package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which incoming X-Request-Id values are kept, and what a new one looks like. */
class RequestIdsTest {

  @Test
  void aWellFormedIdIsKept() {
    assertThat(RequestIds.accept("trace-42.a:b_C")).isEqualTo("trace-42.a:b_C");
    assertThat(RequestIds.accept("x".repeat(RequestIds.MAX_LENGTH))).hasSize(RequestIds.MAX_LENGTH);
  }

  @Test
  void anythingElseIsReplacedByAFreshId() {
    for (String bad :
        new String[] {
          null,
          "",
          "x".repeat(RequestIds.MAX_LENGTH + 1),
          "a b",
          "a\nINFO forged line",
          "a\"b",
          "a/b",
          "é"
        }) {
      assertThat(RequestIds.accept(bad)).as(String.valueOf(bad)).matches("[0-9a-f]{32}");
    }
  }

  @Test
  void freshIdsDiffer() {
    assertThat(RequestIds.generate()).isNotEqualTo(RequestIds.generate());
  }
}
