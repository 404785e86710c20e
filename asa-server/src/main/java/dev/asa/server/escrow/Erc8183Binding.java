package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.scoring.Settlement;
import dev.asa.server.escrow.erc8183.Addresses;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import dev.asa.server.escrow.erc8183.Job;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.store.ChainTransaction;
import dev.asa.server.store.ChainTransactionStore;
import dev.asa.server.store.OutboxMessage;
import dev.asa.server.store.Write;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * {@code erc8183}: the escrow is an ERC-8183 job (Agentic Commerce) on a chain, and this server is
 * the job's evaluator, signing with the operator's attestor key ({@link Erc8183Chain}).
 *
 * <p>Who does what, and why:
 *
 * <ul>
 *   <li><b>The client creates and funds the job.</b> The contract takes the job's client from the
 *       caller and pulls the budget from it; this server holds no client key, so it could only
 *       create the job by holding the client's money, a custody role ERC-8183 does not have. The
 *       client's {@code fund} request names the job; the server reads the job and its {@code
 *       JobFunded} event at a block with the configured confirmations, and checks every term: the
 *       agreement's provider, this server as evaluator, the budget, a description naming the
 *       agreement (so one job funds one agreement), and an {@code expiredAt} late enough.
 *   <li><b>{@code expiredAt} covers the whole agreement, not only delivery.</b> After it anyone may
 *       {@code claimRefund} a job that still holds its budget, delivered or not; a job expiring at
 *       the provider's deadline would let the client take back a delivered job's budget during its
 *       evaluation and challenge window. So it must be at least funding + the provider timeout +
 *       the evaluator timeout + the challenge window + a day, as x402's horizon. When the provider
 *       timeout fires, the server refunds by {@code reject} (its right as evaluator), or by {@code
 *       claimRefund} once the chain's time has passed {@code expiredAt}; if this server is gone,
 *       the client claims the refund itself after {@code expiredAt}.
 *   <li><b>The provider submits on chain itself</b> (only the job's provider may call {@code
 *       submit}): a delivery is accepted once the job's {@code JobSubmitted} event, confirmed,
 *       carries the deliverable's SHA-256.
 *   <li><b>Release is binary.</b> {@code complete} pays the whole budget, {@code reject} and {@code
 *       claimRefund} return all of it; {@link #wholeReleasesOnly} makes {@link Enforcement#check}
 *       refuse terms that could release a part. No hook contract splits it.
 *   <li>The enforced result goes through the outbox ({@link Erc8183Courier}): each instruction is
 *       one transaction, signed once and stored before it is sent.
 * </ul>
 */
final class Erc8183Binding implements EscrowBinding {
  static final String TYPE = "erc8183";

  private static final Set<String> MEMBERS =
      Set.of(
          "type",
          "contract_address",
          "chain",
          "provider_address",
          "client_address",
          "evaluator_address");

  /** Chain names an agreement may use instead of {@code eip155:<id>}. */
  private static final Map<String, Long> CHAINS =
      Map.of(
          "ethereum", 1L,
          "sepolia", 11_155_111L,
          "base", 8453L,
          "base-sepolia", 84_532L,
          "optimism", 10L,
          "arbitrum", 42_161L,
          "polygon", 137L);

  private static final Pattern EIP155 = Pattern.compile("eip155:([1-9][0-9]{0,17})");
  private static final Pattern JOB_ID = Pattern.compile("[1-9][0-9]{0,76}");

  private final Erc8183Chain chain;
  private final ChainTransactionStore transactions;

  Erc8183Binding(Erc8183Chain chain, ChainTransactionStore transactions) {
    this.chain = chain;
    this.transactions = transactions;
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** The binding's members, checked. */
  record Terms(String contract, long chainId, String provider, String client) {

    static Terms of(JsonNode binding) {
      for (var it = binding.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!MEMBERS.contains(name)) {
          throw new InvalidDocumentException(
              "/escrow/binding/" + name,
              "is not a member of an erc8183 binding; it has " + new TreeSet<>(MEMBERS));
        }
      }
      String contract = address(binding, "contract_address", true);
      String provider = address(binding, "provider_address", true);
      if (Addresses.isZero(provider)) {
        throw new InvalidDocumentException(
            "/escrow/binding/provider_address",
            "is the zero address; name the provider's own address, which submit is called from"
                + " and complete pays");
      }
      return new Terms(
          contract,
          chainId(binding.get("chain")),
          provider,
          address(binding, "client_address", false));
    }

    private static String address(JsonNode binding, String field, boolean required) {
      JsonNode v = binding.get(field);
      if (v == null && !required) {
        return null;
      }
      if (v == null || !v.isTextual() || !Addresses.isAddress(v.textValue())) {
        throw new InvalidDocumentException(
            "/escrow/binding/" + field,
            (v == null ? "is required: " : "must be ") + "an EVM address, 0x and 40 hex digits");
      }
      return v.textValue();
    }

    private static long chainId(JsonNode chain) {
      if (chain != null && chain.isTextual()) {
        String name = chain.textValue().toLowerCase(Locale.ROOT);
        if (CHAINS.containsKey(name)) {
          return CHAINS.get(name);
        }
        var m = EIP155.matcher(chain.textValue());
        if (m.matches()) {
          return Long.parseLong(m.group(1));
        }
      }
      throw new InvalidDocumentException(
          "/escrow/binding/chain",
          "is required: the chain the contract is on, \"eip155:<chain id>\" (e.g. \"eip155:8453\")"
              + " or one of "
              + new TreeSet<>(CHAINS.keySet()));
    }
  }

  @Override
  public void check(JsonNode binding, Money amount) {
    Terms terms = Terms.of(binding);
    JsonNode evaluator = binding.get("evaluator_address");
    if (evaluator != null
        && !(evaluator.isTextual() && Addresses.same(evaluator.textValue(), chain.attestor()))) {
      throw new InvalidDocumentException(
          "/escrow/binding/evaluator_address",
          "must be this server's attestor address "
              + chain.attestor()
              + " (the job's evaluator), or left out");
    }
    if (!chain.settings().attests(terms.contract())) {
      throw new InvalidDocumentException(
          "/escrow/binding/contract_address",
          "is not a job contract this server attests jobs on (the operator lists "
              + chain.settings().contracts()
              + "); name one of them");
    }
    if (terms.chainId() != chain.chainId()) {
      throw new InvalidDocumentException(
          "/escrow/binding/chain",
          "names chain "
              + terms.chainId()
              + ", but this server attests ERC-8183 jobs on chain "
              + chain.chainId()
              + " only");
    }
    if (!chain.hasCode(terms.contract())) {
      throw new InvalidDocumentException(
          "/escrow/binding/contract_address",
          "holds no contract on chain " + chain.chainId() + ": name the ERC-8183 job contract");
    }
    String token =
        chain
            .token(terms.contract())
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/escrow/binding/contract_address",
                    "answers no token(): it is not an ERC-8183 job contract this server can"
                        + " check"));
    int decimals =
        chain
            .decimals(token)
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/escrow/binding/contract_address",
                    "pays in " + token + ", which answers no decimals(): not an ERC-20"));
    if (decimals != amount.currency().decimals()) {
      throw new InvalidDocumentException(
          "/escrow/payment/currency",
          amount.currency().code()
              + " has "
              + amount.currency().decimals()
              + " decimals, but the contract's token "
              + token
              + " has "
              + decimals
              + ": the budget could not be stated exactly");
    }
  }

  @Override
  public Optional<String> wholeReleasesOnly(JsonNode binding) {
    return Optional.of(
        "an ERC-8183 job pays its whole budget to the provider (complete) or returns all of it to"
            + " the client (reject, claimRefund)");
  }

  @Override
  public Funded fund(Agreement a, ObjectNode body, Instant now) {
    JsonNode request = body.get("erc8183");
    JsonNode jobText = request == null ? null : request.get("job_id");
    if (request == null
        || body.size() != 1
        || !request.isObject()
        || request.size() != 1
        || jobText == null
        || !jobText.isTextual()
        || !JOB_ID.matcher(jobText.textValue()).matches()) {
      throw new InvalidDocumentException(
          "/erc8183/job_id",
          "required, and alone: {\"erc8183\": {\"job_id\": \"<the job's id, a decimal string>\"}}:"
              + " the ERC-8183 job you created and funded for this agreement (GET /agreements/"
              + a.id()
              + "/escrow shows its terms)");
    }
    Terms terms = Terms.of(binding(a));
    if (!chain.settings().attests(terms.contract())) {
      throw new InvalidDocumentException(
          "/erc8183/job_id",
          "this server no longer attests jobs on contract "
              + terms.contract()
              + " (the operator lists "
              + chain.settings().contracts()
              + "): it cannot fund this agreement");
    }
    BigInteger jobId = new BigInteger(jobText.textValue());
    long confirmed = chain.confirmedBlock();
    Job job = chain.job(terms.contract(), jobId, confirmed);
    if (!job.exists() || !job.status().holdsBudget()) {
      Job latest = chain.job(terms.contract(), jobId, chain.head());
      if (latest.exists() && latest.status().holdsBudget()) {
        throw notYetConfirmed("job " + jobId + " is funded");
      }
      throw new InvalidDocumentException(
          "/erc8183/job_id",
          latest.exists()
              ? "job "
                  + jobId
                  + " is "
                  + latest.status().displayName()
                  + ", not Funded: call setBudget and fund(jobId, "
                  + atomic(a)
                  + ") first"
              : "contract " + terms.contract() + " has no job " + jobId);
    }
    String pointer = "/erc8183/job_id";
    if (!Addresses.same(job.evaluator(), chain.attestor())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s evaluator is "
              + job.evaluator()
              + ", not this server's attestor "
              + chain.attestor());
    }
    if (!Addresses.same(job.provider(), terms.provider())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s provider is "
              + job.provider()
              + ", not the agreement's provider_address "
              + terms.provider());
    }
    if (terms.client() != null && !Addresses.same(job.client(), terms.client())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + " was created by "
              + job.client()
              + ", not the agreement's client_address "
              + terms.client());
    }
    if (!job.budget().equals(atomic(a))) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + " holds "
              + job.budget()
              + " atomic units, not the escrow's "
              + atomic(a)
              + " ("
              + amount(a).toWire()
              + " "
              + amount(a).currency().code()
              + ")");
    }
    if (!description(a).equals(job.description())) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + "'s description must be \""
              + description(a)
              + "\", so that it funds this agreement and no other");
    }
    Instant mustLast =
        Instant.ofEpochSecond(now.getEpochSecond()).plus(Enforcement.settlementHorizon(a));
    if (job.expiredAt().isBefore(mustLast)) {
      throw new InvalidDocumentException(
          pointer,
          "job "
              + jobId
              + " expires at "
              + job.expiredAt()
              + ", before this agreement may have to settle (as late as "
              + mustLast
              + "); after expiredAt the client could take back a delivered job's budget");
    }
    List<Erc8183Chain.JobEvent> funded = chain.fundedEvents(terms.contract(), jobId, confirmed);
    if (funded.isEmpty()) {
      throw notYetConfirmed("job " + jobId + "'s JobFunded event");
    }
    ObjectNode facts = Json.object();
    facts.put("chain_id", chain.chainId());
    facts.put("contract_address", terms.contract());
    facts.put("job_id", jobId.toString());
    facts.put("client_address", job.client());
    facts.put("provider_address", job.provider());
    facts.put("evaluator_address", job.evaluator());
    facts.put("budget_atomic", job.budget().toString());
    facts.put("expired_at", job.expiredAt().toString());
    facts.put("funded_block", funded.get(0).block());
    facts.put("funded_tx", funded.get(0).txHash());
    return new Funded(List.of(), facts);
  }

  /**
   * A first delivery is accepted once the provider's {@code submit} on chain is confirmed and
   * carries the deliverable's SHA-256 (a re-delivery is checked by the server alone: the job is
   * already Submitted).
   */
  @Override
  public void checkDelivery(Agreement a, Digest contentHash) {
    Terms terms = Terms.of(binding(a));
    BigInteger jobId = jobId(a);
    List<Erc8183Chain.JobEvent> submitted =
        chain.submittedEvents(terms.contract(), jobId, fundedBlock(a), chain.confirmedBlock());
    if (submitted.isEmpty()) {
      if (!chain.submittedEvents(terms.contract(), jobId, fundedBlock(a), chain.head()).isEmpty()) {
        throw notYetConfirmed("job " + jobId + "'s JobSubmitted event");
      }
      throw new ChainNotReadyException(
          "job "
              + jobId
              + " has no submission on chain: the provider calls submit("
              + jobId
              + ", 0x"
              + contentHash.hex()
              + ") on "
              + terms.contract()
              + " from "
              + terms.provider()
              + ", then delivers once it has "
              + chain.confirmations()
              + " confirmation(s)",
          retryAfter());
    }
    byte[] onChain = submitted.get(0).value();
    if (!Arrays.equals(onChain, contentHash.bytes())) {
      throw new InvalidDocumentException(
          "/content_hash",
          "job "
              + jobId
              + " was submitted on chain with deliverable 0x"
              + HexFormat.of().formatHex(onChain)
              + ", but this deliverable's SHA-256 is 0x"
              + contentHash.hex()
              + ": deliver the content that was submitted");
    }
  }

  @Override
  public List<Write> settle(Agreement a, Settlement split, String reason, Instant now) {
    boolean complete = split.refunded().amount().signum() == 0;
    if (!complete && split.released().amount().signum() != 0) {
      // Enforcement.check and checkRuling refuse every term that could get here.
      throw new IllegalStateException(
          "agreement " + a.id() + " would release a part of an ERC-8183 job, which cannot");
    }
    Terms terms = Terms.of(binding(a));
    // The binding's chain (checked at creation to be the node's): closing never waits on the node.
    Erc8183Courier.Instruction instruction =
        new Erc8183Courier.Instruction(
            terms.chainId(),
            terms.contract(),
            jobId(a),
            complete ? Erc8183Courier.Call.COMPLETE : Erc8183Courier.Call.REFUND,
            reasonDigest(a, reason));
    return List.of(
        new Write.Enqueue(
            new OutboxMessage(
                "msg_" + a.id() + "_erc8183_" + instruction.call().wireName(),
                a.id(),
                Erc8183Courier.KIND_PREFIX + instruction.call().wireName(),
                "eip155:" + instruction.chainId() + ":" + terms.contract(),
                Json.write(instruction.toJson()),
                now,
                0)));
  }

  /**
   * The {@code reason} the contract records: the verification result's seal when the result
   * decided, else the SHA-256 of the agreement id and what ended it (a timeout, a ruling).
   */
  private static byte[] reasonDigest(Agreement a, String reason) {
    if ("verification_result".equals(reason)) {
      Optional<String> seal = a.facts().verification().map(v -> v.evaluationHash());
      if (seal.isPresent()) {
        try {
          return Digest.parse(seal.get()).bytes();
        } catch (RuntimeException e) {
          // an older result without a well-formed seal: fall through to the named reason
        }
      }
    }
    return Digest.sha256((a.id() + ":" + reason).getBytes(StandardCharsets.UTF_8)).bytes();
  }

  /** What a client needs to create and fund the job, and the server's transactions for it. */
  @Override
  public ObjectNode describe(Agreement a) {
    ObjectNode o = Json.object();
    ObjectNode job = o.putObject("erc8183");
    Terms terms;
    try {
      terms = Terms.of(binding(a));
    } catch (InvalidDocumentException e) {
      o.put("erc8183_unavailable", e.getMessage());
      return o;
    }
    job.put("contract_address", terms.contract());
    job.put("chain_id", terms.chainId());
    job.put("evaluator_address", chain.attestor());
    job.put("provider_address", terms.provider());
    if (terms.client() != null) {
      job.put("client_address", terms.client());
    }
    job.put("budget_atomic", atomic(a).toString());
    job.put("description", description(a));
    job.put("expired_at_min_seconds_after_funding", Enforcement.settlementHorizon(a).toSeconds());
    job.put("confirmations", chain.confirmations());
    a.facts()
        .escrow()
        .map(e -> e.bindingDetails())
        .filter(d -> d != null && d.hasNonNull("job_id"))
        .ifPresent(d -> job.put("job_id", d.get("job_id").textValue()));
    ArrayNode list = job.putArray("transactions");
    for (ChainTransaction tx : transactions.ofAgreement(a.id())) {
      ObjectNode t = list.addObject();
      t.put("message_id", tx.messageId());
      t.put("call", tx.call());
      t.put("tx_hash", tx.txHash());
      t.put("nonce", tx.nonce());
      t.put("status", tx.status().name().toLowerCase(Locale.ROOT));
      if (tx.blockNumber() != null) {
        t.put("block_number", tx.blockNumber());
      }
      t.put("confirmations", tx.confirmations());
      if (!tx.replacedHashes().isEmpty()) {
        ArrayNode replaced = t.putArray("replaced_hashes"); // same nonce, a lower fee: never mined
        tx.replacedHashes().forEach(replaced::add);
      }
      t.put("signed_at", tx.signedAt().toString());
      t.put("observed_at", tx.observedAt().toString());
    }
    return o;
  }

  /** The description a job must carry to fund this agreement, and no other. */
  static String description(Agreement a) {
    return "ASA agreement " + a.id();
  }

  private static JsonNode binding(Agreement a) {
    return a.toJson().path("escrow").path("binding");
  }

  private static Money amount(Agreement a) {
    return a.terms().escrow().paymentTerms().orElseThrow().amount();
  }

  private static BigInteger atomic(Agreement a) {
    return new BigInteger(X402.atomicAmount(amount(a)));
  }

  private static BigInteger jobId(Agreement a) {
    return a.facts()
        .escrow()
        .map(e -> e.bindingDetails())
        .filter(d -> d != null && d.path("job_id").isTextual())
        .map(d -> new BigInteger(d.get("job_id").textValue()))
        .orElseThrow(() ->
            new IllegalStateException(
                "agreement " + a.id() + " is funded by erc8183 but records no job"));
  }

  /** The block the job's funding was seen in (recorded at funding). */
  private static long fundedBlock(Agreement a) {
    return a.facts()
        .escrow()
        .map(e -> e.bindingDetails())
        .filter(d -> d != null && d.path("funded_block").canConvertToLong())
        .map(d -> d.get("funded_block").asLong())
        .orElse(0L);
  }

  private ChainNotReadyException notYetConfirmed(String what) {
    return new ChainNotReadyException(
        what
            + " in a block with fewer than "
            + chain.confirmations()
            + " confirmation(s) (this server trusts nothing shallower, a reorg could undo it):"
            + " retry shortly",
        retryAfter());
  }

  private static Duration retryAfter() {
    return Duration.ofSeconds(12);
  }
}
