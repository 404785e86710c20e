package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
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
    ObjectNode page =
        session
            .client()
            .list(
                party,
                filters.filter(ListFilterOptions.state(state)),
                cursor,
                Inputs.intValue("--limit", limit, 0, 1, 200));
    if (session.json()) {
      session.printJson(page);
      return Exit.OK;
    }
    Table table =
        Table.withHeaders(
            "AGREEMENT", "STATE", "SERVICE", "AMOUNT", "CLIENT", "PROVIDER", "CREATED", "UPDATED");
    for (JsonNode item : page.path("items")) {
      table.row(
          item.path("agreement_id").asText(),
          item.path("state").asText(),
          item.path("service_type").asText(),
          item.path("amount").isTextual()
              ? item.path("amount").asText() + " " + item.path("currency").asText()
              : "-",
          party(item, "client"),
          party(item, "provider"),
          item.path("created_at").asText(),
          item.path("updated_at").asText());
    }
    String whose = party == null ? "" : " for " + party;
    if (table.isEmpty()) {
      session.out().println("no agreements" + whose + " on this page");
    } else {
      session.out().print(table.render());
    }
    JsonNode next = page.path("next_cursor");
    if (next.isTextual()) {
      session
          .out()
          .println(
              "more: asa agreements list "
                  + (party == null ? "--all" : "--party " + party)
                  + " (with the same filters) --cursor "
                  + next.asText());
    }
    return Exit.OK;
  }

  /** Longer display names are cut in the table; the full name is in {@code --json}. */
  static final int NAME_WIDTH = 24;

  /**
   * A party of a listed agreement as its cell shows it: the display name the agreement gives it,
   * else its identity shortened; either shown inert, as a party wrote it (see {@link
   * Formats#inert}).
   */
  static String party(JsonNode item, String role) {
    JsonNode name = item.path(role + "_display_name");
    if (name.isTextual() && !name.asText().isBlank()) {
      return Formats.inert(name.asText(), NAME_WIDTH);
    }
    JsonNode identity = item.path(role);
    return identity.isTextual() ? Formats.shortId(identity.asText()) : "-";
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
