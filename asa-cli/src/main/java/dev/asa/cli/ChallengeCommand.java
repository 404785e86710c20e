package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.ChallengeReason;
import dev.asa.agreement.Role;

/**
 * {@code asa agreements challenge}: contests a verification result while the challenge window is
 * open.
 */
final class ChallengeCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements challenge",
              "ID --as client|provider --reason CODE",
              "Disputes a verification result during the challenge window.\n"
                  + "The payment stays frozen until the dispute is resolved. CODE is one of: "
                  + ChallengeReason.allWireNames()
                  + ".")
          .positional("ID")
          .option(Option.required("--as", "ROLE", "the party challenging: client or provider"))
          .option(Option.required("--reason", "CODE", "why, as a reason code"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    Role role = Inputs.signingRole("--as", args.value("--as"));
    String id = args.positional(0);
    ObjectNode answer = session.client().challenge(id, role, args.value("--reason"));
    if (session.json()) {
      session.printJson(answer);
      return 0;
    }
    session
        .out()
        .println(
            "challenge filed by the "
                + role.wireName()
                + " ("
                + args.value("--reason")
                + "); state "
                + answer.path("state").asText());
    return 0;
  }
}
