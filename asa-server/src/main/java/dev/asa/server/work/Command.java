package dev.asa.server.work;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.ChallengeReason;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.negotiation.NegotiationMessage;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.shadow.SealRequest;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * What a caller asks of an agreement, already read from its request body: the HTTP layer parses
 * bodies into these records (every malformed field refused there, naming it), so the use cases
 * receive typed requests and only decide. A record here holds nothing the server owns.
 *
 * <p>{@code claimedParty}, where present, is the role the body says it acts as; the use case checks
 * it against the key that signed the request.
 */
public sealed interface Command {

  /** {@code POST /agreements/{id}/sign}. */
  record Sign(Role party, Ed25519Signature signature, Optional<String> agreementHash)
      implements Command {
    public Sign {
      if (party != Role.CLIENT && party != Role.PROVIDER) {
        throw new IllegalArgumentException("only the client and the provider sign: " + party);
      }
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(agreementHash, "agreementHash");
    }
  }

  /** {@code PATCH /agreements/{id}/negotiate}. */
  record Negotiate(Optional<String> claimedParty, NegotiationMessage message) implements Command {
    public Negotiate {
      Objects.requireNonNull(claimedParty, "claimedParty");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * {@code POST /agreements/{id}/collateral}: what the escrow binding reads to stake the provider's
   * collateral (nothing, on the ledger; the binding refuses what it does not take).
   */
  record Stake(ObjectNode bindingPayload) implements Command {
    public Stake {
      bindingPayload = bindingPayload.deepCopy();
    }

    @Override
    public ObjectNode bindingPayload() {
      return bindingPayload.deepCopy();
    }
  }

  /** {@code POST /agreements/{id}/deliver}. */
  record Deliver(Delivery delivery) implements Command {
    public Deliver {
      Objects.requireNonNull(delivery, "delivery");
    }
  }

  /**
   * {@code POST /agreements/{id}/verify}: the assigned evaluator's scores, or a request that the
   * server's engine run with {@code engineConfig}, or neither (the agreement's own depth decides).
   */
  /**
   * An answer to a task of the evaluator work queue: its {@code evaluator_result}, parsed and as
   * sent (held as sent until the task settles).
   */
  record TaskAnswer(SubmittedResult result, JsonNode json) implements Command {
    public TaskAnswer {
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(json, "json");
    }
  }

  record Verify(SubmittedResult submitted, Optional<EvaluationConfig> engineConfig)
      implements Command {
    public Verify {
      Objects.requireNonNull(submitted, "submitted");
      Objects.requireNonNull(engineConfig, "engineConfig");
      if (!submitted.isEmpty() && engineConfig.isPresent()) {
        throw new IllegalArgumentException("scores and an engine request are exclusive");
      }
    }
  }

  /** {@code POST /agreements/{id}/challenge}. */
  record Challenge(Optional<String> claimedParty, ChallengeReason reason) implements Command {
    public Challenge {
      Objects.requireNonNull(claimedParty, "claimedParty");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** {@code POST /agreements/{id}/ruling}: a share from 0 to 100 with at most two decimals. */
  /**
   * A ruling: the share released to the provider, or an AJP decision from which it follows ({@code
   * ajp} not null, {@code releasePercent} null until the case's parties are known).
   */
  record Ruling(BigDecimal releasePercent, String reason, AjpDecision ajp) implements Command {
    public Ruling(BigDecimal releasePercent, String reason) {
      this(releasePercent, reason, null);
    }

    public Ruling {
      Objects.requireNonNull(reason, "reason");
      if (releasePercent == null) {
        Objects.requireNonNull(ajp, "a ruling without a release percent carries an AJP decision");
      } else if (releasePercent.signum() < 0
          || releasePercent.compareTo(BigDecimal.valueOf(100)) > 0
          || releasePercent.scale() > 2) {
        throw new IllegalArgumentException("release percent out of range: " + releasePercent);
      }
    }
  }

  /**
   * The Agent Justice Protocol's decision on a case this server filed (its section 6.6): which
   * claim, and the fault it found with the claimant and the respondent, in whole percent.
   */
  record AjpDecision(
      String decisionId,
      String claimId,
      int claimantFaultPct,
      int respondentFaultPct,
      int noFaultPct) {
    public AjpDecision {
      Objects.requireNonNull(claimId, "claimId");
      if (claimantFaultPct < 0
          || respondentFaultPct < 0
          || noFaultPct < 0
          || claimantFaultPct + respondentFaultPct + noFaultPct != 100) {
        throw new IllegalArgumentException(
            "fault percentages are whole, not negative, and sum to 100");
      }
    }
  }

  /** {@code POST /agreements/{id}/seal} and {@code POST /shadow/seals}. */
  /**
   * {@code POST /agreements/{id}/anchor}: a party shows its CoC chain again, now holding the anchor
   * entry; exactly one of the two is given.
   *
   * @param chainUrl where the chain is served as JSON Lines, or null
   * @param chain the entries inline (an array), or null
   */
  record Anchor(String chainUrl, com.fasterxml.jackson.databind.JsonNode chain) implements Command {
    public Anchor {
      if ((chainUrl == null) == (chain == null)) {
        throw new IllegalArgumentException("exactly one of chain_url and chain");
      }
    }
  }

  record Seal(SealRequest request) implements Command {
    public Seal {
      Objects.requireNonNull(request, "request");
    }
  }

  /** {@code POST /shadow/seals/{id}/validate}: delivered work to check against a seal. */
  record Validate(String content, Optional<String> format) implements Command {
    public Validate {
      Objects.requireNonNull(content, "content");
      Objects.requireNonNull(format, "format");
    }
  }
}
