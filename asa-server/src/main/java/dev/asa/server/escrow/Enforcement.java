package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.DeadMansSwitch;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.crypto.Digest;
import dev.asa.document.Agreement;
import dev.asa.facts.CollateralFact;
import dev.asa.facts.EscrowFact;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.FactCodec;
import dev.asa.facts.SettlementFact;
import dev.asa.json.Json;
import dev.asa.ledger.Accounts;
import dev.asa.ledger.Slashing;
import dev.asa.ledger.Transfer;
import dev.asa.scoring.Release;
import dev.asa.scoring.Settlement;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import dev.asa.server.store.Write;
import dev.asa.server.store.escrow.ChainTransactionStore;
import dev.asa.server.store.escrow.LedgerEntry;
import dev.asa.server.store.escrow.LedgerStore;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.escrow.OutboxRow;
import dev.asa.server.store.escrow.OutboxStore;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Moves an agreement's money: funding (the client's money is held in the agreement's escrow
 * account) and settlement (the held amount split between provider and client). This is the one
 * place that books transfers; whatever path ends an agreement (close after the challenge window, a
 * ruling, a dead-man's switch) settles through {@link #settle}. It returns writes; the caller
 * commits them with the agreement's change, and the ledger's primary key refuses a second release
 * or refund of the same agreement, so money moves at most once even under races and retries.
 *
 * <p>The agreement's escrow fact records where the money stands: {@code unfunded}, {@code held},
 * {@code frozen} (a dispute is open), {@code settled}. A provider's collateral ({@code
 * escrow.collateral}) is staked here too ({@link #stake}) and settled with the escrow ({@link
 * #settleCollateral}), in an account of its own; its fact says {@code held}, {@code slashed} or
 * {@code returned}.
 */
public final class Enforcement {

  private final LedgerStore ledger;
  private final OutboxStore outbox;
  private final Map<String, EscrowBinding> bindings;

  public Enforcement(LedgerStore ledger, OutboxStore outbox, List<EscrowBinding> bindings) {
    this.ledger = ledger;
    this.outbox = outbox;
    this.bindings =
        bindings.stream()
            .collect(Collectors.toUnmodifiableMap(EscrowBinding::type, Function.identity()));
  }

  /** The bindings this server offers with its configuration. */
  public static List<EscrowBinding> bindings(
      EscrowConfig config,
      LedgerStore ledger,
      X402Facilitator facilitator,
      Erc8183Chain chain,
      ChainTransactionStore transactions) {
    List<EscrowBinding> list = new ArrayList<>();
    list.add(new LedgerBinding());
    list.add(new HttpCallbackBinding(config.callbackUrlPrefixes()));
    if (facilitator != null) {
      list.add(new X402Binding(facilitator, ledger));
    }
    if (chain != null) {
      list.add(new Erc8183Binding(chain, transactions));
    }
    return list;
  }

  /** The courier of {@code erc8183} settlements (the outbox's kinds {@code erc8183.*}). */
  public static Courier chainCourier(
      Erc8183Chain chain, ChainTransactionStore transactions, Clock clock) {
    return new Erc8183Courier(chain, transactions, clock);
  }

  /** Whether an outbox message is an {@code erc8183} settlement, for {@link #chainCourier}. */
  public static boolean isChainMessage(OutboxMessage message) {
    return Erc8183Courier.carries(message);
  }

  /**
   * Whether the client must fund before the provider delivers: escrow on, and a non-zero amount to
   * hold.
   */
  public static boolean requiresFunding(AgreementTerms terms) {
    return terms.escrow().enabled()
        && terms.escrow().paymentTerms().map(p -> p.amount().amount().signum() > 0).orElse(false);
  }

  public static boolean isFunded(Agreement a) {
    return a.facts().fundedAt().isPresent();
  }

  /**
   * Whether the provider must stake a collateral before it delivers: escrow on, with {@code
   * escrow.collateral} (the core refuses a collateral on a disabled escrow).
   */
  public static boolean requiresCollateral(AgreementTerms terms) {
    return terms.escrow().enabled() && terms.escrow().collateralTerms().isPresent();
  }

  /** Whether the provider staked its collateral (it may since have been slashed or returned). */
  public static boolean isStaked(Agreement a) {
    return a.facts().collateral().isPresent();
  }

  /** Settlement may come this long after funding at most, beyond the agreement's own timeouts. */
  private static final Duration SETTLEMENT_MARGIN = Duration.ofDays(1);

  /** The delivery time assumed when the terms set no provider timeout. */
  private static final Duration DEFAULT_DELIVERY = Duration.ofDays(7);

  /**
   * The longest an escrow can wait between funding and settlement under the agreement's own
   * timeouts (delivery, evaluation, challenge window), plus a day: how long an x402 authorization
   * must stay valid, and how late an ERC-8183 job may expire at the earliest.
   */
  static Duration settlementHorizon(Agreement a) {
    var dms = a.terms().escrow().deadMansSwitch();
    Duration delivery =
        dms.providerTimeoutSeconds() != null
            ? Duration.ofSeconds(dms.providerTimeoutSeconds())
            : DEFAULT_DELIVERY;
    return delivery
        .plus(Duration.ofSeconds(a.terms().evaluatorDeadlineSeconds()))
        .plus(Duration.ofSeconds(a.terms().verification().challengeWindowSeconds()))
        .plus(SETTLEMENT_MARGIN);
  }

  /** Refuses, at creation, an escrow this server cannot operate, naming the field. */
  public void check(Agreement a) {
    if (requiresCollateral(a.terms()) && !binding(a).holdsCollateral()) {
      throw new InvalidDocumentException(
          "/escrow/collateral",
          "the '"
              + a.terms().escrow().bindingType()
              + "' binding cannot hold a collateral beside its escrow; only "
              + bindings.values().stream()
                  .filter(EscrowBinding::holdsCollateral)
                  .map(EscrowBinding::type)
                  .sorted()
                  .toList()
              + " can: use that binding, or remove escrow.collateral");
    }
    if (!requiresFunding(a.terms())) {
      return;
    }
    JsonNode binding = a.member("escrow").path("binding");
    binding(a).check(binding, a.terms().escrow().paymentTerms().orElseThrow().amount());
    Optional<String> whole = binding(a).wholeReleasesOnly(binding);
    if (whole.isEmpty()) {
      binding(a).checkReleases(a);
      return;
    }
    GraduatedRelease release = a.terms().escrow().paymentTerms().orElseThrow().release();
    if (release.enabled()
        && (release.mode() == GraduatedRelease.Mode.CONTINUOUS
            || release.tiers().stream().anyMatch(t -> !isWhole(t.releasePercent())))) {
      throw new InvalidDocumentException(
          "/escrow/payment/graduated_release",
          "releases a part of the amount for some scores, but "
              + whole.get()
              + ": use tiers that release 0 or 100 percent, or the upto scheme");
    }
    if (a.terms().escrow().deadMansSwitch().timeoutAction()
        == DeadMansSwitch.TimeoutAction.SPLIT_50_50) {
      throw new InvalidDocumentException(
          "/escrow/dead_mans_switch/timeout_action",
          "split_50_50 releases half of the amount, but "
              + whole.get()
              + ": choose another action, or the upto scheme");
    }
  }

  /**
   * Refuses a ruling that would release a part of an escrow that can only release all or nothing
   * (pointer {@code /release_percent}, the ruling's own field).
   */
  public void checkRuling(Agreement a, BigDecimal percent) {
    if (!requiresFunding(a.terms())) {
      return;
    }
    Optional<String> whole = binding(a).wholeReleasesOnly(a.member("escrow").path("binding"));
    if (whole.isPresent() && !isWhole(percent)) {
      throw new InvalidDocumentException(
          "/release_percent", "must be 0 or 100 for this agreement: " + whole.get());
    }
    binding(a).checkRuling(a, percent);
  }

  /**
   * Refuses a first delivery the escrow's rail does not show yet (see {@link
   * EscrowBinding#checkDelivery}); nothing to check when nothing is held.
   */
  public void checkDelivery(Agreement a, Digest contentHash) {
    if (requiresFunding(a.terms()) && isFunded(a)) {
      binding(a).checkDelivery(a, contentHash);
    }
  }

  private static boolean isWhole(BigDecimal percent) {
    return percent.signum() == 0 || percent.compareTo(BigDecimal.valueOf(100)) == 0;
  }

  /** The result of funding: writes to commit and the escrow fact to record. */
  public record Funding(List<Write> writes, EscrowFact escrow) {}

  /** The result of settling: writes to commit and the settlement fact to record. */
  public record Settling(List<Write> writes, SettlementFact settlement) {}

  /** The result of staking or settling a collateral: writes to commit and the fact to record. */
  public record Bond(List<Write> writes, CollateralFact collateral) {
    public Bond {
      writes = List.copyOf(writes);
    }
  }

  /**
   * Funds the agreement's escrow: money enters the client's account from the rail and is held in
   * the agreement's escrow account.
   *
   * @param request {@code amount} and {@code currency}, when given, must match the terms
   */
  public Funding fund(Agreement a, FundRequest request, Instant now) {
    if (!requiresFunding(a.terms())) {
      throw new InvalidDocumentException(
          "/escrow", "this agreement holds no money in escrow: nothing to fund");
    }
    if (isFunded(a)) {
      throw new IllegalStateException("already funded"); // the caller checks first and answers 409
    }
    Money amount = a.terms().escrow().paymentTerms().orElseThrow().amount();
    Optional<String> currency = request.currency();
    if (currency.isPresent() && !currency.get().equals(amount.currency().code())) {
      throw new InvalidDocumentException(
          "/currency",
          "the agreement is in " + amount.currency().code() + ", not " + currency.get());
    }
    if (request.amount().isPresent() && !sameAmount(request.amount().get(), amount)) {
      throw new InvalidDocumentException(
          "/amount",
          "the agreement holds \"" + amount.toWire() + "\" (a decimal string); fund exactly that");
    }
    EscrowBinding binding = binding(a);
    EscrowBinding.Funded funded = binding.fund(a, request.bindingPayload(), now);
    String client = Accounts.party(a.terms().parties().client().verificationKey().toBase64Url());
    List<Write> writes = new ArrayList<>();
    writes.add(
        new Write.PostTransfer(
            new Transfer(
                a.id(),
                Transfer.Kind.FUND,
                Accounts.external(binding.type()),
                client,
                amount,
                now)));
    writes.add(
        new Write.PostTransfer(
            new Transfer(
                a.id(), Transfer.Kind.HOLD, client, Accounts.escrow(a.id()), amount, now)));
    writes.addAll(funded.writes());
    return new Funding(
        writes,
        new EscrowFact(
            EscrowStatus.HELD,
            binding.type(),
            amount.toWire(),
            amount.currency().code(),
            now,
            Accounts.escrow(a.id()),
            funded.facts()));
  }

  /**
   * Stakes the provider's collateral ({@code escrow.collateral}): money enters the provider's
   * account from the rail and is held in the agreement's collateral account, as {@link #fund} does
   * for the client's payment. Why from the rail and not from what the provider's account already
   * holds (releases of earlier agreements): the ledger binding pays nothing out, so a party's
   * balance is a record of what it earned, not money it put up for this agreement; crediting the
   * stake as it is locked keeps each agreement's money its own (two stakes never race over one
   * balance), and the provider's account never goes below zero by construction.
   *
   * @param body the provider's body, checked by the binding (the ledger's takes none)
   */
  public Bond stake(Agreement a, ObjectNode body, Instant now) {
    Escrow.Collateral terms =
        a.terms()
            .escrow()
            .collateralTerms()
            .filter(c -> requiresCollateral(a.terms()))
            .orElseThrow(() -> new IllegalStateException("no collateral to stake")); // caller: 409
    if (isStaked(a)) {
      throw new IllegalStateException("already staked"); // the caller checks first and answers 409
    }
    EscrowBinding binding = binding(a);
    if (!binding.holdsCollateral()) { // refused at creation; a server that lost the binding since
      throw new IllegalStateException("the " + binding.type() + " binding holds no collateral");
    }
    binding.checkStake(body);
    Money amount = terms.amount();
    String provider =
        Accounts.party(a.terms().parties().provider().verificationKey().toBase64Url());
    String account = Accounts.collateral(a.id());
    List<Write> writes =
        List.of(
            new Write.PostTransfer(
                new Transfer(
                    a.id(),
                    Transfer.Kind.DEPOSIT,
                    Accounts.external(binding.type()),
                    provider,
                    amount,
                    now)),
            new Write.PostTransfer(
                new Transfer(a.id(), Transfer.Kind.STAKE, provider, account, amount, now)));
    return new Bond(
        writes, CollateralFact.held(amount.toWire(), amount.currency().code(), account, now));
  }

  /**
   * Settles a held collateral as the agreement ends ({@link Slashing}): the slashed share to the
   * client, the rest back to the provider. Empty when nothing is held (no collateral in the terms,
   * never staked, or already settled: a stake moves once). Called by every ending, in the same
   * change as {@link #settle}, so the escrow and the stake settle together or not at all.
   *
   * @param reason what ended the agreement, recorded with the outcome
   */
  public Optional<Bond> settleCollateral(
      Agreement a, Slashing.Ending ending, String reason, Instant now) {
    Optional<CollateralFact> held = a.facts().collateral().filter(CollateralFact::isHeld);
    Optional<Escrow.Collateral> terms = a.terms().escrow().collateralTerms();
    if (held.isEmpty() || terms.isEmpty()) {
      return Optional.empty();
    }
    Slashing.Outcome outcome = Slashing.decide(terms.get(), ending);
    var parties = a.terms().parties();
    String account = Accounts.collateral(a.id());
    List<Write> writes = new ArrayList<>();
    if (outcome.slashed().amount().signum() > 0) {
      writes.add(
          new Write.PostTransfer(
              new Transfer(
                  a.id(),
                  Transfer.Kind.SLASH,
                  account,
                  Accounts.party(parties.client().verificationKey().toBase64Url()),
                  outcome.slashed(),
                  now)));
    }
    if (outcome.returned().amount().signum() > 0) {
      writes.add(
          new Write.PostTransfer(
              new Transfer(
                  a.id(),
                  Transfer.Kind.RETURN,
                  account,
                  Accounts.party(parties.provider().verificationKey().toBase64Url()),
                  outcome.returned(),
                  now)));
    }
    CollateralFact settled =
        held.get()
            .settled(
                outcome.slashed().toWire(),
                outcome.returned().toWire(),
                outcome.trigger().map(Escrow.SlashEvent::wireName).orElse(null),
                reason,
                now);
    return Optional.of(new Bond(writes, settled));
  }

  /**
   * The agreement with its escrow's status changed (e.g. to {@code frozen} by a dispute); an
   * agreement that holds nothing in escrow (no escrow facts) is returned unchanged.
   */
  public static Agreement withEscrowStatus(Agreement a, EscrowStatus status) {
    return a.facts()
        .escrow()
        .map(e -> a.withFacts(f -> f.withEscrow(e.withStatus(status))))
        .orElse(a);
  }

  /**
   * Settles: {@code percent} of the amount to the provider, the rest back to the client, rounded to
   * the currency's minor unit in the client's favour ({@link Release#split}). Returns the writes
   * and the settlement record; nothing moves when nothing was held (escrow off or not funded), and
   * the record says so.
   */
  public Settling settle(Agreement a, BigDecimal percent, String reason, Instant now) {
    List<Write> writes = new ArrayList<>();
    Escrow.Payment payment = a.terms().escrow().paymentTerms().orElse(null);
    if (payment == null) {
      return new Settling(writes, SettlementFact.withoutPaymentTerms(now, reason, percent));
    }
    boolean held = requiresFunding(a.terms()) && isFunded(a);
    // What the rail really moves when it pays in coarser steps (an ERC-8183 escrow's whole jobs).
    Settlement split =
        held
            ? binding(a).split(a, payment.amount(), percent)
            : Release.split(payment.amount(), percent);
    SettlementFact.Amounts amounts = SettlementFact.Amounts.of(payment.amount(), split);
    if (!held) {
      String note =
          requiresFunding(a.terms())
              ? "the escrow was never funded: nothing was held, nothing moved"
              : payment.amount().amount().signum() == 0
                  ? "the amount is zero: nothing to hold"
                  : "escrow is disabled: the amounts are what the terms say, to be settled outside this server";
      return new Settling(writes, SettlementFact.nothingMoved(now, reason, percent, amounts, note));
    }
    EscrowBinding binding = binding(a);
    String escrow = Accounts.escrow(a.id());
    var parties = a.terms().parties();
    if (split.released().amount().signum() > 0) {
      writes.add(
          new Write.PostTransfer(
              new Transfer(
                  a.id(),
                  Transfer.Kind.RELEASE,
                  escrow,
                  Accounts.party(parties.provider().verificationKey().toBase64Url()),
                  split.released(),
                  now)));
    }
    if (split.refunded().amount().signum() > 0) {
      writes.add(
          new Write.PostTransfer(
              new Transfer(
                  a.id(),
                  Transfer.Kind.REFUND,
                  escrow,
                  Accounts.party(parties.client().verificationKey().toBase64Url()),
                  split.refunded(),
                  now)));
    }
    writes.addAll(binding.settle(a, split, reason, now));
    return new Settling(
        writes, SettlementFact.moved(now, reason, percent, amounts, binding.type()));
  }

  /** {@code GET /agreements/{id}/escrow}: the escrow's status, balance, transfers and messages. */
  public ObjectNode view(Agreement a) {
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().name());
    o.put("binding", a.terms().escrow().bindingType());
    o.put("enabled", a.terms().escrow().enabled());
    a.terms()
        .escrow()
        .paymentTerms()
        .ifPresent(p -> {
          o.put("amount", p.amount().toWire());
          o.put("currency", p.amount().currency().code());
        });
    if (requiresFunding(a.terms()) && bindings.containsKey(a.terms().escrow().bindingType())) {
      ObjectNode described = binding(a).describe(a);
      if (described != null) {
        o.setAll(described);
      }
    }
    o.put(
        "status",
        a.facts()
            .escrowStatus()
            .map(EscrowStatus::wireName)
            .orElse(
                requiresFunding(a.terms()) ? EscrowStatus.UNFUNDED.wireName() : "not_required"));
    List<LedgerEntry> entries = ledger.entriesOfAgreement(a.id());
    o.set(
        "balances",
        balances(
            entries.stream().filter(e -> e.account().equals(Accounts.escrow(a.id()))).toList()));
    a.terms()
        .escrow()
        .collateralTerms()
        .ifPresent(c -> o.set("collateral", collateralView(a, c, entries)));
    o.set("transfers", transfers(entries));
    ArrayNode messages = o.putArray("messages");
    for (OutboxRow m : outbox.messagesOf(a.id())) {
      ObjectNode row = messages.addObject();
      row.put("webhook_id", m.message().id());
      row.put("kind", m.message().kind());
      row.put("destination", m.message().destination());
      row.put("status", m.status().name().toLowerCase(Locale.ROOT));
      row.put("attempts", m.attempts());
      if (m.status() == OutboxRow.Status.PENDING)
        row.put("next_attempt_at", m.nextAttemptAt().toString());
      if (m.lastError() != null) row.put("last_error", m.lastError());
      if (m.deliveredAt() != null) row.put("delivered_at", m.deliveredAt().toString());
      if (m.response() != null) row.put("response", m.response());
    }
    return o;
  }

  /**
   * The escrow view's {@code collateral}: the terms, where the stake stands ({@code awaiting} until
   * the provider stakes, {@code held}, {@code slashed}, {@code returned}; {@code not_staked} for an
   * agreement that ended without a stake) and what its account holds.
   */
  private static ObjectNode collateralView(
      Agreement a, Escrow.Collateral terms, List<LedgerEntry> entries) {
    ObjectNode o = Json.object();
    o.put("amount", terms.amount().toWire());
    o.put("currency", terms.amount().currency().code());
    ArrayNode on = o.putArray("slash_on");
    terms.slashOn().forEach(e -> on.add(e.wireName()));
    o.put("slash_percent", terms.slashPercent());
    Optional<CollateralFact> fact = a.facts().collateral();
    if (fact.isPresent()) {
      ObjectNode facts = FactCodec.write(fact.get());
      facts.remove("amount");
      facts.remove("currency");
      o.setAll(facts);
    } else {
      o.put("status", a.state().isFinal() ? "not_staked" : "awaiting");
      o.put("collateral_account", Accounts.collateral(a.id()));
    }
    o.set(
        "balances",
        balances(
            entries.stream()
                .filter(e -> e.account().equals(Accounts.collateral(a.id())))
                .toList()));
    return o;
  }

  /** {@code GET /accounts/{key}}: a key's balance per currency and its newest entries. */
  public ObjectNode account(String key, int limit) {
    String account = Accounts.party(key);
    List<LedgerEntry> all = ledger.entriesOfAccount(account, Integer.MAX_VALUE);
    List<LedgerEntry> entries = all.subList(0, Math.min(limit, all.size()));
    ObjectNode o = Json.object();
    o.put("account", account);
    o.set("balances", balances(all));
    o.put("complete", entries.size() == all.size());
    ArrayNode list = o.putArray("entries");
    for (LedgerEntry e : entries) {
      list.addObject()
          .put("transfer_id", e.transferId())
          .put("agreement_id", e.agreementId())
          .put("kind", e.kind().wireName())
          .put("direction", e.direction().name().toLowerCase(Locale.ROOT))
          .put("amount", e.amount().toWire())
          .put("currency", e.amount().currency().code())
          .put("at", e.at().toString());
    }
    return o;
  }

  private static ObjectNode balances(List<LedgerEntry> entries) {
    Map<String, BigDecimal> sums = new TreeMap<>();
    Map<String, Integer> scales = new TreeMap<>();
    for (LedgerEntry e : entries) {
      sums.merge(e.amount().currency().code(), e.signedAmount(), BigDecimal::add);
      scales.put(e.amount().currency().code(), e.amount().currency().decimals());
    }
    ObjectNode o = Json.object();
    sums.forEach((code, sum) -> o.put(code, sum.setScale(scales.get(code)).toPlainString()));
    return o;
  }

  private static ArrayNode transfers(List<LedgerEntry> entries) {
    ArrayNode list = Json.mapper().createArrayNode();
    for (int i = 0; i + 1 < entries.size(); i += 2) { // legs come in pairs: debit then credit
      LedgerEntry debit = entries.get(i);
      LedgerEntry credit = entries.get(i + 1);
      list.addObject()
          .put("transfer_id", debit.transferId())
          .put("kind", debit.kind().wireName())
          .put("from", debit.account())
          .put("to", credit.account())
          .put("amount", debit.amount().toWire())
          .put("currency", debit.amount().currency().code())
          .put("at", debit.at().toString());
    }
    return list;
  }

  private EscrowBinding binding(Agreement a) {
    String type = a.terms().escrow().bindingType();
    EscrowBinding b = bindings.get(type);
    if (b == null) {
      throw new InvalidDocumentException(
          "/escrow/binding/type",
          "this server does not operate the '"
              + type
              + "' binding; it offers "
              + new TreeSet<>(bindings.keySet()));
    }
    return b;
  }

  private static boolean sameAmount(String text, Money amount) {
    try {
      return new BigDecimal(text).compareTo(amount.amount()) == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
