package dev.asa.coc;

import java.util.List;
import java.util.Objects;

/** The verdict on a chain: it verifies (and what it shows), or the first entry that breaks it. */
public sealed interface CocCheck {

  /**
   * @param anchors the indexes of the {@code anchor} entries whose data is one the caller expected
   */
  record Valid(CocSummary summary, List<Long> anchors) implements CocCheck {
    public Valid {
      Objects.requireNonNull(summary, "summary");
      anchors = List.copyOf(anchors);
    }
  }

  record Broken(CocFailure failure) implements CocCheck {
    public Broken {
      Objects.requireNonNull(failure, "failure");
    }
  }
}
