package dev.asa.facts;

import dev.asa.crypto.Ed25519PublicKey;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The registry evaluators each party proposed while negotiating an agreement whose evaluator is
 * chosen mutually (whitepaper 3.6.1): the latest list of each, which replaced its earlier ones. At
 * activation the evaluators on both lists are the candidates of the mutual draw ({@link #common}).
 *
 * <p>A server fact, written only from negotiation messages the parties signed, never from a
 * document: a proposal binds nobody until the other party proposes the same evaluator, so a party
 * can neither impose an evaluator nor see its own proposal treated as the other's.
 *
 * @param client the client's latest proposal, or null when it has made none
 * @param provider the provider's latest proposal, or null when it has made none
 */
public record EvaluatorProposalsFact(Proposal client, Proposal provider) implements TypedFact {

  public static final EvaluatorProposalsFact NONE = new EvaluatorProposalsFact(null, null);

  /**
   * One party's proposal.
   *
   * @param evaluators the proposed evaluators' keys, in the party's order, each once; empty when
   *     the party withdrew its proposal
   * @param round the negotiation round of the message that made it
   * @param proposedAt when the server took that message
   */
  public record Proposal(List<Ed25519PublicKey> evaluators, int round, Instant proposedAt) {
    public Proposal {
      evaluators = List.copyOf(evaluators);
      Objects.requireNonNull(proposedAt, "proposedAt");
      if (new HashSet<>(evaluators).size() != evaluators.size()) {
        throw new IllegalArgumentException("an evaluator is proposed twice: " + evaluators);
      }
      if (round < 1) {
        throw new IllegalArgumentException("rounds start at 1, not " + round);
      }
    }
  }

  public Optional<Proposal> clientProposal() {
    return Optional.ofNullable(client);
  }

  public Optional<Proposal> providerProposal() {
    return Optional.ofNullable(provider);
  }

  public EvaluatorProposalsFact withClient(Proposal p) {
    return new EvaluatorProposalsFact(Objects.requireNonNull(p, "p"), provider);
  }

  public EvaluatorProposalsFact withProvider(Proposal p) {
    return new EvaluatorProposalsFact(client, Objects.requireNonNull(p, "p"));
  }

  /**
   * The evaluators both parties propose, in the client's order; empty until both have proposed one
   * in common. Whether they can be assigned is decided at activation, not here.
   */
  public Set<Ed25519PublicKey> common() {
    if (client == null || provider == null) {
      return Set.of();
    }
    Set<Ed25519PublicKey> both = new LinkedHashSet<>(client.evaluators());
    both.retainAll(new HashSet<>(provider.evaluators()));
    return both;
  }
}
