package dev.asa.server.logging;

import dev.asa.ledger.Transfer;
import dev.asa.lifecycle.State;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.CommitListener;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.EventRecord;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per agreement state change and per ledger transfer, and the transitions counter, all
 * from what the store has committed ({@link CommitListener}): a change that lost a race or was
 * refused never shows. Lines carry ids, states, accounts and amounts; never a document, a
 * deliverable or a signature.
 */
public final class ActivityLog implements CommitListener {
  private static final Logger states = LoggerFactory.getLogger("dev.asa.server.events.state");
  private static final Logger transfers = LoggerFactory.getLogger("dev.asa.server.events.transfer");

  private final Metrics metrics;

  public ActivityLog(Metrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void agreementCommitted(
      String agreementId, State from, State to, List<EventRecord> events, List<Write> writes) {
    if (from != to) {
      String left = from == null ? "none" : from.name();
      metrics.transition(left, to.name());
      if (states.isInfoEnabled()) {
        String cause = events.stream().map(EventRecord::type).collect(Collectors.joining(","));
        states
            .atInfo()
            .setMessage("agreement {} {} -> {} ({})")
            .addArgument(agreementId)
            .addArgument(left)
            .addArgument(to.name())
            .addArgument(cause)
            .addKeyValue("event", "state_change")
            .addKeyValue("agreement_id", agreementId)
            .addKeyValue("from", left)
            .addKeyValue("to", to.name())
            .addKeyValue("cause", cause)
            .log();
      }
    }
    writesApplied(writes);
  }

  @Override
  public void writesApplied(List<Write> writes) {
    if (!transfers.isInfoEnabled()) {
      return;
    }
    for (Write write : writes) {
      if (write instanceof Write.PostTransfer post) {
        Transfer t = post.transfer();
        String amount = t.amount().toWire();
        String currency = t.amount().currency().code();
        transfers
            .atInfo()
            .setMessage("transfer {} of {} {} from {} to {} (agreement {})")
            .addArgument(t.kind().wireName())
            .addArgument(amount)
            .addArgument(currency)
            .addArgument(t.from())
            .addArgument(t.to())
            .addArgument(t.agreementId())
            .addKeyValue("event", "transfer")
            .addKeyValue("agreement_id", t.agreementId())
            .addKeyValue("kind", t.kind().wireName())
            .addKeyValue("from_account", t.from())
            .addKeyValue("to_account", t.to())
            .addKeyValue("amount", amount)
            .addKeyValue("currency", currency)
            .log();
      }
    }
  }
}
