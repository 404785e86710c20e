package dev.asa.integrity;

import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.Party;
import dev.asa.agreement.RotationTerms;
import java.util.Objects;

/**
 * What an assignment must respect: the two parties the evaluator must be independent of, the
 * service type it must evaluate, and the rotation bound on the provider.
 *
 * @param rotation the agreement's rotation, or the server's default when it sets none
 */
public record AssignmentContext(
    Party client, Party provider, String serviceType, RotationTerms rotation) {

  public AssignmentContext {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(serviceType, "serviceType");
    Objects.requireNonNull(rotation, "rotation (the server's default when the agreement has none)");
  }

  /** The context of an agreement, with the server's rotation default for agreements without one. */
  public static AssignmentContext of(AgreementTerms terms, RotationTerms serverDefault) {
    return new AssignmentContext(
        terms.parties().client(),
        terms.parties().provider(),
        terms.service().type(),
        terms.verification().rotationOr(serverDefault));
  }

  /**
   * The provider as rotation counts it: its key id. ({@link TrackRecord#consecutiveByProvider} is
   * keyed by it.)
   */
  public String providerId() {
    return providerId(provider);
  }

  public static String providerId(Party provider) {
    return provider.verificationKey().toBase64Url();
  }
}
