package dev.asa.server.pool;

import java.time.Clock;

/**
 * The evaluator registry's routes, composed once: registration, reads, the operator's standings and
 * canary loading, each a use case of its own over the one {@link EvaluatorRegistry}. This class
 * only wires them.
 */
public final class RegistryService {
  private final EvaluatorRegistrations registrations;
  private final EvaluatorReads reads;
  private final EvaluatorStandings standings;
  private final CanaryLoading canaries;

  public RegistryService(EvaluatorRegistry registry, Clock clock) {
    this.registrations = new EvaluatorRegistrations(registry, clock);
    this.reads = new EvaluatorReads(registry);
    this.standings = new EvaluatorStandings(registry, clock);
    this.canaries = new CanaryLoading(registry, clock);
  }

  public EvaluatorRegistrations registrations() {
    return registrations;
  }

  public EvaluatorReads reads() {
    return reads;
  }

  public EvaluatorStandings standings() {
    return standings;
  }

  public CanaryLoading canaries() {
    return canaries;
  }
}
