package dev.asa.access;

/**
 * Everything a caller can ask of an existing agreement; who may do which is {@link AccessPolicy}'s.
 */
public enum Operation {
  READ,
  NEGOTIATE,
  SIGN_AS_CLIENT,
  SIGN_AS_PROVIDER,
  FUND,
  STAKE_COLLATERAL,
  DELIVER,
  TRIGGER_VERIFICATION,
  SUBMIT_VERIFICATION_RESULT,
  CHALLENGE,
  CLOSE,
  RULE,
  /** Read or record the anchor a party appends to its own CoC chain (whitepaper 9.1). */
  ANCHOR
}
