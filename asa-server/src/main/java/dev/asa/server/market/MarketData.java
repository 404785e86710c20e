package dev.asa.server.market;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Money;
import dev.asa.agreement.Parties;
import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.json.Json;
import dev.asa.negotiation.MarketMedian;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The market median price of a service type, from this store's own CLOSED agreements: the anchor
 * the negotiation price bounds compare against (whitepaper section 7.3). Each distinct (client,
 * provider) pair counts once, at its latest price, so that two agents dealing with each other
 * cannot set the market; at least {@code policy.minClosedForMedian()} distinct pairs in the same
 * currency are needed, below that there is no median (and no price flag). Each pair's price weighs
 * by its provider's record here ({@link MarketMedian#weightOfRecord}), so that fresh identities
 * trading among themselves move the median little.
 */
public final class MarketData {

  /** How many of the newest closed agreements the median looks at. */
  static final int WINDOW = 101;

  /** How many agreements a provider's record here holds (those that reached ARP). */
  @FunctionalInterface
  public interface ProviderRecords {
    long agreements(Party provider);

    ProviderRecords NONE = provider -> 0;
  }

  private final AgreementStore agreements;
  private final NegotiationPolicy policy;
  private final ProviderRecords records;

  public MarketData(AgreementStore agreements, NegotiationPolicy policy) {
    this(agreements, policy, ProviderRecords.NONE);
  }

  public MarketData(AgreementStore agreements, NegotiationPolicy policy, ProviderRecords records) {
    this.agreements = agreements;
    this.policy = policy;
    this.records = records;
  }

  /** A median with where it came from and how many distinct trading pairs it rests on. */
  public record Median(BigDecimal value, String currency, String source, int sample) {
    public ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("median_price", value.toPlainString());
      o.put("currency", currency);
      o.put("source", source);
      o.put("sample", sample);
      return o;
    }
  }

  /**
   * The median of the closed agreements of this type paid in {@code currency}, one price per
   * distinct (client, provider) pair, if enough pairs traded.
   */
  public Optional<Median> median(String serviceType, String currency) {
    List<MarketMedian.ClosedDeal> deals = new ArrayList<>();
    Map<String, Long> recordOf = new HashMap<>(); // a provider's record, read once per median
    for (AgreementRow row : agreements.recentClosed(serviceType, WINDOW)) { // newest first
      Agreement a = AgreementDocuments.readStored(row.document(), row.state());
      Parties parties = a.terms().parties();
      a.terms()
          .escrow()
          .paymentTerms()
          .map(p -> p.amount())
          .filter(m -> m.currency().code().equals(currency))
          .map(Money::amount)
          .ifPresent(price ->
              deals.add(
                  new MarketMedian.ClosedDeal(
                      parties.client().identity(),
                      parties.provider().identity(),
                      price,
                      MarketMedian.weightOfRecord(
                          recordOf.computeIfAbsent(
                              parties.provider().verificationKey().toBase64Url()
                                  + " "
                                  + parties.provider().identity().value(),
                              k -> records.agreements(parties.provider()))))));
    }
    // The median rule itself (one voice per pair, how many are enough, how to take it) is the
    // core's.
    int pairs = MarketMedian.latestPricePerPair(deals).size();
    return MarketMedian.fromClosedDeals(deals, policy)
        .map(m -> new Median(m.median().stripTrailingZeros(), currency, m.source(), pairs));
  }

  /**
   * {@code GET /market/{service_type}}: the current figure per currency seen, or why there is none.
   */
  public ObjectNode describe(String serviceType) {
    List<String> currencies = new ArrayList<>();
    for (AgreementRow row : agreements.recentClosed(serviceType, WINDOW)) {
      AgreementDocuments.readStored(row.document(), row.state())
          .terms()
          .escrow()
          .paymentTerms()
          .map(p -> p.amount().currency().code())
          .filter(c -> !currencies.contains(c))
          .ifPresent(currencies::add);
    }
    ObjectNode out = Json.object();
    out.put("service_type", serviceType);
    out.put("min_sample", policy.minClosedForMedian());
    ArrayNode medians = out.putArray("medians");
    for (String currency : currencies) {
      median(serviceType, currency).ifPresent(m -> medians.add(m.toJson()));
    }
    if (medians.isEmpty()) {
      out.put(
          "note",
          "fewer than "
              + policy.minClosedForMedian()
              + " distinct client-provider pairs have closed agreements of this type"
              + " in any one currency: no market median,"
              + " so negotiations of this type are not price-flagged unless a trusted market_reference is given");
    }
    return out;
  }
}
