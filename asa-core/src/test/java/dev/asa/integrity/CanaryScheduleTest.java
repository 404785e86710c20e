package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.CanaryTerms.Frequency;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanaryScheduleTest {

  private static final CanarySchedule SCHEDULE =
      new CanarySchedule("a secret of the server, 32 bytes+".getBytes(StandardCharsets.UTF_8));

  /**
   * Runs {@code realTasks} real tasks at a frequency; returns the real-task index of each canary.
   */
  private static List<Long> run(String evaluator, Frequency f, long realTasks) {
    CanarySchedule.Progress p = CanarySchedule.Progress.START;
    List<Long> at = new ArrayList<>();
    for (long i = 0; i < realTasks; i++) {
      while (SCHEDULE.canaryDue(evaluator, f, p)) {
        at.add(p.realTasks());
        p = p.afterCanary();
      }
      p = p.afterRealTask();
    }
    return at;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 20})
  void eachWindowOfNRealTasksHasExactlyOneCanary(int n) {
    List<Long> at = run("judge-1", new Frequency(n), 100L * n);
    assertThat(at).hasSize(100);
    for (int w = 0; w < 100; w++) {
      assertThat(at.get(w) / n).as("window of canary %d", w).isEqualTo(w);
    }
  }

  @Test
  void positionsInTheWindowAreSpreadAndDifferPerEvaluator() {
    Set<Long> positions = new HashSet<>();
    for (long at : run("judge-1", Frequency.DEFAULT, 500)) {
      positions.add(at % 5);
    }
    assertThat(positions).as("every position is used").hasSize(5);
    assertThat(run("judge-2", Frequency.DEFAULT, 500))
        .isNotEqualTo(run("judge-1", Frequency.DEFAULT, 500));
    assertThat(run("judge-1", Frequency.DEFAULT, 500))
        .as("replayable")
        .isEqualTo(run("judge-1", Frequency.DEFAULT, 500));
    CanarySchedule other =
        new CanarySchedule("another secret, also 32 bytes long".getBytes(StandardCharsets.UTF_8));
    List<Long> withOther = new ArrayList<>();
    CanarySchedule.Progress p = CanarySchedule.Progress.START;
    for (int i = 0; i < 500; i++) {
      if (other.canaryDue("judge-1", Frequency.DEFAULT, p)) {
        withOther.add(p.realTasks());
        p = p.afterCanary();
      }
      p = p.afterRealTask();
    }
    assertThat(withOther).hasSize(100).isNotEqualTo(run("judge-1", Frequency.DEFAULT, 500));
  }

  @Test
  void changingTheFrequencyNeverBunchesCanaries() {
    // Property: whatever the sequence of frequencies, no window of the current frequency gets a
    // second canary, and canaries never come twice in a row without a real task between them.
    Random random = new Random(1234);
    for (int round = 0; round < 50; round++) {
      CanarySchedule.Progress p = CanarySchedule.Progress.START;
      for (int i = 0; i < 400; i++) {
        Frequency f = new Frequency(random.nextBoolean() ? 5 : 20);
        int dueInARow = 0;
        while (SCHEDULE.canaryDue("judge-" + round, f, p)) {
          p = p.afterCanary();
          dueInARow++;
        }
        assertThat(dueInARow).isLessThanOrEqualTo(1);
        p = p.afterRealTask();
      }
      assertThat(p.canaries()).isBetween(10L, 400L / 5);
    }
  }

  @Test
  void trustedEvaluatorsGetCanariesOneIn20() {
    TrackRecord trusted = Pools.record(200, 40, 39, "2"); // 97.5% over 40
    TrackRecord justAt = Pools.record(200, 40, 38, "2"); // exactly 95%: not above
    TrackRecord young = Pools.record(200, 10, 10, "2"); // 100% over too few
    assertThat(CanarySchedule.effectiveFrequency(Frequency.DEFAULT, trusted))
        .isEqualTo(CanarySchedule.RELAXED);
    assertThat(CanarySchedule.effectiveFrequency(Frequency.DEFAULT, justAt))
        .isEqualTo(Frequency.DEFAULT);
    assertThat(CanarySchedule.effectiveFrequency(Frequency.DEFAULT, young))
        .isEqualTo(Frequency.DEFAULT);
    assertThat(CanarySchedule.effectiveFrequency(new Frequency(50), trusted))
        .as("an agreement asking for rarer canaries keeps its rate")
        .isEqualTo(new Frequency(50));
  }

  @Test
  void thePoolIsGivenEveryCanaryOnceBeforeAnyAgain() {
    CanarySet set = Canaries.set(7);
    Set<String> served = new HashSet<>();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      Canary next = SCHEDULE.freshCanary(set, "research", served).orElseThrow();
      assertThat(served.add(next.id())).as("served once").isTrue();
      order.add(next.id());
    }
    assertThat(SCHEDULE.freshCanary(set, "research", served)).as("used up").isEmpty();
    List<String> sorted = order.stream().sorted().toList();
    assertThat(order).as("a secret order, not the set's").isNotEqualTo(sorted);
    for (int r = 0; r < 3; r++) {
      Set<String> round = new HashSet<>();
      for (int i = 0; i < 7; i++) {
        round.add(SCHEDULE.repeatedCanary(set, "research", 7 * r + i).orElseThrow().id());
      }
      assertThat(round).as("each round serves each canary once").hasSize(7);
    }
    assertThat(SCHEDULE.freshCanary(set, "translation", Set.of())).isEmpty();
    assertThat(SCHEDULE.repeatedCanary(CanarySet.EMPTY, "research", 0)).isEmpty();
  }

  @Test
  void aDueCanaryComesBesideTheRealTaskAsOftenAsAloneAndLater() {
    int beside = 0;
    List<Long> delays = new ArrayList<>();
    Duration toAnswer = Duration.ofHours(2);
    for (int n = 0; n < 2_000; n++) {
      switch (SCHEDULE.placement("judge-" + (n % 7), n, toAnswer)) {
        case CanarySchedule.Placement.Beside b -> beside++;
        case CanarySchedule.Placement.Alone a -> delays.add(a.after().toMillis());
      }
    }
    System.out.printf(
        "beside %d of 2000; lone delays %d..%d ms%n",
        beside,
        delays.stream().mapToLong(Long::longValue).min().orElse(0),
        delays.stream().mapToLong(Long::longValue).max().orElse(0));
    assertThat(beside).as("about half beside").isBetween(900, 1100);
    assertThat(delays).allMatch(d -> d >= 1 && d <= toAnswer.toMillis());
    assertThat(delays.stream().filter(d -> d < toAnswer.toMillis() / 2).count())
        .as("spread evenly over the time to answer")
        .isBetween(400L, 600L);
    assertThat(SCHEDULE.placement("j", 1, Duration.ofDays(30)))
        .isEqualTo(SCHEDULE.placement("j", 1, Duration.ofDays(30)));
    for (int n = 0; n < 200; n++) {
      if (SCHEDULE.placement("j", n, Duration.ofDays(30))
          instanceof CanarySchedule.Placement.Alone a) {
        assertThat(a.after()).isLessThanOrEqualTo(CanarySchedule.MAX_LONE_DELAY);
      }
      if (SCHEDULE.placement("j", n, Duration.ofSeconds(5))
          instanceof CanarySchedule.Placement.Alone a) {
        assertThat(a.after()).isLessThanOrEqualTo(CanarySchedule.MIN_LONE_SPREAD);
      }
    }
  }

  @Test
  void theScheduleNeedsARealSecretAndConsistentCounters() {
    assertThatThrownBy(() -> new CanarySchedule(new byte[16]))
        .hasMessageContaining("at least 32 bytes");
    assertThatThrownBy(() -> new CanarySchedule.Progress(1, 0, 1))
        .hasMessageContaining("no canary given");
    assertThatThrownBy(() -> new CanarySchedule.Progress(1, 1, 2))
        .hasMessageContaining("cannot come after");
    assertThatThrownBy(() -> SCHEDULE.repeatedCanary(Canaries.set(1), "research", -1))
        .hasMessageContaining("never negative");
  }
}
