package dev.asa.cli.mcp;

import dev.asa.client.AsaApiException;

/**
 * The server's refusal with what the tool knows to do about it, beyond the server's words: use
 * another tool, pass the argument a payment rail needs.
 */
final class Refusal extends RuntimeException {

  private final AsaApiException refusal;
  private final String hint;

  Refusal(AsaApiException refusal, String hint) {
    super(refusal.getMessage(), refusal, false, false);
    this.refusal = refusal;
    this.hint = hint;
  }

  AsaApiException refusal() {
    return refusal;
  }

  String hint() {
    return hint;
  }
}
