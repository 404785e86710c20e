package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;

/**
 * {@code asa agreements sign ID --key FILE --as client|provider}: the private key never leaves this
 * machine.
 */
final class SignCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements sign",
              "ID --key FILE --as client|provider",
              "Signs the agreement's current terms with your key.\n"
                  + "Reads its agreement_hash, signs it here and sends only the signature: the private key stays on\n"
                  + "this machine. The agreement turns ACTIVE once both parties have signed.")
          .positional("ID")
          .option(Option.required("--as", "ROLE", "the party you sign for: client or provider"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    Role role = Inputs.signingRole("--as", args.value("--as"));
    String id = args.positional(0);
    String keyFile = session.keyFileName();
    if (keyFile == null) {
      throw new UsageException("missing --key FILE (or $ASA_KEY): the key of the party that signs");
    }
    ObjectNode answer = session.client().sign(id, role, Inputs.keyFile(keyFile));
    if (session.json()) {
      session.printJson(answer);
      return 0;
    }
    String state = answer.path("state").asText();
    session.out().println("signed " + id + " as " + role.wireName() + "; state " + state);
    Role other = role.counterparty();
    if (!answer.path("agreement").path("signatures").has(other.wireName())) {
      session.out().println("waiting for the " + other.wireName() + "'s signature");
    }
    return 0;
  }
}
