package dev.asa.server.net;

import java.io.IOException;

/**
 * The policy refused the destination before any byte was sent: not http(s), a loopback name, or a
 * host with an internal address among its addresses. The message names the address and why, for the
 * server log only: an API caller must not learn which internal addresses a name has.
 */
public final class DestinationRefusedException extends IOException {
  public DestinationRefusedException(String message) {
    super(message);
  }
}
