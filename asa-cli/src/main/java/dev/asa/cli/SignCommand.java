package dev.asa.cli;

import dev.asa.agreement.Role;
import dev.asa.client.AgreementView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements sign ID --key FILE --as client|provider}: the private key never leaves this
 * machine.
 */
@Command(
    name = "sign",
    header = "Signs the agreement's current terms with your key.",
    customSynopsis = "asa agreements sign ID --key FILE --as client|provider",
    description =
        "Reads its agreement_hash, signs it here and sends only the signature: the private key stays on this machine. The agreement turns ACTIVE once both parties have signed.")
final class SignCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--as",
      paramLabel = "ROLE",
      required = true,
      completionCandidates = Candidates.SigningRoles.class,
      description = "the party you sign for: ${COMPLETION-CANDIDATES}")
  String as;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    Role role = Inputs.signingRole("--as", as);
    String keyFile = session.keyFileName();
    if (keyFile == null) {
      throw new UsageException(
          "missing --key FILE: the key of the party that signs (pass --key FILE or set ASA_KEY)");
    }
    AgreementView answer = session.client().agreements().sign(id, role);
    if (session.json()) {
      session.printJson(answer.json());
      return Exit.OK;
    }
    String state = answer.state().name();
    session.out().println("signed " + id + " as " + role.wireName() + "; state " + state);
    Role other = role.counterparty();
    if (!answer.signedBy(other)) {
      session.out().println("waiting for the " + other.wireName() + "'s signature");
    }
    return Exit.OK;
  }
}
