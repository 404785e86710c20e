package dev.asa.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.KeyFile;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * by their fixed paths: nothing is downloaded) against a real server: a party signs in with its key
 * file, finds its agreement, opens it and sees its state and its hash-chained events checked in the
 * page; a stranger's key sees neither the agreement in the list nor anything of it on its page,
 * only the API's 404. Screenshots go to {@code target/console-screenshots/}.
 *
 * <p>Skipped, saying so, only where the browser is absent and {@code CI} is not {@code true}; under
 * {@code CI=true} a missing browser fails.
 */
class ConsoleBrowserTest {
  static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Paths.get("target", "console-screenshots");
  static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir static Path dataDir;
  @TempDir static Path keys;
  static AsaServer server;
  static String base;
  static String agreementId;

  @BeforeAll
  static void start() throws IOException {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but "
                + CHROMIUM
                + " or "
                + CHROMEDRIVER
                + " is missing: install Debian's chromium and chromium-driver (.ci/run does)");
      }
      Assumptions.abort(
          "console browser tests skipped: "
              + CHROMIUM
              + " or "
              + CHROMEDRIVER
              + " is absent (apt-get install chromium chromium-driver); they run, and fail"
              + " without it, under CI=true");
    }
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    base = server.url("127.0.0.1");
    AsaClient anonymous = AsaClient.connect(URI.create(base));
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"));
    agreementId = alice.createAgreement(Fixtures.general()).path("agreement_id").asText();
    alice.sign(agreementId, Role.CLIENT, Fixtures.key("alice"));
    anonymous.withKey(Fixtures.key("bob")).sign(agreementId, Role.PROVIDER, Fixtures.key("bob"));
    for (String who : new String[] {"alice", "mallory"}) {
      KeyFile.write(keys.resolve(who + ".key"), Fixtures.key(who));
    }
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * A browser with its own chromedriver, given by path (so Selenium Manager never runs); quit ends
   * both.
   */
  static WebDriver browser() {
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1800");
    if ("root".equals(System.getProperty("user.name"))) {
      options.addArguments("--no-sandbox"); // Chromium refuses to run its sandbox as root
    }
    options.setCapability(
        "goog:loggingPrefs", java.util.Map.of("browser", "ALL")); // to see CSP or script errors
    return new ChromeDriver(service, options);
  }

  static void signIn(WebDriver driver, String party, String keyName) {
    driver.get(base + "/console");
    WebDriverWait wait = new WebDriverWait(driver, WAIT);
    WebElement partyField =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
    if (!party.isEmpty()) {
      partyField.sendKeys(party);
    }
    driver.findElement(By.id("key-file")).sendKeys(keys.resolve(keyName + ".key").toString());
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("list")));
    wait.until(
        ExpectedConditions.textMatches(
            By.id("list-status"), java.util.regex.Pattern.compile("loaded")));
  }

  static void screenshot(WebDriver driver, String name) throws IOException {
    File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void aPartySignsInWithItsKeyFileFindsItsAgreementAndSeesItsCheckedTimeline() throws Exception {
    WebDriver driver = browser();
    try {
      signIn(driver, "alice", "alice");
      WebDriverWait wait = new WebDriverWait(driver, WAIT);
      WebElement link =
          wait.until(ExpectedConditions.elementToBeClickable(By.linkText(agreementId)));
      assertThat(driver.findElement(By.id("agreements")).getText())
          .contains(agreementId, "ACTIVE", "general", "alice", "bob");
      screenshot(driver, "agreements");

      link.click();
      WebElement chain =
          wait.until(
              ExpectedConditions.visibilityOfElementLocated(
                  By.cssSelector("#agreement-body .chain")));
      String page = driver.findElement(By.id("agreement-body")).getText();
      assertThat(chain.getText()).startsWith("Hash chain checked in this page: intact");
      assertThat(chain.getText()).contains("chain_valid = true");
      assertThat(page)
          .contains("ACTIVE", "10.00 USD", "accuracy", "0.3", "gte 80", "alice", "bob", "unfunded")
          .doesNotContain("✗");
      assertThat(driver.findElements(By.cssSelector("#agreement-body table")).get(1).getText())
          .as("the events, one row each")
          .contains("✓ hash recomputed");
      assertThat(driver.findElement(By.id("agreement-error")).isDisplayed()).isFalse();
      screenshot(driver, "agreement");
      assertThat(
              driver
                  .manage()
                  .logs()
                  .get(org.openqa.selenium.logging.LogType.BROWSER)
                  .getAll()
                  .stream()
                  .filter(
                      e -> e.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue())
                  .map(org.openqa.selenium.logging.LogEntry::getMessage)
                  .filter(m -> !m.contains("favicon.ico")))
          .as("no script error and no Content-Security-Policy violation in the page")
          .isEmpty();
    } finally {
      driver.quit();
    }
  }

  @Test
  void aStrangersKeySeesNeitherTheAgreementInTheListNorAnythingOfItsPage() throws Exception {
    WebDriver driver = browser();
    try {
      // Mallory names alice's identity: the API lists only agreements her own key is a party to.
      signIn(driver, "alice", "mallory");
      assertThat(driver.findElement(By.id("list-status")).getText())
          .startsWith("0 of 0 agreement(s) loaded");
      assertThat(driver.findElement(By.tagName("main")).getText()).doesNotContain(agreementId);
      screenshot(driver, "stranger-list");

      ((JavascriptExecutor) driver)
          .executeScript("location.hash = arguments[0]", "#/agreements/" + agreementId);
      WebElement error =
          new WebDriverWait(driver, WAIT)
              .until(ExpectedConditions.visibilityOfElementLocated(By.id("agreement-error")));
      assertThat(error.getText()).startsWith("The server refused: 404");
      assertThat(driver.findElement(By.id("agreement-body")).getText()).isEmpty();
      assertThat(driver.findElement(By.tagName("main")).getText())
          .doesNotContain("ACTIVE", "bob", "10.00", "accuracy");
      screenshot(driver, "stranger-agreement");
    } finally {
      driver.quit();
    }
  }

  /**
   * The page's own chain check (its JCS and SHA-256, in the browser) against the server's real
   * events: it agrees with the server on the intact log and catches one changed field or a broken
   * link.
   */
  @Test
  void thePagesChainCheckRecomputesTheServersHashesAndCatchesATamperedEvent() throws Exception {
    var events =
        AsaClient.connect(URI.create(base))
            .withKey(Fixtures.key("alice"))
            .events(agreementId)
            .path("events");
    var tampered = events.deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) tampered.get(1)).put("type", "fundedd");
    var relinked = events.deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) relinked.get(2))
        .put("prev_hash", events.get(0).path("hash").asText());
    WebDriver driver = browser();
    try {
      driver.get(base + "/console");
      new WebDriverWait(driver, WAIT)
          .until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
      String script =
          "const done = arguments[arguments.length - 1];"
              + "import('./console/assets/console.js')"
              + ".then(m => m.checkChain(arguments[0], JSON.parse(arguments[1])))"
              + ".then(r => done(JSON.stringify(r.map(c => c.ok))), e => done('error: ' + e));";
      JavascriptExecutor js = (JavascriptExecutor) driver;
      assertThat(js.executeAsyncScript(script, agreementId, events.toString()))
          .isEqualTo("[true,true,true]");
      assertThat(js.executeAsyncScript(script, agreementId, tampered.toString()))
          .isEqualTo("[true,false,true]");
      assertThat(js.executeAsyncScript(script, agreementId, relinked.toString()))
          .isEqualTo("[true,true,false]");
      assertThat(js.executeAsyncScript(script, "asa-another-id", events.toString()))
          .as("the agreement id is part of each hash")
          .isEqualTo("[false,false,false]");
    } finally {
      driver.quit();
    }
  }

  /** Without a typed identity the page lists the key's did:key, computed as DidKey computes it. */
  @Test
  void thePagesDidKeyIsTheServersAndIsTheDefaultIdentity() throws Exception {
    WebDriver driver = browser();
    try {
      signIn(driver, "", "mallory");
      assertThat(driver.findElement(By.id("who")).getText())
          .startsWith(
              dev.asa.crypto.DidKey.of(Fixtures.key("mallory").publicKey())
                  + " · key "
                  + Fixtures.key("mallory").publicKey().toBase64Url());
    } finally {
      driver.quit();
    }
  }

  @Test
  void aFileThatIsNotAKeyIsRefusedInThePage() throws Exception {
    Path notAKey = keys.resolve("notes.json");
    Files.writeString(notAKey, "{\"kty\":\"RSA\"}");
    WebDriver driver = browser();
    try {
      driver.get(base + "/console");
      WebDriverWait wait = new WebDriverWait(driver, WAIT);
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("party"))).sendKeys("alice");
      driver.findElement(By.id("key-file")).sendKeys(notAKey.toString());
      WebElement error =
          wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
      assertThat(error.getText()).contains("not an Ed25519 private key");
      assertThat(driver.findElement(By.id("list")).isDisplayed()).isFalse();
    } finally {
      driver.quit();
    }
  }
}
