package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa accounts show [KEY]}: a key's ledger account, its balances and its newest entries. */
@Command(
    name = "show",
    header = "Shows a key's ledger account: balances and newest entries.",
    customSynopsis = "asa accounts show [KEY]",
    description =
        "KEY is a public key in base64url or a did:key; without it, the key of --key (or $ASA_KEY). Only that key itself, or the operator, may read an account.")
final class AccountsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(
      paramLabel = "KEY",
      arity = "0..1",
      description = "a public key in base64url or a did:key")
  String key;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode account = session.client().account(key(key, session));
    session.print(account, AccountsCommand::summary);
    return Exit.OK;
  }

  /** The account's key in base64url: the one given, else the public half of the signing key. */
  static String key(String given, Session session) throws UsageException, CliException {
    if (given != null) {
      return Inputs.publicKey("KEY", given).toBase64Url();
    }
    String keyFile = session.keyFileName();
    if (keyFile == null) {
      throw new UsageException(
          "missing KEY: give a public key, or --key FILE to show your own account");
    }
    return Inputs.keyFile(keyFile).publicKey().toBase64Url();
  }

  static String summary(JsonNode a) {
    StringBuilder s =
        new StringBuilder(
            Table.plain()
                .row("account", a.path("account").asText())
                .row("balance", balances(a.path("balances")))
                .render());
    JsonNode entries = a.path("entries");
    s.append('\n');
    if (entries.isEmpty()) {
      return s.append("no entries\n").toString();
    }
    Table table = Table.withHeaders("AGREEMENT", "KIND", "DIRECTION", "AMOUNT", "AT");
    for (JsonNode e : entries) {
      table.row(
          e.path("agreement_id").asText(),
          e.path("kind").asText(),
          e.path("direction").asText(),
          e.path("amount").asText() + " " + e.path("currency").asText(),
          e.path("at").asText());
    }
    s.append(table.render());
    if (!a.path("complete").asBoolean(true)) {
      s.append("(only the newest ")
          .append(entries.size())
          .append(" entries are listed, and the balance counts these only)\n");
    }
    return s.toString();
  }

  /** {@code 10.00 USD}, one per currency, or {@code none}. */
  private static String balances(JsonNode balances) {
    List<String> parts = new ArrayList<>();
    for (var b : balances.properties()) {
      parts.add(b.getValue().asText() + " " + b.getKey());
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }
}
