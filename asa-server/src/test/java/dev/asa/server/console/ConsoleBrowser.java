package dev.asa.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.asa.agreement.Identity;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.integrity.Standing;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.server.pool.PoolSource;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium on the console (Debian's {@code chromium} and {@code chromium-driver},
 * by their fixed paths: nothing is downloaded), with what the browser tests share: signing in with
 * a key file, waiting, screenshots under {@code target/console-screenshots/}, the browser's own
 * log, and the axe-core accessibility check.
 */
final class ConsoleBrowser implements AutoCloseable {
  static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Paths.get("target", "console-screenshots");
  static final Duration WAIT = Duration.ofSeconds(20);

  /** The WCAG 2.1 A and AA rules of axe-core: labels, contrast, names, landmarks, keyboard... */
  private static final String AXE_RUN =
      "const done = arguments[arguments.length - 1];"
          + "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',"
          + " 'wcag21aa']}, resultTypes: ['violations']})"
          + ".then(r => done(JSON.stringify(r.violations.map(v => v.id + ' (' + v.impact + '): '"
          + " + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', ')))),"
          + " e => done(JSON.stringify(['axe failed: ' + e])));";

  private static String axeSource;

  final WebDriver driver;
  final String base;
  private final Path keys;

  /**
   * Skips (saying so) where the browser is absent and {@code CI} is not {@code true}; under {@code
   * CI=true} a missing browser fails.
   */
  static void requireBrowser() {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (present) {
      return;
    }
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

  /**
   * The server the console tests drive: SQLite in {@code dataDir}, the fixture key "operator" as
   * the operator's, timers left to the tests (nothing fires behind their back), no rate limit in
   * reach.
   */
  static dev.asa.server.AsaServer startServer(Path dataDir) {
    return dev.asa.server.AsaServer.start(config(dataDir));
  }

  /** The same, with the given evaluator pool drawn from for agreements that name no evaluator. */
  static dev.asa.server.AsaServer startServer(Path dataDir, PoolSource pool) {
    return dev.asa.server.AsaServer.start(
        config(dataDir).withAssignment(AssignmentConfig.DEFAULTS.withPool(pool)));
  }

  private static dev.asa.server.config.ServerConfig config(Path dataDir) {
    return dev.asa.server.config.ServerConfig.defaults()
        .withPort(0)
        .withDataDir(dataDir)
        .withRateLimit(10_000, 10_000)
        .withTimerPolling(false)
        .withOperatorKey(dev.asa.testing.Fixtures.key("operator").publicKey());
  }

  /**
   * A pool of one evaluator of {@code general} work, the fixture key {@code name}, whose record
   * clears the default qualification bar (60 evaluations, 19 of 20 canaries, 4 points off): the one
   * every agreement without a named evaluator is given.
   */
  static PoolSource poolOf(String name, Identity identity, String displayName) {
    var key = dev.asa.testing.Fixtures.key(name).publicKey();
    var profile =
        new EvaluatorProfile(
            key,
            identity,
            displayName,
            "Org of " + name,
            List.of("general"),
            null,
            null,
            List.of());
    var calibration =
        new Calibration(
            Map.of("accuracy", new Deviation(20, BigDecimal.valueOf(80), BigDecimal.ZERO)),
            Map.of());
    var member =
        new PoolMember(
            profile, new TrackRecord(60, 20, 19, calibration, Map.of()), Standing.ACTIVE);
    return new PoolSource() {
      @Override
      public List<PoolMember> pool(String serviceType) {
        return List.of(member);
      }

      @Override
      public QualificationPolicy policy() {
        return QualificationPolicy.DEFAULTS;
      }

      @Override
      public void recordAssessment(
          Collection<String> evaluatorKeyIds, String providerKeyId, Instant at) {}

      @Override
      public void recordCalibration(String evaluatorKeyId, Calibration more, Instant at) {}

      @Override
      public Optional<PoolMember> member(String evaluatorKeyId) {
        return key.toBase64Url().equals(evaluatorKeyId) ? Optional.of(member) : Optional.empty();
      }

      @Override
      public void recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at) {}
    };
  }

  /** Writes each named fixture key as a key file, as {@code asa keys new} would. */
  static void writeKeys(Path dir, Map<String, Ed25519PrivateKey> named) {
    named.forEach((name, key) -> {
      try {
        KeyFile.write(dir.resolve(name + ".key"), key);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** A browser with its own chromedriver, given by path (so Selenium Manager never runs). */
  ConsoleBrowser(String base, Path keys) {
    this(base, keys, new Dimension(1280, 1800));
  }

  ConsoleBrowser(String base, Path keys, Dimension window) {
    this.base = base;
    this.keys = keys;
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=" + window.getWidth() + "," + window.getHeight());
    if ("root".equals(System.getProperty("user.name"))) {
      options.addArguments("--no-sandbox"); // Chromium refuses to run its sandbox as root
    }
    options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
    this.driver = new ChromeDriver(service, options);
  }

  WebDriverWait waiting() {
    return new WebDriverWait(driver, WAIT);
  }

  /** Opens the console and signs in with a key file; waits for the list to be drawn. */
  void signIn(String party, String keyName) {
    driver.get(base + "/console");
    WebElement partyField =
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
    if (!party.isEmpty()) {
      partyField.sendKeys(party);
    }
    driver.findElement(By.id("key-file")).sendKeys(keys.resolve(keyName + ".key").toString());
    waitForList();
  }

  void waitForList() {
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("list")));
    waiting()
        .until(
            ExpectedConditions.or(
                ExpectedConditions.textMatches(By.id("list-status"), Pattern.compile("shown")),
                ExpectedConditions.visibilityOfElementLocated(By.id("list-error"))));
  }

  void signOut() {
    driver.findElement(By.id("sign-out")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
  }

  /** Goes to a page of the console by its hash, as following a link does. */
  void go(String hash) {
    ((JavascriptExecutor) driver).executeScript("location.hash = arguments[0]", hash);
  }

  /** Opens an agreement's page and waits until its events are drawn. */
  void openAgreement(String id) {
    go("#/agreements/" + id);
    waitForAgreement();
  }

  void waitForAgreement() {
    waiting()
        .until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#agreement-body .chain")));
  }

  String text(String id) {
    return driver.findElement(By.id(id)).getText();
  }

  /** The table whose caption starts with the given text, as the user reads it. */
  String table(String caption) {
    for (WebElement t : driver.findElements(By.tagName("table"))) {
      if (t.findElement(By.tagName("caption")).getText().startsWith(caption)) {
        return t.getText();
      }
    }
    throw new AssertionError("no table captioned '" + caption + "' on the page");
  }

  /** Clicks the submit button of the action form for {@code action} and waits for its outcome. */
  String act(String action) {
    WebElement form =
        waiting()
            .until(
                ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("form.action[data-action='" + action + "']")));
    form.findElement(By.cssSelector("button[type=submit]")).click();
    // The page is redrawn after a success, so the outcome element may be replaced while read.
    return waiting()
        .ignoring(StaleElementReferenceException.class)
        .until(d -> {
          WebElement outcome = d.findElement(By.id("action-outcome"));
          String text = outcome.getText();
          return outcome.isDisplayed() && !text.startsWith("Sending") ? text : null;
        });
  }

  /** The form of one action, to fill in its fields. */
  WebElement actionForm(String action) {
    return waiting()
        .until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("form.action[data-action='" + action + "']")));
  }

  void screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
      Files.copy(
          shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Script errors and Content-Security-Policy violations the browser logged. The console's own
   * refused API calls (a 403 or 404 it then shows) are logged by Chromium as failed loads; those
   * are the page working, not failing, and are left out.
   */
  List<String> browserErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
        .map(LogEntry::getMessage)
        .filter(m -> !m.contains("favicon.ico"))
        .filter(m -> !m.contains("Failed to load resource: the server responded with a status"))
        .toList();
  }

  /** The axe-core WCAG 2.1 AA violations of the page as it is now; empty when it passes. */
  List<String> accessibilityViolations() {
    JavascriptExecutor js = (JavascriptExecutor) driver;
    js.executeScript(axe());
    String answer = (String) js.executeAsyncScript(AXE_RUN);
    return List.of(
        dev.asa.json.Json.mapper()
            .convertValue(dev.asa.json.Json.parseTrusted(answer), String[].class));
  }

  void assertAccessible(String page) {
    assertThat(accessibilityViolations())
        .as("axe-core WCAG 2.1 AA violations on " + page)
        .isEmpty();
  }

  private static synchronized String axe() {
    if (axeSource == null) {
      try (InputStream in = ConsoleBrowser.class.getResourceAsStream("/axe.min.js")) {
        if (in == null) {
          throw new IllegalStateException(
              "axe.min.js is missing from the test classpath (com.deque.html.axe-core:selenium)");
        }
        axeSource = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return axeSource;
  }

  @Override
  public void close() {
    driver.quit();
  }
}
