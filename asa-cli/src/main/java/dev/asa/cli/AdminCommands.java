package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.Admin;
import dev.asa.client.ArchiveView;
import dev.asa.client.CanarySet;
import dev.asa.client.ServerHealth;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa admin ...}: the operator's routes, signed with the operator key. */
@Command(
    name = "admin",
    header =
        "Reads the server's configuration and health, loads its canary set and archives ended"
            + " agreements (the operator's key).",
    customSynopsis = "asa admin COMMAND ...",
    subcommands = {
      AdminCommands.Config.class,
      AdminCommands.Health.class,
      AdminCommands.Canaries.class,
      AdminCommands.Archive.class
    })
final class AdminCommands extends Group {

  /** {@code asa admin config}: {@code GET /admin/config}. */
  @Command(
      name = "config",
      header = "Shows the configuration the server runs with (GET /admin/config).",
      customSynopsis = "asa admin config --key OPERATOR_KEY_FILE",
      description =
          "The listen address, store, rate limits, negotiation rules, evaluators and the rest;"
              + " printed as JSON, as the server gives it. Only the operator key may read it.")
  static final class Config implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      session.printJson(session.client().adminConfig());
      return Exit.OK;
    }
  }

  /** {@code asa admin health}: {@code GET /admin/health}. */
  @Command(
      name = "health",
      header = "Shows the server's health summary (GET /admin/health).",
      customSynopsis = "asa admin health --key OPERATOR_KEY_FILE",
      description =
          "Agreements by state with their amounts, the ledger's totals, verification jobs, the"
              + " outbox, timers and requests: the figures /metrics serves, in one JSON summary."
              + " Only the operator key may read it.")
  static final class Health implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      ServerHealth health = session.client().admin().health();
      if (session.json()) {
        session.printJson(health.json());
        return Exit.OK;
      }
      Table table = Table.withHeaders("STATE", "AGREEMENTS", "AMOUNTS");
      health
          .byState()
          .forEach(
              (state, total) -> table.row(state, total.count(), Formats.amounts(total.amounts())));
      session.out().print(table.render());
      ServerHealth.Jobs jobs = health.verificationJobs();
      ServerHealth.Timers timers = health.timers();
      session
          .out()
          .println(
              "verification jobs: "
                  + jobs.queued()
                  + " queued, "
                  + jobs.running()
                  + " running, "
                  + jobs.finished()
                  + " finished");
      session
          .out()
          .println(
              "outbox: "
                  + health.outbox().pending()
                  + " pending; timers: "
                  + timers.pending()
                  + " pending, "
                  + timers.fired()
                  + " fired");
      session
          .out()
          .println(
              "requests: "
                  + health.requests().count()
                  + ", "
                  + health.requests().errors5xx()
                  + " answered 5xx");
      return Exit.OK;
    }
  }

  /** {@code asa admin canaries FILE}: {@code PUT /admin/canaries}. */
  @Command(
      name = "canaries",
      header = "Replaces the server's canary set (PUT /admin/canaries).",
      customSynopsis = "asa admin canaries FILE --key OPERATOR_KEY_FILE",
      description =
          "FILE is a JSON array of canaries, as asa serve --canaries takes it (or - for standard"
              + " input). The server checks every canary and refuses the set, naming each problem,"
              + " if any is wrong.")
  static final class Canaries implements Callable<Integer> {

    @Mixin ServerOptions server;

    @Parameters(paramLabel = "FILE", description = "the canary set, a JSON array (or -)")
    String file;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      JsonNode set = Inputs.jsonFileOrStdin(file, session.in());
      CanarySet loaded = session.client().admin().loadCanaries(set);
      if (session.json()) {
        session.printJson(loaded.json());
      } else {
        session.out().println("loaded the canary set from " + file);
      }
      return Exit.OK;
    }
  }

  /** {@code asa admin archive --closed-before DATE --out FILE}: {@code POST /admin/archive}. */
  @Command(
      name = "archive",
      header = "Archives the agreements that ended before a date into a signed file.",
      customSynopsis = "asa admin archive --closed-before DATE --out FILE --key OPERATOR_KEY_FILE",
      description =
          "Closed, rejected and expired agreements that ended before DATE leave the server's hot"
              + " tables for an archive file (documents, facts, event chains, ledger entries and"
              + " results; never deliverable content) whose manifest the server signs. Their ids"
              + " then answer 410 naming the archive. Progress is shown while the server moves"
              + " them; the file is then downloaded to FILE and verified (asa archive verify).")
  static final class Archive implements Callable<Integer> {

    @Mixin ServerOptions server;

    @picocli.CommandLine.Option(
        names = "--closed-before",
        paramLabel = "DATE",
        required = true,
        description = "a date (2026-01-01) or an RFC 3339 time: agreements that ended before it")
    String closedBefore;

    @picocli.CommandLine.Option(
        names = "--out",
        paramLabel = "FILE",
        required = true,
        description = "where the archive file is written")
    String out;

    @Override
    public Integer call() throws Exception {
      Session session = server.session();
      var client = session.client();
      Admin admin = client.admin();
      ArchiveView archive = admin.startArchive(closedBefore);
      String name = archive.name();
      long shown = -1;
      while (!archive.complete()) {
        if (archive.error().isPresent()) {
          throw new CliException(
              "archive " + name + " stopped: " + archive.error().get(), Exit.UNREACHABLE);
        }
        long moved = archive.agreements();
        if (moved != shown && !session.json()) {
          session.err().println("archive " + name + ": " + moved + " agreements moved");
          shown = moved;
        }
        Thread.sleep(500);
        archive = admin.archive(name);
      }
      Path file = Path.of(out);
      client.downloadArchive(name, file);
      // Checked against the key the server publishes, not only the one the file names.
      var serverKey =
          dev.asa.crypto.Ed25519PublicKey.fromBase64Url(client.serverKey().path("value").asText());
      dev.asa.archive.ArchiveVerifier.Report report;
      try {
        report = dev.asa.archive.ArchiveVerifier.verify(file, serverKey);
      } catch (java.io.IOException e) {
        throw Inputs.fileProblem(out, e);
      }
      if (session.json()) {
        session.printJson(archive.json());
      } else {
        session
            .out()
            .println(
                "archived "
                    + archive.agreements()
                    + " agreements into "
                    + out
                    + " ("
                    + archive.bytes()
                    + " bytes, "
                    + archive.fileSha256().orElse("")
                    + ")");
        ArchiveCommands.print(session, out, report);
      }
      return report.verifies() ? Exit.OK : Exit.FAIL;
    }
  }
}
