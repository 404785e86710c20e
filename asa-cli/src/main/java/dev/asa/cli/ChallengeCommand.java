package dev.asa.cli;

import dev.asa.agreement.Role;
import dev.asa.client.AgreementView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa agreements challenge}: contests a verification result while the challenge window is
 * open.
 */
@Command(
    name = "challenge",
    header = "Disputes a verification result during the challenge window.",
    customSynopsis = "asa agreements challenge ID --as client|provider --reason CODE",
    description = "The payment stays frozen until the dispute is resolved.")
final class ChallengeCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--as",
      paramLabel = "ROLE",
      required = true,
      completionCandidates = Candidates.SigningRoles.class,
      description = "the party challenging: ${COMPLETION-CANDIDATES}")
  String as;

  @Option(
      names = "--reason",
      paramLabel = "CODE",
      required = true,
      completionCandidates = Candidates.ChallengeReasons.class,
      description = "why, one of: ${COMPLETION-CANDIDATES}")
  String reason;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    Role role = Inputs.signingRole("--as", as);
    AgreementView answer = session.client().agreements().challenge(id, role, reason);
    if (session.json()) {
      session.printJson(answer.json());
      return Exit.OK;
    }
    session
        .out()
        .println(
            "challenge filed by the "
                + role.wireName()
                + " ("
                + reason
                + "); state "
                + answer.state().name());
    return Exit.OK;
  }
}
