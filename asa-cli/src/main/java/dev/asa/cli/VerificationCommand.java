package dev.asa.cli;

import dev.asa.client.VerificationView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa agreements verification ID}: the agreement's latest verification result, again. */
@Command(
    name = "verification",
    header = "Shows the agreement's latest verification result.",
    customSynopsis = "asa agreements verification ID",
    description =
        "The result as agreements verify printed it (GET /agreements/{id}/verification); readable"
            + " without a key when the agreement made it public. Exit status 1 when it is FAIL.")
final class VerificationCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    VerificationView result = session.client().agreements().verification(id);
    session.print(result.json(), json -> VerificationReport.formatResult(result));
    return VerificationReport.exitCode(result);
  }
}
