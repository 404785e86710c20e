package dev.asa.cli;

import dev.asa.client.AccountView;
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
    AccountView account = session.client().agreements().account(key(key, session));
    session.print(account.json(), json -> summary(account));
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

  static String summary(AccountView a) {
    StringBuilder s =
        new StringBuilder(
            Table.plain()
                .row("account", a.account())
                .row("balance", EscrowCommand.balances(a.balances()))
                .render());
    s.append('\n');
    if (a.entries().isEmpty()) {
      return s.append("no entries\n").toString();
    }
    Table table = Table.withHeaders("AGREEMENT", "KIND", "DIRECTION", "AMOUNT", "AT");
    for (AccountView.Entry e : a.entries()) {
      table.row(
          e.agreementId(),
          e.kind(),
          e.direction(),
          e.amount().toPlainString() + " " + e.currency(),
          e.at());
    }
    s.append(table.render());
    if (!a.complete()) {
      s.append("(only the newest ")
          .append(a.entries().size())
          .append(" entries are listed, and the balance counts these only)\n");
    }
    return s.toString();
  }
}
