package dev.asa.server.escrow.erc8183;

/**
 * The chain's JSON-RPC node gave no usable answer (unreachable, timed out, an error that is not
 * about the call itself): nothing was decided, and the request may be repeated later.
 */
public final class ChainUnavailableException extends RuntimeException {
  public ChainUnavailableException(String message) {
    super(message);
  }

  public ChainUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
