package dev.asa.cli;

import dev.asa.client.AgreementPage;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code asa agreements list [--party VALUE | --all] [filters]}: one page of a party's agreements
 * (or, with the operator key and {@code --all}, of every agreement), filtered.
 */
@Command(
    name = "list",
    header = "Lists the agreements a party takes part in, filtered, a page at a time.",
    customSynopsis =
        "asa agreements list [--party VALUE | --all] [--state S] [--service-type TYPE]"
            + " [--created-after INSTANT] [--created-before INSTANT] [--min-amount AMOUNT]"
            + " [--max-amount AMOUNT] [--currency CODE] [--cursor C] [--limit N]",
    description =
        "A page covers --limit of the party's agreements and shows those the filters keep, so it"
            + " may show fewer (even none) and still say where the next page starts.")
final class ListCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Mixin ListFilterOptions filters;

  @Option(
      names = "--party",
      paramLabel = "VALUE",
      description =
          "the did:key of a client, provider or evaluator (default: the did:key of your --key)")
  String party;

  @Option(
      names = "--all",
      description = "every agreement, whoever takes part (the operator key only; no --party)")
  boolean all;

  @Option(
      names = "--state",
      paramLabel = "S",
      description = "only agreements in this state, such as active or CLOSED")
  String state;

  @Option(
      names = "--cursor",
      paramLabel = "C",
      description = "where the previous page ended (printed under it)")
  String cursor;

  @Option(names = "--limit", paramLabel = "N", description = "page size, 1 to 200 (default 50)")
  String limit;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    String party = all ? null : party(this.party, session);
    if (all && this.party != null) {
      throw new UsageException("--all lists every agreement; leave --party out");
    }
    AgreementPage page =
        session
            .client()
            .agreements()
            .list(
                party,
                filters.filter(ListFilterOptions.state(state)),
                cursor,
                Inputs.intValue("--limit", limit, 0, 1, 200));
    if (session.json()) {
      session.printJson(page.json());
      return Exit.OK;
    }
    Table table =
        Table.withHeaders(
            "AGREEMENT", "STATE", "SERVICE", "AMOUNT", "CLIENT", "PROVIDER", "CREATED", "UPDATED");
    for (AgreementPage.Summary item : page.items()) {
      table.row(
          item.id(),
          item.state().name(),
          item.serviceType(),
          item.amount().map(a -> a.toPlainString() + " " + item.currency().orElse("")).orElse("-"),
          party(item.client()),
          party(item.provider()),
          item.createdAt(),
          item.updatedAt());
    }
    String whose = party == null ? "" : " for " + party;
    if (table.isEmpty()) {
      session.out().println("no agreements" + whose + " on this page");
    } else {
      session.out().print(table.render());
    }
    page.nextCursor()
        .ifPresent(next ->
            session
                .out()
                .println(
                    "more: asa agreements list "
                        + (party == null ? "--all" : "--party " + party)
                        + " (with the same filters) --cursor "
                        + next));
    return Exit.OK;
  }

  /** Longer display names are cut in the table; the full name is in {@code --json}. */
  static final int NAME_WIDTH = 24;

  /**
   * A party of a listed agreement as its cell shows it: the display name the agreement gives it,
   * else its identity shortened; either shown inert, as a party wrote it (see {@link
   * Formats#inert}).
   */
  static String party(Optional<AgreementPage.Party> party) {
    return party
        .map(p ->
            p.displayName()
                .filter(name -> !name.isBlank())
                .map(name -> Formats.inert(name, NAME_WIDTH))
                .orElseGet(() -> Formats.shortId(p.identity())))
        .orElse("-");
  }

  /**
   * The party to list: the one given, else the did:key of the signing key. Agreements name parties
   * by identity (a did:key), so a bare base64url public key would match nothing: it is refused,
   * with the did:key it stands for.
   */
  static String party(String given, Session session) throws UsageException, CliException {
    if (given == null) {
      String keyFile = session.keyFileName();
      if (keyFile == null) {
        throw new UsageException(
            "missing --party VALUE: give a party's did:key, or pass --key FILE or set ASA_KEY to"
                + " list your own agreements");
      }
      return DidKey.of(Inputs.keyFile(keyFile).publicKey());
    }
    if (!given.startsWith("did:")) {
      try {
        Ed25519PublicKey key = Ed25519PublicKey.fromBase64Url(given);
        throw new UsageException(
            "--party takes the party's identity, such as its did:key, not a raw public key: for"
                + " this key that is --party "
                + DidKey.of(key));
      } catch (IllegalArgumentException notAKey) {
        // an identity of another scheme, such as an evaluator's api_key name
      }
    }
    return given;
  }
}
