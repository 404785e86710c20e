package dev.asa.server.work;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;

/**
 * New ids the server hands out: dated where a person reads them, random enough never to collide.
 */
public final class Ids {
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public Ids(Clock clock) {
    this.clock = clock;
  }

  public String agreementId() {
    return "asa-" + LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC) + "-" + randomHex(8);
  }

  public String negotiationId() {
    return "neg-" + randomHex(8);
  }

  public String verificationId() {
    return "ver-" + LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC) + "-" + randomHex(8);
  }

  /**
   * A task in an evaluator's work queue: random only, so that nothing in it tells real work from a
   * canary.
   */
  public String taskId() {
    return "tsk-" + randomHex(16);
  }

  private String randomHex(int bytes) {
    byte[] b = new byte[bytes];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
