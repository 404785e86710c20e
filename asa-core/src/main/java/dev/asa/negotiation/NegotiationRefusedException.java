package dev.asa.negotiation;

/**
 * A well-formed message that the negotiation cannot take now: out of turn, wrong round, wrong
 * negotiation_id, a move beyond the asymmetry limit, a change after the terms were accepted, or a
 * negotiation that has ended. Nothing was applied. The message says what would be accepted.
 */
public final class NegotiationRefusedException extends RuntimeException {
  public NegotiationRefusedException(String message) {
    super(message);
  }
}
