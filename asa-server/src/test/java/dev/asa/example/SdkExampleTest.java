package dev.asa.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.client.AgreementStatus;
import dev.asa.client.AsaClient;
import dev.asa.client.VerificationView;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.lifecycle.State;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK example of docs/sdk.md is {@link SdkExample}, run here against a real server with key
 * files, and pasted into docs/sdk.md verbatim: a change to either without the other fails here.
 */
class SdkExampleTest {
  @TempDir Path dataDir;
  @TempDir Path keys;

  @Test
  void theReadmeExampleRunsTheWalkThroughToAPassingVerdict() throws IOException {
    SecureRandom random = new SecureRandom();
    for (String party : new String[] {"client", "provider", "evaluator"}) {
      KeyFile.write(keys.resolve(party + ".key"), Ed25519PrivateKey.generate(random));
    }
    try (AsaServer server =
        AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dataDir))) {
      URI url = URI.create(server.url("127.0.0.1"));

      AgreementStatus status = SdkExample.run(url, keys);

      assertThat(status.state()).isEqualTo(State.VERIFIED);
      assertThat(status.signedByClient()).isTrue();
      assertThat(status.signedByProvider()).isTrue();
      assertThat(status.payment().status()).isEqualTo("held");
      assertThat(status.payment().amount()).hasValue(new java.math.BigDecimal("10.00"));
      AgreementStatus.Verdict verdict = status.verdict().orElseThrow();
      assertThat(verdict.passed()).isTrue();
      // As the walk-through says: composite 80.5 (threshold 70), PASS, the ">= 75" tier: 85%.
      assertThat(verdict.composite())
          .hasValueSatisfying(c -> assertThat(c).isEqualByComparingTo("80.5"));
      assertThat(verdict.releasePercent()).isEqualByComparingTo("85");

      VerificationView result =
          AsaClient.connect(url, KeyFile.read(keys.resolve("provider.key")))
              .agreements()
              .verification(status.id());
      assertThat(result.verificationId()).isEqualTo(verdict.verificationId());
      assertThat(result.composite().threshold()).isEqualByComparingTo("70");
      assertThat(result.dimension("accuracy").orElseThrow().score())
          .hasValueSatisfying(s -> assertThat(s).isEqualByComparingTo("80"));
      assertThat(result.dimension("timeliness").orElseThrow().sloMet()).isTrue();
    }
  }

  @Test
  void theSdkPageShowsExactlyThisExample() throws IOException {
    String source =
        Files.readString(
            Path.of("src/test/java/dev/asa/example/SdkExample.java"), StandardCharsets.UTF_8);
    // From the imports on: the package line is the test's, a reader's class has its own.
    String example = source.substring(source.indexOf("import "));
    String page = Files.readString(Path.of("..", "docs", "sdk.md"), StandardCharsets.UTF_8);
    Matcher block =
        Pattern.compile("```java\n(.*?public final class SdkExample.*?)```", Pattern.DOTALL)
            .matcher(page);
    assertThat(block.find())
        .as("docs/sdk.md has a ```java block with the SdkExample class")
        .isTrue();
    assertThat(block.group(1))
        .as(
            "the SDK example in docs/sdk.md must be"
                + " asa-server/src/test/java/dev/asa/example/SdkExample.java from its imports on;"
                + " paste the class into docs/sdk.md again")
        .isEqualTo(example);
  }

  @Test
  void theSdkPageGivesTheCoordinatesOfThisBuild() throws IOException {
    String pom = Files.readString(Path.of("..", "pom.xml"), StandardCharsets.UTF_8);
    Matcher version =
        Pattern.compile("<artifactId>asa-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertThat(version.find()).as("the root pom.xml names asa-parent's version").isTrue();
    String page = Files.readString(Path.of("..", "docs", "sdk.md"), StandardCharsets.UTF_8);
    assertThat(page)
        .contains("`dev.asa:asa-client:" + version.group(1) + "`")
        .contains("<version>" + version.group(1) + "</version>")
        .contains("implementation(\"dev.asa:asa-client:" + version.group(1) + "\")");
  }
}
