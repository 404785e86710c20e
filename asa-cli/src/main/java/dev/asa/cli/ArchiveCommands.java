package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.archive.ArchiveVerifier;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code asa archive verify FILE}: checks an archive file offline. */
@Command(
    name = "archive",
    header = "Checks an archive file of ended agreements (asa admin archive writes them).",
    customSynopsis = "asa archive verify FILE [--server-key KEY]",
    subcommands = {ArchiveCommands.Verify.class})
final class ArchiveCommands extends Group {

  @Command(
      name = "verify",
      header = "Recomputes every event chain of an archive file and checks its signed manifest.",
      customSynopsis = "asa archive verify FILE [--server-key KEY]",
      description =
          "Offline: trusts nothing but the file. Checks the manifest's Ed25519 signature, the"
              + " digest and length of everything it covers, the count, every agreement's event"
              + " chain (each event's digest and each link), that each agreement is in a final"
              + " state and ended before the cutoff, and that none is there twice. Without"
              + " --server-key the key the manifest names is accepted and printed: compare it"
              + " with the server's /.well-known/asa/server-key. Exit 0 when it verifies, 1 when"
              + " it does not.")
  static final class Verify implements Callable<Integer> {

    @Mixin JsonOption json;

    @Parameters(paramLabel = "FILE", description = "the archive file")
    String file;

    @Option(
        names = "--server-key",
        paramLabel = "KEY",
        description = "the server key (base64url) the archive must be signed by")
    String serverKey;

    @Override
    public Integer call() throws Exception {
      Session session = json.session();
      Ed25519PublicKey expected = null;
      if (serverKey != null) {
        try {
          expected = Ed25519PublicKey.fromBase64Url(serverKey);
        } catch (IllegalArgumentException e) {
          throw new UsageException("--server-key: " + e.getMessage());
        }
      }
      ArchiveVerifier.Report report;
      try {
        report = ArchiveVerifier.verify(Path.of(file), expected);
      } catch (IOException e) {
        throw Inputs.fileProblem(file, e);
      }
      print(session, file, report);
      return report.verifies() ? Exit.OK : Exit.FAIL;
    }
  }

  /** The report, as JSON or as lines. */
  static void print(Session session, String file, ArchiveVerifier.Report report) {
    if (session.json()) {
      ObjectNode o = Json.object();
      o.put("file", file);
      o.put("verifies", report.verifies());
      o.put("agreements", report.agreements());
      o.put("events", report.events());
      report.manifest().ifPresent(m -> o.set("manifest", m.toJson()));
      var problems = o.putArray("problems");
      report.problems().forEach(problems::add);
      session.printJson(o);
      return;
    }
    if (report.verifies()) {
      var m = report.manifest().orElseThrow();
      session
          .out()
          .println(
              file
                  + " verifies: "
                  + report.agreements()
                  + " agreements, "
                  + report.events()
                  + " events, every chain intact; signed by "
                  + m.serverKey().toBase64Url()
                  + " at "
                  + m.completedAt()
                  + "; agreements that ended before "
                  + m.closedBefore());
    } else {
      session.out().println(file + " does NOT verify:");
      report.problems().forEach(p -> session.out().println("  " + p));
    }
  }
}
