package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {

  @TempDir Path dir;

  @Test
  void roundTrip() throws IOException {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    Path file = dir.resolve("provider.key.json");

    KeyFile.write(file, key);
    Ed25519PrivateKey read = KeyFile.read(file);

    assertThat(read.publicKey()).isEqualTo(key.publicKey());
    byte[] message = "deliverable".getBytes(StandardCharsets.UTF_8);
    assertThat(read.sign(message)).isEqualTo(key.sign(message));
  }

  @Test
  void writesAnEd25519PrivateJwk() throws IOException {
    byte[] seed =
        HexFormat.of().parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    Path file = dir.resolve("k.json");

    KeyFile.write(file, Ed25519PrivateKey.fromSeed(seed));

    // The RFC 8037 appendix A.1 example JWK holds this very key.
    JsonNode jwk = Json.parse(Files.readAllBytes(file));
    assertThat(jwk.get("kty").textValue()).isEqualTo("OKP");
    assertThat(jwk.get("crv").textValue()).isEqualTo("Ed25519");
    assertThat(jwk.get("d").textValue()).isEqualTo("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A");
    assertThat(jwk.get("x").textValue()).isEqualTo("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
  }

  @Test
  void fileIsOwnerOnlyWherePosixIsSupported() throws IOException {
    Path file = dir.resolve("k.json");
    KeyFile.write(file, Ed25519PrivateKey.generate(new SecureRandom()));

    if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
    }
  }

  @Test
  void refusesToOverwrite() throws IOException {
    Path file = dir.resolve("k.json");
    KeyFile.write(file, Ed25519PrivateKey.generate(new SecureRandom()));
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> KeyFile.write(file, Ed25519PrivateKey.generate(new SecureRandom())))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("refusing to overwrite");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void detectsPublicKeyThatDoesNotMatch() throws IOException {
    Path file = dir.resolve("k.json");
    KeyFile.write(file, Ed25519PrivateKey.generate(new SecureRandom()));
    ObjectNode jwk = (ObjectNode) Json.parse(Files.readAllBytes(file));
    jwk.put("x", Ed25519PrivateKey.generate(new SecureRandom()).publicKey().toBase64Url());
    Files.writeString(file, Json.write(jwk));

    assertThatThrownBy(() -> KeyFile.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("corrupt")
        .hasMessageContaining("does not match");
  }

  @Test
  void detectsDamagedContent() throws IOException {
    assertCorrupt("not json", "not valid JSON");
    assertCorrupt("[]", "JSON object");
    assertCorrupt(
        "{\"kty\":\"EC\",\"crv\":\"Ed25519\",\"d\":\"\",\"x\":\"\"}", "\"kty\" is \"EC\"");
    assertCorrupt(
        "{\"kty\":\"OKP\",\"crv\":\"X25519\",\"d\":\"\",\"x\":\"\"}", "\"crv\" is \"X25519\"");
    assertCorrupt("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"\"}", "\"d\" is missing");
    assertCorrupt(
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"AAAA\",\"x\":\"\"}", "32 bytes, got 3");
    assertCorrupt(
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=\"}",
        "without padding");
  }

  @Test
  void missingFileNamesThePath() {
    Path file = dir.resolve("absent.json");
    assertThatThrownBy(() -> KeyFile.read(file))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(file.toString());
  }

  private void assertCorrupt(String content, String messagePart) throws IOException {
    Path file = Files.createTempFile(dir, "bad", ".json");
    Files.writeString(file, content);
    assertThatThrownBy(() -> KeyFile.read(file))
        .as(content)
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining(messagePart);
  }
}
