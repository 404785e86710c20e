package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
      JsonNode health = session.client().adminHealth();
      if (session.json()) {
        session.printJson(health);
        return Exit.OK;
      }
      Table table = Table.withHeaders("STATE", "AGREEMENTS", "AMOUNTS");
      for (Map.Entry<String, JsonNode> e :
          health.path("agreements").path("by_state").properties()) {
        List<String> amounts = new ArrayList<>();
        e.getValue()
            .path("amounts")
            .properties()
            .forEach(a -> amounts.add(a.getValue().asText() + " " + a.getKey()));
        table.row(e.getKey(), e.getValue().path("count").asText(), String.join(", ", amounts));
      }
      session.out().print(table.render());
      JsonNode jobs = health.path("verification_jobs");
      JsonNode outbox = health.path("outbox");
      JsonNode timers = health.path("timers");
      JsonNode requests = health.path("requests");
      session
          .out()
          .println(
              "verification jobs: "
                  + jobs.path("queued").asText()
                  + " queued, "
                  + jobs.path("running").asText()
                  + " running, "
                  + jobs.path("finished").asText()
                  + " finished");
      session
          .out()
          .println(
              "outbox: "
                  + outbox.path("pending").asText()
                  + " pending; timers: "
                  + timers.path("pending").asText()
                  + " pending, "
                  + timers.path("fired").asText()
                  + " fired");
      session
          .out()
          .println(
              "requests: "
                  + requests.path("count").asText()
                  + ", "
                  + requests.path("errors_5xx").asText()
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
      JsonNode answer = session.client().loadCanaries(set);
      if (session.json()) {
        session.printJson(answer);
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
      JsonNode archive = client.startArchive(closedBefore);
      String name = archive.path("name").asText();
      long shown = -1;
      while (!"complete".equals(archive.path("status").asText())) {
        if (archive.hasNonNull("error")) {
          throw new CliException(
              "archive " + name + " stopped: " + archive.path("error").asText(), Exit.UNREACHABLE);
        }
        long moved = archive.path("agreements").asLong();
        if (moved != shown && !session.json()) {
          session.err().println("archive " + name + ": " + moved + " agreements moved");
          shown = moved;
        }
        Thread.sleep(500);
        archive = client.archive(name);
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
        session.printJson(archive);
      } else {
        session
            .out()
            .println(
                "archived "
                    + archive.path("agreements").asText()
                    + " agreements into "
                    + out
                    + " ("
                    + archive.path("bytes").asText()
                    + " bytes, "
                    + archive.path("file_sha256").asText()
                    + ")");
        ArchiveCommands.print(session, out, report);
      }
      return report.verifies() ? Exit.OK : Exit.FAIL;
    }
  }
}
