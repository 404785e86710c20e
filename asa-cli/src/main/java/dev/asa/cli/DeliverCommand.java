package dev.asa.cli;

import dev.asa.client.AgreementView;
import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code asa agreements deliver}: the provider hands in the work. */
@Command(
    name = "deliver",
    header = "Hands in the work for an ACTIVE agreement.",
    customSynopsis = "asa agreements deliver ID (--file F | --content TEXT) [--format F]",
    description =
        "The server keeps the content only until it is verified; its SHA-256 digest stays for good.")
final class DeliverCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "ID", description = "the agreement id")
  String id;

  @Option(
      names = "--file",
      paramLabel = "F",
      description = "a UTF-8 text file with the deliverable")
  String file;

  @Option(names = "--content", paramLabel = "TEXT", description = "the deliverable itself")
  String content;

  @Option(
      names = "--format",
      paramLabel = "F",
      description = "markdown, json, csv, code... (default: the agreement's deliverable_format)")
  String format;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    if (file != null && content != null) {
      throw new UsageException("--file and --content cannot be used together");
    }
    if (file == null && content == null) {
      throw new UsageException("missing --file F or --content TEXT");
    }
    String text = file != null ? Inputs.textFile(file) : content;
    AgreementView answer = session.client().agreements().deliver(id, text, format);
    if (session.json()) {
      session.printJson(answer.json());
      return Exit.OK;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    session
        .out()
        .println(
            "delivered "
                + bytes.length
                + " bytes ("
                + Digest.sha256(bytes)
                + ") for "
                + id
                + "; state "
                + answer.state().name());
    return Exit.OK;
  }
}
