package dev.asa.agreement;

import java.util.List;
import java.util.Objects;

/** Client, provider and the independent evaluator. */
public record Parties(Party client, Party provider, Party evaluator) {
  public Parties {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(evaluator, "evaluator");
  }

  public Party get(Role role) {
    return switch (role) {
      case CLIENT -> client;
      case PROVIDER -> provider;
      case EVALUATOR -> evaluator;
    };
  }

  public List<Party> all() {
    return List.of(client, provider, evaluator);
  }
}
