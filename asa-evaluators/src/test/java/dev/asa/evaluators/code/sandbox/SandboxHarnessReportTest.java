package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.asa.evaluators.code.sandbox.TestCaseResult.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SandboxHarnessReportTest {

  private static String esc(String s) {
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
  }

  @Test
  void messagesWithTabsNewlinesAndBackslashesSurviveTheRoundTrip() {
    Random random = new Random(16);
    String alphabet = "ab \t\n\\tn";
    for (int i = 0; i < 500; i++) {
      StringBuilder name = new StringBuilder();
      StringBuilder message = new StringBuilder();
      for (int j = random.nextInt(12); j >= 0; j--) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (int j = random.nextInt(40); j >= 0; j--) {
        message.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text =
          "START\t"
              + esc(name.toString())
              + "\nFAIL\t"
              + esc(name.toString())
              + "\t12\t"
              + esc(message.toString())
              + "\n";
      HarnessReport r = HarnessReport.parse(text, "unfinished");
      assertEquals(
          List.of(
              new TestCaseResult(
                  name.toString(), Outcome.FAILED, Duration.ofMillis(12), message.toString())),
          r.tests(),
          text);
    }
  }

  @Test
  void aTestThatStartedAndNeverFinishedIsErroredWithTheReason() {
    HarnessReport r =
        HarnessReport.parse(
            "START\ta\nPASS\ta\t1\t\nSTART\tb\nSTART\tgroup\nSUITE\tgroup\n", "killed: wall clock");
    assertEquals(
        List.of(
            new TestCaseResult("a", Outcome.PASSED, Duration.ofMillis(1), ""),
            new TestCaseResult("b", Outcome.ERRORED, Duration.ZERO, "killed: wall clock")),
        r.tests());
  }

  @Test
  void malformedLinesAreIgnoredAndCoverageIsBounded() {
    HarnessReport r =
        HarnessReport.parse(
            "garbage\nPASS\nCOVERAGE\t250\nCOVERAGE\tx\nPASS\tt\tnot-a-number\t\n", "");
    assertEquals(1, r.tests().size());
    assertEquals(Duration.ZERO, r.tests().get(0).duration());
    assertTrue(r.coverage().isEmpty());
    assertEquals(42.5, HarnessReport.parse("COVERAGE\t42.5\n", "").coverage().orElseThrow(), 1e-9);
  }
}
