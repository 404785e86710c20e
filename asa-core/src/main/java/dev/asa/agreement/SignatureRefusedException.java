package dev.asa.agreement;

/** A signature did not verify; the message says what had to be signed, with which key. */
public final class SignatureRefusedException extends RuntimeException {
  public SignatureRefusedException(String message) {
    super(message);
  }
}
