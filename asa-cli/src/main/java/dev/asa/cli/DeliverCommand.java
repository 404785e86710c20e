package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import java.nio.charset.StandardCharsets;

/** {@code asa agreements deliver}: the provider hands in the work. */
final class DeliverCommand implements Command {

  private static final Usage USAGE =
      Usage.of(
              "agreements deliver",
              "ID (--file F | --content TEXT) [--format F]",
              "Hands in the work for an ACTIVE agreement.\n"
                  + "The server keeps the content only until it is verified; its SHA-256 digest stays for good.")
          .positional("ID")
          .option(Option.value("--file", "F", "a UTF-8 text file with the deliverable"))
          .option(Option.value("--content", "TEXT", "the deliverable itself"))
          .option(
              Option.value(
                  "--format",
                  "F",
                  "markdown, json, csv, code... (default: the agreement's deliverable_format)"))
          .server();

  @Override
  public Usage usage() {
    return USAGE;
  }

  @Override
  public int run(Arguments args, Session session) throws Exception {
    args.exclusive("--file", "--content");
    if (!args.has("--file") && !args.has("--content")) {
      throw new UsageException("missing --file F or --content TEXT");
    }
    String content =
        args.has("--file") ? Inputs.textFile(args.value("--file")) : args.value("--content");
    String id = args.positional(0);
    ObjectNode answer = session.client().deliver(id, content, args.value("--format"));
    if (session.json()) {
      session.printJson(answer);
      return 0;
    }
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
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
                + answer.path("state").asText());
    return 0;
  }
}
