package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * {@code asa keys new} and {@code asa keys show}: the Ed25519 key a party signs agreements with.
 */
final class KeysCommands {
  private KeysCommands() {}

  static final class New implements Command {
    private static final Usage USAGE =
        Usage.of(
                "keys new",
                "--out FILE",
                "Creates an Ed25519 key pair in a new key file.\n"
                    + "FILE holds a JSON Web Key readable by you only; an existing file is never overwritten.\n"
                    + "Prints the public key and its did:key, which identify you in agreements.")
            .option(Option.required("--out", "FILE", "where to write the private key"))
            .json();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      String file = args.value("--out");
      Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
      try {
        KeyFile.write(Path.of(file), key);
      } catch (IOException e) {
        throw Inputs.fileProblem(file, e);
      }
      describe(session, file, key, "wrote " + file + " (the private key: keep it to yourself)");
      return 0;
    }
  }

  static final class Show implements Command {
    private static final Usage USAGE =
        Usage.of("keys show", "FILE", "Prints the public key and did:key of a key file.")
            .positional("FILE")
            .json();

    @Override
    public Usage usage() {
      return USAGE;
    }

    @Override
    public int run(Arguments args, Session session) throws Exception {
      String file = args.positional(0);
      describe(session, file, Inputs.keyFile(file), null);
      return 0;
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
