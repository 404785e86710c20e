package dev.asa.server.net;

import java.io.IOException;

/** The exchange did not finish within its {@link FetchLimits}: connecting, or the whole answer. */
public final class OutboundTimeoutException extends IOException {
  public OutboundTimeoutException(String message) {
    super(message);
  }
}
