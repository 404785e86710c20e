package dev.asa.cli;

import dev.asa.agreement.ChallengeReason;
import dev.asa.negotiation.RationaleCode;
import java.util.Arrays;
import java.util.Iterator;

/**
 * The fixed lists some options take their values from: shown in the help (picocli's {@code
 * ${COMPLETION-CANDIDATES}}) and offered by shell completion.
 */
final class Candidates {
  private Candidates() {}

  /** {@code agreements challenge --reason}. */
  static final class ChallengeReasons implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(ChallengeReason.values()).map(ChallengeReason::wireName).iterator();
    }
  }

  /** {@code agreements negotiate --rationale}. */
  static final class Rationales implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(RationaleCode.values()).map(RationaleCode::wireName).iterator();
    }
  }

  /** {@code --as} of the signing parties. */
  static final class SigningRoles implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return java.util.List.of("client", "provider").iterator();
    }
  }
}
