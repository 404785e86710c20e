package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code asa keys new} and {@code asa keys show}: the Ed25519 key a party signs agreements with.
 */
@Command(
    name = "keys",
    header = "Creates and reads the key files parties sign with.",
    customSynopsis = "asa keys COMMAND ...",
    subcommands = {KeysCommands.New.class, KeysCommands.Show.class})
final class KeysCommands extends Group {

  @Command(
      name = "new",
      header = "Creates an Ed25519 key pair in a new key file.",
      customSynopsis = "asa keys new --out FILE",
      description =
          "FILE holds a JSON Web Key readable by you only; an existing file is never overwritten."
              + " Prints the public key and its did:key, which identify you in agreements.")
  static final class New implements Callable<Integer> {

    @Mixin JsonOption json;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        required = true,
        description = "where to write the private key")
    String file;

    @Override
    public Integer call() throws Exception {
      Session session = json.session();
      Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
      try {
        KeyFile.write(Path.of(file), key);
      } catch (IOException e) {
        throw Inputs.fileProblem(file, e);
      }
      describe(session, file, key, "wrote " + file + " (the private key: keep it to yourself)");
      return Exit.OK;
    }
  }

  @Command(
      name = "show",
      header = "Prints the public key and did:key of a key file.",
      customSynopsis = "asa keys show FILE")
  static final class Show implements Callable<Integer> {

    @Mixin JsonOption json;

    @Parameters(paramLabel = "FILE", description = "a key file made by asa keys new")
    String file;

    @Override
    public Integer call() throws Exception {
      describe(json.session(), file, Inputs.keyFile(file), null);
      return Exit.OK;
    }
  }

  private static void describe(
      Session session, String file, Ed25519PrivateKey key, String headline) {
    String publicKey = key.publicKey().toBase64Url();
    String did = DidKey.of(key.publicKey());
    if (session.json()) {
      ObjectNode o = Json.object();
      o.put("file", file);
      o.put("public_key", publicKey);
      o.put("did", did);
      session.printJson(o);
      return;
    }
    if (headline != null) {
      session.out().println(headline);
    }
    session.out().print(Table.plain().row("public key", publicKey).row("did:key", did).render());
  }
}
