package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.AsaClient;
import dev.asa.client.VerificationJob;
import dev.asa.client.VerificationView;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code asa verifications show ID}: a verification the server ran or runs, by its id. */
@Command(
    name = "verifications",
    header = "Reads a verification by its id, or follows it while it runs.",
    customSynopsis = "asa verifications COMMAND ...",
    subcommands = {VerificationsCommands.Show.class})
final class VerificationsCommands extends Group {

  /** {@code GET /verifications/{id}}, and {@code --wait} to follow a running job. */
  @Command(
      name = "show",
      header = "Shows a verification's result, or where its job stands.",
      customSynopsis = "asa verifications show VERIFICATION_ID [--wait]",
      description =
          "GET /verifications/{id}: the result (section 5.2) once there is one; while the job runs,"
              + " its status and stage, or with --wait its progress until it ends. Exit status 1"
              + " when the result is FAIL.")
  static final class Show implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "VERIFICATION_ID", description = "a ver-... id")
    String id;

    @Option(names = "--wait", description = "follow a running job until its result is there")
    boolean await;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      JsonNode answer = session.client().verificationResult(id);
      if (AsaClient.isPending(answer) && await) {
        answer = VerificationJobs.await(session, id);
      }
      String route = "GET /verifications/" + id;
      if (AsaClient.isPending(answer)) {
        VerificationJob job = Views.read(route, answer, VerificationJob::from);
        session.print(job.json(), json -> job(job));
        return Exit.OK;
      }
      VerificationView result = Views.read(route, answer, VerificationView::from);
      session.print(result.json(), json -> VerificationReport.formatResult(result));
      return VerificationReport.exitCode(result);
    }

    /** {@code verification ver-1: running, judging 1/2 (50%)}. */
    static String job(VerificationJob job) {
      VerificationJob.Progress p = job.progress();
      return "verification "
          + job.verificationId()
          + ": "
          + job.status()
          + ", "
          + p.stage()
          + " "
          + p.done()
          + "/"
          + p.total()
          + " ("
          + p.percent()
          + "%); asa verifications show "
          + job.verificationId()
          + " --wait follows it\n";
    }
  }
}
