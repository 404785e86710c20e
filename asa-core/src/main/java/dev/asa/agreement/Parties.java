package dev.asa.agreement;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Client, provider and, when the document names it, the independent evaluator.
 *
 * <p>Whoever chooses the evaluator chooses the outcome (whitepaper 3.6.1), so a document may leave
 * {@code parties.evaluator} out: the server then assigns one from its pool when the agreement
 * becomes ACTIVE, and records the assignment as a server fact beside the document ({@link
 * dev.asa.document.Agreement#evaluators()} answers both cases). The signed terms never change for
 * it.
 *
 * @param namedEvaluator the evaluator the document names, or null when the pool assigns one; read
 *     it through {@link #evaluator()}
 */
public record Parties(Party client, Party provider, Party namedEvaluator) {
  public Parties {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(provider, "provider");
  }

  /** The evaluator the document names; empty when the server's pool assigns one at activation. */
  public Optional<Party> evaluator() {
    return Optional.ofNullable(namedEvaluator);
  }

  /** The client or the provider (the parties that sign). */
  public Party signer(Role role) {
    return switch (role) {
      case CLIENT -> client;
      case PROVIDER -> provider;
      case EVALUATOR ->
          throw new IllegalArgumentException("only the client and the provider sign an agreement");
    };
  }

  /** The parties the document names: client, provider and, if named, the evaluator. */
  public List<Party> all() {
    List<Party> all = new ArrayList<>(List.of(client, provider));
    evaluator().ifPresent(all::add);
    return List.copyOf(all);
  }
}
