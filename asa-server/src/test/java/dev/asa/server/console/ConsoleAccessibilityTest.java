package dev.asa.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.server.AsaServer;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console for people who do not use a mouse, or a large screen: every main page passes
 * axe-core's WCAG 2.1 A and AA rules (labels, names, contrast, landmarks, ...), the whole way from
 * sign-in to an action works with the keyboard alone and always shows where the focus is, and on a
 * phone-sized screen the pages fit without sideways scrolling.
 */
class ConsoleAccessibilityTest {
  @TempDir static Path dataDir;
  @TempDir static Path keys;
  static AsaServer server;
  static String base;
  static String agreementId;

  @BeforeAll
  static void start() {
    ConsoleBrowser.requireBrowser();
    server = ConsoleBrowser.startServer(dataDir);
    base = server.url("127.0.0.1");
    AsaClient anonymous = AsaClient.connect(URI.create(base));
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"));
    agreementId = alice.createAgreement(Fixtures.general()).path("agreement_id").asText();
    alice.sign(agreementId, Role.CLIENT, Fixtures.key("alice"));
    anonymous.withKey(Fixtures.key("bob")).sign(agreementId, Role.PROVIDER, Fixtures.key("bob"));
    anonymous
        .withKey(Fixtures.key("eval-1"))
        .registerEvaluator(
            AsaClient.evaluatorRegistration(
                "api_key", "eval-1", "Evaluator One", List.of("general")));
    // The record changes twenty times (as canary results and calibration would change it): it is
    // published after the tenth and the twentieth, the two points of its history.
    String evaluatorKey = Fixtures.key("eval-1").publicKey().toBase64Url();
    try (dev.asa.server.store.Store other = dev.asa.server.store.Stores.open(null, dataDir)) {
      for (int i = 1; i <= 2 * dev.asa.integrity.RecordPublication.BATCH; i++) {
        int tasks = i;
        other
            .evaluators()
            .update(
                evaluatorKey,
                m ->
                    new dev.asa.integrity.PoolMember(
                        m.profile(),
                        new dev.asa.integrity.TrackRecord(
                            0,
                            tasks,
                            tasks - 1,
                            new dev.asa.integrity.Calibration(
                                Map.of(
                                    "accuracy",
                                    new dev.asa.integrity.Deviation(
                                        tasks,
                                        java.math.BigDecimal.valueOf(tasks * 4L),
                                        java.math.BigDecimal.ZERO)),
                                Map.of()),
                            Map.of()),
                        m.standing()),
                java.time.Instant.now());
      }
    }
    ConsoleBrowser.writeKeys(
        keys, Map.of("alice", Fixtures.key("alice"), "operator", Fixtures.key("operator")));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyMainPagePassesTheAutomatedAccessibilityCheck() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.driver.get(base + "/console");
      b.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
      b.assertAccessible("the sign-in page");

      b.signIn("alice", "alice");
      b.assertAccessible("the agreements list");
      b.screenshot("agreements");

      b.openAgreement(agreementId);
      b.assertAccessible("an agreement's page");
      b.screenshot("agreement");

      // The evaluator's record over time is the evaluator's and the operator's to read.
      b.signIn("", "operator");
      b.go("#/evaluators");
      b.waiting()
          .until(
              ExpectedConditions.textToBePresentInElementLocated(
                  By.id("evaluators-body"), "Evaluator One"));
      b.assertAccessible("the evaluators page");
      b.screenshot("evaluators");

      b.driver.findElement(By.linkText("Evaluator One")).click();
      b.waiting()
          .until(
              ExpectedConditions.textToBePresentInElementLocated(
                  By.id("evaluators-body"), "over time"));
      assertThat(b.table("The record as each publication showed it"))
          .contains("9 of 10", "90 %", "19 of 20", "95 %");
      assertThat(b.text("evaluators-body")).contains("Why it is not qualified");
      b.assertAccessible("an evaluator's page");
      b.screenshot("evaluator");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * Sign in, find the agreement, open it and take an action, all with Tab and Enter; each element
   * that takes the focus shows an outline.
   */
  @Test
  void theWholeWayWorksWithTheKeyboardAloneAndTheFocusIsAlwaysVisible() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      WebElement link =
          b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(agreementId)));
      List<String> outlines = new ArrayList<>();
      WebElement focused = tabUntil(b, link, outlines);
      assertThat(focused).isEqualTo(link);
      focused.sendKeys(Keys.ENTER);
      b.waitForAgreement();
      assertThat(b.driver.switchTo().activeElement().getAttribute("id"))
          .as("a new page moves the focus to its content")
          .isEqualTo("main");

      WebElement fund =
          b.driver.findElement(By.cssSelector("form.action[data-action='fund'] button"));
      focused = tabUntil(b, fund, outlines);
      focused.sendKeys(Keys.ENTER);
      b.waiting()
          .until(
              ExpectedConditions.textToBePresentInElementLocated(
                  By.id("action-outcome"), "Fund the escrow: done"));
      b.waitForAgreement();
      assertThat(b.driver.switchTo().activeElement().getAttribute("id"))
          .as("after the page is redrawn the focus is on the outcome, where the user was")
          .isEqualTo("action-outcome");
      assertThat(outlines)
          .as("every element the Tab key reached showed a focus outline")
          .isNotEmpty()
          .allMatch(o -> !o.startsWith("none"), "an outline");
    }
  }

  /** The check is real: a field that loses its label is caught. */
  @Test
  void theCheckCatchesAFieldWithoutALabel() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.driver.get(base + "/console");
      b.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
      ((JavascriptExecutor) b.driver)
          .executeScript("document.querySelector('label[for=party]').remove()");
      assertThat(b.accessibilityViolations()).anyMatch(v -> v.startsWith("label ("));
    }
  }

  /** Presses Tab until the target has the focus (at most 200 times), noting each outline. */
  private static WebElement tabUntil(ConsoleBrowser b, WebElement target, List<String> outlines) {
    JavascriptExecutor js = (JavascriptExecutor) b.driver;
    for (int i = 0; i < 200; i++) {
      new Actions(b.driver).sendKeys(Keys.TAB).perform();
      WebElement active = b.driver.switchTo().activeElement();
      outlines.add(
          (String)
              js.executeScript(
                  "const s = getComputedStyle(arguments[0]);"
                      + " return s.outlineStyle + ' ' + s.outlineWidth + ' ' + arguments[0].tagName;",
                  active));
      if (active.equals(target)) {
        return active;
      }
    }
    throw new AssertionError("Tab never reached " + target.getText());
  }

  @Test
  void onAPhoneSizedScreenThePagesFitAndStayAccessible() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys, new Dimension(390, 844))) {
      b.signIn("alice", "alice");
      assertFitsTheScreen(b, "the agreements list");
      b.screenshot("phone-agreements");
      b.openAgreement(agreementId);
      assertFitsTheScreen(b, "an agreement's page");
      b.assertAccessible("an agreement's page on a phone");
      b.screenshot("phone-agreement");
    }
  }

  private static void assertFitsTheScreen(ConsoleBrowser b, String page) {
    Object overflow =
        ((JavascriptExecutor) b.driver)
            .executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
    assertThat(((Number) overflow).intValue())
        .as(page + " scrolls sideways by this many pixels (wide tables scroll inside their box)")
        .isLessThanOrEqualTo(0);
  }
}
