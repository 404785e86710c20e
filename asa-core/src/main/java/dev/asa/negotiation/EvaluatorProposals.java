package dev.asa.negotiation;

import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.facts.EvaluatorProposalsFact;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Mutual evaluator selection through negotiation (whitepaper 3.6.1): which proposals a negotiation
 * message may carry, and what they make of the parties' proposals so far.
 *
 * <p>A proposal is the sender's whole list and replaces its earlier one; at activation the
 * evaluators on both lists are drawn from, among those still eligible then, and without one the
 * random fallback applies ({@code dev.asa.integrity.Assignment}). So no party can impose an
 * evaluator: the worst it can do is propose nothing the other proposes, which leaves the choice to
 * the random draw it would have had anyway.
 *
 * <p>Pure, like {@link Negotiator}; the caller records the returned fact only with the outcome of
 * the message, so a refused message changes nothing.
 */
public final class EvaluatorProposals {
  private EvaluatorProposals() {}

  private static final String AT = "/proposed_evaluators";

  /**
   * The parties' proposals after {@code msg}; empty when it proposes nothing (it leaves {@code
   * proposed_evaluators} out, keeping the sender's earlier list).
   *
   * @param terms the agreement's terms (its evaluator selection)
   * @param sofar the proposals recorded so far
   * @param party who sent the message
   * @param now when the server takes it
   * @throws InvalidDocumentException at {@code /proposed_evaluators}, when the agreement does not
   *     take proposals: not chosen mutually, past {@code max_rounds}, or not from a signing party
   */
  public static Optional<EvaluatorProposalsFact> apply(
      AgreementTerms terms,
      EvaluatorProposalsFact sofar,
      NegotiationMessage msg,
      Role party,
      Instant now) {
    Objects.requireNonNull(terms, "terms");
    Objects.requireNonNull(sofar, "sofar");
    Objects.requireNonNull(party, "party");
    Objects.requireNonNull(now, "now");
    if (msg.proposedEvaluators().isEmpty()) {
      return Optional.empty();
    }
    List<Ed25519PublicKey> keys = msg.proposedEvaluators().get();
    if (party != Role.CLIENT && party != Role.PROVIDER) {
      throw new InvalidDocumentException(
          AT,
          "only the client and the provider propose evaluators; the "
              + party.wireName()
              + " is what they choose");
    }
    EvaluatorSelection selection = terms.verification().evaluatorSelection();
    if (!(selection instanceof EvaluatorSelection.Mutual mutual)) {
      throw new InvalidDocumentException(AT, notMutual(selection));
    }
    if (msg.round() > mutual.maxRounds()) {
      throw new InvalidDocumentException(
          AT,
          "the parties propose evaluators in rounds 1 to "
              + mutual.maxRounds()
              + " (verification.evaluator_selection.max_rounds), and this message is round "
              + msg.round()
              + ": the proposals stand as they are, and without an evaluator both propose the"
              + " evaluator is drawn at random from the pool at activation; send the message"
              + " without proposed_evaluators");
    }
    EvaluatorProposalsFact.Proposal p = new EvaluatorProposalsFact.Proposal(keys, msg.round(), now);
    return Optional.of(party == Role.CLIENT ? sofar.withClient(p) : sofar.withProvider(p));
  }

  private static String notMutual(EvaluatorSelection selection) {
    String how =
        switch (selection) {
          case EvaluatorSelection.Named n -> "names its evaluator in parties.evaluator";
          case EvaluatorSelection.RandomFromPool r ->
              "has its evaluator drawn at random from the pool (verification.evaluator_selection"
                  + " random_from_pool, the default without parties.evaluator)";
          case EvaluatorSelection.Marketplace m ->
              "has its evaluator chosen by the marketplace criteria (verification"
                  + ".evaluator_selection marketplace)";
          case EvaluatorSelection.Mutual m -> throw new IllegalArgumentException("mutual");
        };
    return "this agreement "
        + how
        + "; evaluators are proposed only when verification.evaluator_selection.mode is mutual,"
        + " so leave proposed_evaluators out";
  }
}
