package dev.asa.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.DidKey;
import dev.asa.server.AsaServer;
import dev.asa.server.store.Commit;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console in a real headless Chromium against a real server: a party signs in with its key
 * file, finds its agreement and sees its checked timeline; an agreement goes from PROPOSED to
 * CLOSED through the console's buttons, each party acting with its own key; a challenged result is
 * ruled by the operator in the console; a stranger's key sees neither the agreement in the list nor
 * anything of it on its page. Screenshots go to {@code target/console-screenshots/}.
 */
class ConsoleBrowserTest {
  @TempDir static Path dataDir;
  @TempDir static Path keys;
  static AsaServer server;
  static String base;
  static String agreementId;
  static AsaClient anonymous;

  @BeforeAll
  static void start() {
    ConsoleBrowser.requireBrowser();
    // Agreements that name no evaluator get eval-2, "Judge Two", whose identity is its did:key.
    server =
        ConsoleBrowser.startServer(
            dataDir,
            ConsoleBrowser.poolOf(
                "eval-2",
                new Identity("did", DidKey.of(Fixtures.key("eval-2").publicKey()), null),
                "Judge Two"));
    base = server.url("127.0.0.1");
    anonymous = AsaClient.connect(URI.create(base));
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"));
    agreementId = alice.createAgreement(Fixtures.general()).path("agreement_id").asText();
    // One round of negotiation, for the transcript: the provider asks 11.00, the client accepts.
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"));
    ObjectNode counter = dev.asa.json.Json.object().put("round", 1).put("action", "propose");
    counter.putObject("proposed_changes").put("escrow.payment.amount", "11.00");
    counter.put("rationale_code", "risk_adjustment");
    String negotiationId =
        bob.negotiate(agreementId, counter)
            .path("agreement")
            .path("metadata")
            .path("negotiation")
            .path("negotiation_id")
            .asText();
    alice.negotiate(
        agreementId,
        dev.asa.json.Json.object()
            .put("negotiation_id", negotiationId)
            .put("round", 2)
            .put("action", "accept")
            .put("rationale_code", "accept_as_proposed"));
    alice.sign(agreementId, Role.CLIENT, Fixtures.key("alice"));
    bob.sign(agreementId, Role.PROVIDER, Fixtures.key("bob"));
    ConsoleBrowser.writeKeys(
        keys,
        Map.of(
            "alice", Fixtures.key("alice"),
            "bob", Fixtures.key("bob"),
            "eval-1", Fixtures.key("eval-1"),
            "eval-2", Fixtures.key("eval-2"),
            "mallory", Fixtures.key("mallory"),
            "operator", Fixtures.key("operator")));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static final int CLOSE_WINDOW_SECONDS = 10;

  /** A new agreement between alice, bob and eval-1 with the given challenge window, PROPOSED. */
  static String propose(int challengeWindowSeconds) {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("challenge_window_seconds", challengeWindowSeconds);
    return anonymous
        .withKey(Fixtures.key("alice"))
        .createAgreement(doc)
        .path("agreement_id")
        .asText();
  }

  @Test
  void aPartySignsInWithItsKeyFileFindsItsAgreementAndSeesItsCheckedTimeline() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(agreementId))).click();
      b.waitForAgreement();
      String page = b.text("agreement-body");
      assertThat(b.driver.findElement(By.cssSelector("#agreement-body .chain")).getText())
          .startsWith("Hash chain checked in this page: intact")
          .contains("chain_valid = true");
      assertThat(page)
          .contains("ACTIVE", "11.00 USD", "accuracy", "0.3", "gte 80", "alice", "bob", "unfunded")
          .contains("the client must have funded the escrow", "in 23 h")
          .doesNotContain("✗");
      assertThat(b.table("Events")).contains("✓ hash recomputed");
      assertThat(b.table("Payment release by composite score")).contains("≥ 75", "85 %");
      assertThat(b.table("Negotiation, round by round"))
          .contains("provider", "propose", "risk_adjustment")
          .contains("escrow.payment.amount: \"10.00\" → \"11.00\"")
          .contains("client", "accept");
      assertThat(b.driver.findElement(By.id("agreement-error")).isDisplayed()).isFalse();
      assertThat(b.browserErrors())
          .as("no script error and no Content-Security-Policy violation in the page")
          .isEmpty();
    }
  }

  /**
   * PROPOSED to CLOSED with nothing but the console's buttons: each party signs in with its own key
   * file and takes its step; a step the server refuses (closing inside the challenge window) shows
   * the API's refusal as it is.
   */
  @Test
  void anAgreementGoesFromProposedToClosedThroughTheConsolesButtons() throws Exception {
    // Long enough for the client to sign in and be refused inside it on a loaded machine (3 s was
    // not, under a parallel load), and waited out from the verification on, not for a fixed time.
    String id = propose(CLOSE_WINDOW_SECONDS);
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      b.openAgreement(id);
      assertThat(b.text("agreement-body")).contains("PROPOSED", "You are\nclient");
      assertThat(b.act("sign")).contains("Sign as client: done");
      b.screenshot("agreement-proposed");
      b.signOut();

      b.signIn("bob", "bob");
      b.openAgreement(id);
      assertThat(b.act("sign")).contains("the agreement is now ACTIVE");
      assertThat(b.driver.findElements(By.cssSelector("form.action[data-action='deliver']")))
          .as("the provider is offered no delivery before the escrow is funded")
          .isEmpty();
      b.signOut();

      b.signIn("alice", "alice");
      b.openAgreement(id);
      assertThat(b.act("fund")).contains("Fund the escrow: done");
      b.waitForAgreement();
      assertThat(b.text("agreement-body")).contains("Held in escrow now\n10.00 USD");
      b.signOut();

      b.signIn("bob", "bob");
      b.openAgreement(id);
      b.actionForm("deliver")
          .findElement(By.tagName("textarea"))
          .sendKeys("# Federated learning and privacy\n\nDifferential privacy bounds leakage.\n");
      assertThat(b.act("deliver")).contains("the agreement is now DELIVERED");
      b.waitForAgreement();
      assertThat(b.text("agreement-body")).contains("Content digest\nsha256:");
      b.signOut();

      b.signIn("eval-1", "eval-1");
      b.openAgreement(id);
      var form = b.actionForm("verify");
      var numbers = form.findElements(By.cssSelector("input[type=number]"));
      var texts = form.findElements(By.cssSelector("input[type=text]"));
      for (int i = 0; i < texts.size(); i++) {
        numbers.get(i).sendKeys("85");
        texts.get(i).sendKeys("checked by hand in the console");
      }
      assertThat(b.act("verify")).contains("the agreement is now VERIFIED");
      // The window opened at the server's verification, before the page said so.
      Instant windowClosed = Instant.now().plusSeconds(CLOSE_WINDOW_SECONDS).plusMillis(200);
      b.waitForAgreement();
      assertThat(b.table("Score per dimension")).contains("accuracy", "85", "yes");
      b.screenshot("agreement-verified");
      b.signOut();

      b.signIn("alice", "alice");
      b.openAgreement(id);
      assertThat(b.act("close"))
          .as("the server refuses to close inside the challenge window, and the page says so")
          .startsWith("Close the agreement refused: 409");
      Thread.sleep(Math.max(0, Duration.between(Instant.now(), windowClosed).toMillis()));
      b.openAgreement(id);
      b.go("#/");
      b.waitForList();
      b.openAgreement(id);
      assertThat(b.act("close")).contains("the agreement is now CLOSED");
      b.waitForAgreement();
      assertThat(b.table("Ledger transfers")).contains("release", "refund");
      b.screenshot("agreement-closed");
      assertThat(b.browserErrors()).isEmpty();
    }
    assertThat(anonymous.withKey(Fixtures.key("alice")).agreements().get(id).state().name())
        .isEqualTo("CLOSED");
  }

  /** The client challenges in the console; the operator, signed in with its key, rules there. */
  @Test
  void aChallengedResultIsRuledByTheOperatorInTheConsole() throws Exception {
    String id = propose(600);
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"));
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"));
    alice.sign(id, Role.CLIENT, Fixtures.key("alice"));
    bob.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    alice.fund(id);
    bob.deliver(id, "# Federated learning\n\nA short survey.\n", "markdown");
    ObjectNode result = dev.asa.json.Json.object().put("confidence", 0.7);
    var dimensions = result.putArray("dimensions");
    for (String name : new String[] {"accuracy", "completeness", "relevance"}) {
      dimensions.addObject().put("name", name).put("score", 62).put("evidence", "a thin survey");
    }
    anonymous.withKey(Fixtures.key("eval-1")).verify(id, result);
    // The reason is the arbiter's free text: shown as text, never as markup.
    String reason = "the survey covers less than agreed <b>as agreed</b>";
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      b.openAgreement(id);
      assertThat(b.text("agreement-body"))
          .contains(
              "VERIFIED", "the challenge window closes", "The challenge window is open until");
      assertThat(b.act("challenge")).contains("the agreement is now DISPUTED");
      b.signOut();

      b.signIn("", "operator");
      assertThat(b.text("who")).startsWith("operator · key ");
      b.openAgreement(id);
      assertThat(b.text("agreement-body")).contains("DISPUTED", "You are\noperator");
      var form = b.actionForm("rule");
      form.findElement(By.cssSelector("input[type=number]")).sendKeys("40");
      form.findElement(By.tagName("textarea")).sendKeys(reason);
      assertThat(b.act("rule")).contains("the agreement is now CLOSED");
      b.waitForAgreement();
      assertThat(b.table("Ledger transfers")).contains("4.00 USD", "6.00 USD");
      assertThat(b.text("agreement-body"))
          .contains("Dispute", "filed by\nclient", "reason code\nquality_below_agreed_slo");
      assertRulingShown(b, id, reason);
      b.screenshot("agreement-ruled");
      b.signOut();

      // A party reads the same ruling on its own page.
      b.signIn("bob", "bob");
      b.openAgreement(id);
      assertRulingShown(b, id, reason);
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * The ruling beside the escrow (share, reason, who ruled and when, as the API recorded them) and
   * the settlement it made; the challenge window is said to be closed by the challenge, not open.
   */
  private static void assertRulingShown(ConsoleBrowser b, String id, String reason) {
    var ruling = anonymous.withKey(Fixtures.key("alice")).status(id).path("ruling");
    String escrow =
        b.driver.findElement(By.cssSelector("section[aria-labelledby='h-escrow']")).getText();
    assertThat(escrow)
        .contains("Ruling on the dispute")
        .contains("Released to the provider\n40 %", "Back to the client\n60 %")
        .contains("Reason\n" + reason)
        .contains("Ruled by\noperator")
        .contains("Ruled at\n" + ruling.path("ruled_at").asText())
        .contains("Settled by\nthe ruling on the dispute")
        .contains("4.00 USD (40 %)", "Back to the client\n6.00 USD");
    assertThat(b.driver.findElements(By.cssSelector("#agreement-body b")))
        .as("the reason's markup stays text")
        .isEmpty();
    assertThat(b.text("agreement-body"))
        .doesNotContain("open until", "the challenge window closes and the result is enforced")
        .contains("The challenge window closed with the client's challenge at")
        .contains("the dispute was ruled at " + ruling.path("ruled_at").asText());
  }

  /**
   * The operator's key lists every agreement (no identity typed), counts them by state, filters on
   * the server (a state chosen from the counts, an amount range), and reads the health page.
   */
  @Test
  void anAgreementThatLeavesTheEvaluatorToThePoolSaysSoInsteadOfADash() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("parties")).remove("evaluator");
    String id =
        anonymous.withKey(Fixtures.key("alice")).createAgreement(doc).path("agreement_id").asText();
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      b.openAgreement(id);
      assertThat(b.text("agreement-body"))
          .contains("Evaluator\nfrom the pool, once the agreement is active");
    }
  }

  /** The agreement of these terms between alice and bob, signed, funded and delivered. */
  static String delivered(ObjectNode doc, String content) {
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"));
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"));
    String id = alice.createAgreement(doc).path("agreement_id").asText();
    alice.sign(id, Role.CLIENT, Fixtures.key("alice"));
    bob.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    alice.fund(id);
    bob.deliver(id, content, "markdown");
    return id;
  }

  /**
   * The evaluator's form shows the work it scores, read from the evaluator's own work queue and
   * matched by the digest the agreement recorded: as text (the provider's markup stays text), a
   * preview capped at 8000 characters with the whole as a plain-text download, and the criteria of
   * each dimension it scores.
   */
  @Test
  void theEvaluatorsFormShowsTheWorkToScoreAsTextWithTheCriteriaItScores() {
    String content =
        "# Survey\n<img src=x onerror=alert(1)><script>alert(2)</script>\n"
            + "Differential privacy bounds leakage. ".repeat(300)
            + "\nTHE LAST LINE\n";
    String id = delivered(Fixtures.general(), content);
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("eval-1", "eval-1");
      b.openAgreement(id);
      WebElement form = b.actionForm("verify");
      b.waiting()
          .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("pre.deliverable")));
      String preview = form.findElement(By.cssSelector("pre.deliverable")).getText();
      assertThat(preview)
          .startsWith("# Survey\n<img src=x onerror=alert(1)><script>alert(2)</script>")
          .doesNotContain("THE LAST LINE");
      assertThat(
              b.driver.findElements(By.cssSelector("#agreement-body img, #agreement-body script")))
          .as("the deliverable's markup stays text")
          .isEmpty();
      assertThat(form.getText())
          .contains("The work to score")
          .contains("Request\nSummarise recent work on federated learning privacy")
          .contains("The first 8000 of its " + content.length() + " characters:");
      WebElement download = form.findElement(By.cssSelector("a.download"));
      assertThat(download.getAttribute("href")).startsWith("blob:");
      assertThat(download.getAttribute("download")).isEqualTo("deliverable.md");
      assertThat(download.getText())
          .isEqualTo("Download the whole deliverable (" + content.length() + " characters)");
      assertThat(b.table("The criteria you score"))
          .contains("accuracy", "Share of claims that are correct", "0.3", "gte 80")
          .contains("completeness", "relevance");
      b.assertAccessible("the evaluator's scoring form");
      b.screenshot("evaluator-work");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * Where the terms have the evaluators answer in their work queue (canary tasks, which must look
   * like real work), the page offers no scoring form beside the queue, whose scores the server
   * would refuse, and shows no deliverable matched to the agreement: it says where to answer.
   */
  @Test
  void withCanaryTasksTheEvaluatorIsSentToItsWorkQueue() {
    // The server takes canary terms only with a canary set to draw from.
    ObjectNode canary = dev.asa.json.Json.object();
    canary.put("id", "general-console-01").put("service_type", "general");
    canary.putObject("request").put("description", "Explain how TLS certificates are checked");
    canary
        .putObject("deliverable")
        .put("content", "# Certificates\n\nBrowsers check them.\n")
        .put("format", "markdown");
    canary.set(
        "criteria",
        dev.asa.template.Templates.get("general").orElseThrow().defaults().get("quality_criteria"));
    canary
        .putObject("known_scores")
        .put("accuracy", 20)
        .put("completeness", 15)
        .put("relevance", 30);
    canary.put("tolerance", 15);
    anonymous
        .withKey(Fixtures.key("operator"))
        .loadCanaries(dev.asa.json.Json.mapper().createArrayNode().add(canary));
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").putObject("canary_tasks").put("enabled", true);
    String id = delivered(doc, "# Survey\n\nA short one.\n");
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("eval-1", "eval-1");
      b.openAgreement(id);
      assertThat(b.text("agreement-body"))
          .contains("DELIVERED", "You are\nevaluator")
          .contains(
              "This agreement has canary tasks enabled, so its evaluators answer through"
                  + " their work queue");
      assertThat(b.driver.findElements(By.cssSelector("form.action[data-action='verify']")))
          .isEmpty();
      assertThat(b.driver.findElements(By.cssSelector("pre.deliverable"))).isEmpty();
    }
  }

  /**
   * An evaluator the pool assigned is named on the agreement (its display name and shortened
   * did:key, never a dash), holds the evaluator's role, sees the work it was given and scores it.
   */
  @Test
  void aPoolAssignedEvaluatorIsNamedSeesTheWorkAndScoresIt() {
    ObjectNode pooled = Fixtures.general();
    ((ObjectNode) pooled.path("parties")).remove("evaluator");
    String id = delivered(pooled, "# Pooled work\n\nSecure aggregation hides the updates.\n");
    String did = DidKey.of(Fixtures.key("eval-2").publicKey());
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("", "eval-2");
      b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(id))).click();
      b.waitForAgreement();
      String evaluator =
          b.driver.findElement(By.xpath("//dt[.='Evaluator']/following-sibling::dd[1]")).getText();
      assertThat(evaluator)
          .startsWith("Judge Two · " + did.substring(0, 12) + "…" + did.substring(did.length() - 4))
          .contains("assigned from the pool (random_from_pool)")
          .doesNotContain("—");
      assertThat(b.text("agreement-body")).contains("DELIVERED", "You are\nevaluator");
      WebElement form = b.actionForm("verify");
      b.waiting()
          .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("pre.deliverable")));
      assertThat(form.findElement(By.cssSelector("pre.deliverable")).getText())
          .isEqualTo("# Pooled work\n\nSecure aggregation hides the updates.");
      var numbers = form.findElements(By.cssSelector("input[type=number]"));
      var texts = form.findElements(By.cssSelector("input[type=text]"));
      for (int i = 0; i < texts.size(); i++) {
        numbers.get(i).sendKeys("90");
        texts.get(i).sendKeys("read in the console");
      }
      assertThat(b.act("verify")).contains("the agreement is now VERIFIED");
      b.waitForAgreement();
      assertThat(
              b.driver
                  .findElement(By.cssSelector("section[aria-labelledby='h-verification']"))
                  .getText())
          .contains("Evaluator\n" + did.substring(0, 12))
          .doesNotContain("Evaluator\n—");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * did:key identities are shortened (display names first), each whole in its title and on the
   * clipboard by a labelled button; at 390 px neither the list nor the agreement scrolls sideways.
   */
  @Test
  void longDidKeysAreShortenedCopiedWholeAndNoPageScrollsSidewaysAt390Px() {
    String aliceDid = DidKey.of(Fixtures.key("alice").publicKey());
    String bobDid = DidKey.of(Fixtures.key("bob").publicKey());
    ObjectNode doc = Fixtures.general();
    ObjectNode client = (ObjectNode) doc.path("parties").path("client");
    client.putObject("identity").put("scheme", "did").put("value", aliceDid);
    client.put("display_name", "Alice's research desk");
    client.remove("verification_key"); // a did:key identity is the key itself
    ObjectNode provider = (ObjectNode) doc.path("parties").path("provider");
    provider.putObject("identity").put("scheme", "did").put("value", bobDid);
    provider.remove("display_name");
    provider.remove("verification_key");
    String id =
        anonymous.withKey(Fixtures.key("alice")).createAgreement(doc).path("agreement_id").asText();
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys, new Dimension(390, 844))) {
      ((ChromeDriver) b.driver)
          .executeCdpCommand(
              "Browser.grantPermissions",
              Map.of(
                  "origin",
                  base,
                  "permissions",
                  List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
      b.signIn("", "alice"); // the key's own did:key, as the identity
      b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(id)));
      WebElement row = b.driver.findElement(By.xpath("//tr[.//a[.='" + id + "']]"));
      String shortAlice =
          aliceDid.substring(0, 12) + "…" + aliceDid.substring(aliceDid.length() - 4);
      WebElement clientKey = row.findElement(By.xpath(".//span[@title='" + aliceDid + "']"));
      assertThat(clientKey.getText()).isEqualTo(shortAlice);
      assertThat(row.findElement(By.xpath(".//span[@title='" + bobDid + "']")).getText())
          .isEqualTo(bobDid.substring(0, 12) + "…" + bobDid.substring(bobDid.length() - 4));
      assertThat(row.getText()).doesNotContain(aliceDid, bobDid);
      assertFitsTheScreen(b, "the agreements list");

      WebElement copy =
          row.findElement(
              By.cssSelector("button.copy[aria-label=\"Copy the client's identity in full\"]"));
      ((JavascriptExecutor) b.driver).executeScript("arguments[0].scrollIntoView()", copy);
      copy.click();
      b.waiting()
          .until(
              ExpectedConditions.textToBePresentInElementLocated(By.id("copy-status"), "Copied"));
      Object copied =
          ((JavascriptExecutor) b.driver)
              .executeAsyncScript(
                  "const done = arguments[arguments.length - 1];"
                      + "navigator.clipboard.readText().then(done, e => done('error: ' + e));");
      assertThat(copied).isEqualTo(aliceDid);
      b.screenshot("phone-did-agreements");

      b.openAgreement(id);
      String page = b.text("agreement-body");
      assertThat(page)
          .contains("Client\nAlice's research desk · " + shortAlice)
          .contains("You are\nclient")
          .doesNotContain(aliceDid, bobDid);
      assertThat(
              b.driver.findElements(
                  By.cssSelector("#agreement-body span[title='" + aliceDid + "']")))
          .isNotEmpty();
      assertFitsTheScreen(b, "an agreement's page");
      b.assertAccessible("an agreement of did:keys on a phone");
      b.screenshot("phone-did-agreement");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * A display name is text a party chose: markup in it stays text, control and format characters
   * show as U+FFFD, and a long one is cut (whole up to 200 characters in its title), in the list as
   * on the agreement's page, the shortened identity beside it. The API refuses control characters
   * and names over 200 characters, so these are written into the store behind its back: the console
   * does not count on the server for any of this.
   */
  @Test
  void aHostileDisplayNameIsShownAsInertCutText() {
    String clientName = "<img src=x onerror=pwned=1>\u0000\u001b[31m\u202e" + "A".repeat(10_000);
    String providerName = "<b>bo</b>\r\n<script>pwned=2</script>";
    String id = propose(60);
    renameInTheStore(id, clientName, providerName);
    String clientShown = "<img src=x onerror=pwned=1>\uFFFD\uFFFD[31m\uFFFD";
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      JavascriptExecutor js = (JavascriptExecutor) b.driver;
      b.signIn("alice", "alice");
      b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(id)));
      WebElement row = b.driver.findElement(By.xpath("//tr[.//a[.='" + id + "']]"));
      List<WebElement> names = row.findElements(By.cssSelector("bdi.name"));
      assertThat(names).hasSize(2);
      String client = (String) js.executeScript("return arguments[0].textContent", names.get(0));
      assertThat(client).hasSize(40).startsWith(clientShown).endsWith("A…");
      assertThat(names.get(0).getAttribute("title")).hasSize(200).startsWith(clientShown);
      assertThat((String) js.executeScript("return arguments[0].textContent", names.get(1)))
          .isEqualTo("<b>bo</b>\uFFFD\uFFFD<script>pwned=2</script>");
      assertThat(row.getText()).contains("alice", "bob"); // the identities, beside the names
      assertThat(row.findElements(By.cssSelector("img, b, script"))).isEmpty();
      assertThat(row.getSize().getHeight()).as("a row a few lines high").isLessThan(200);
      b.screenshot("hostile-names-list");

      b.openAgreement(id);
      WebElement clientParty =
          b.driver.findElement(By.xpath("//dt[.='Client']/following-sibling::dd[1]"));
      assertThat(clientParty.getText()).startsWith(clientShown).contains("A… · alice");
      assertThat(b.driver.findElements(By.cssSelector("#agreement-body img, #agreement-body b")))
          .isEmpty();
      assertThat(js.executeScript("return typeof pwned")).isEqualTo("undefined");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /**
   * Gives the client and the provider of a stored agreement these display names, past the API and
   * its checks, as a store written by another build (or by hand) could hold them.
   */
  private static void renameInTheStore(String id, String client, String provider) {
    try (Store store = Stores.open(null, dataDir)) {
      AgreementRow row = store.agreements().find(id).orElseThrow();
      ObjectNode doc = (ObjectNode) dev.asa.json.Json.parseTrusted(row.document());
      ((ObjectNode) doc.path("parties").path("client")).put("display_name", client);
      ((ObjectNode) doc.path("parties").path("provider")).put("display_name", provider);
      AgreementRow renamed =
          new AgreementRow(
              row.id(),
              row.version() + 1,
              row.state(),
              dev.asa.json.Json.write(doc),
              row.facts(),
              row.serviceType(),
              row.clientIdentity(),
              row.providerIdentity(),
              row.evaluatorIdentity(),
              row.createdAt(),
              row.updatedAt(),
              row.amount(),
              row.currency());
      store.writes().commit(new Commit(row, renamed, List.of(), List.of()));
    }
  }

  private static void assertFitsTheScreen(ConsoleBrowser b, String page) {
    JavascriptExecutor js = (JavascriptExecutor) b.driver;
    Object overflow =
        js.executeScript(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
    // What sticks out, to say where: elements past the screen's edge, and elements whose text
    // overflows them (an unbroken word), leaving out the boxes that scroll on purpose.
    Object outside =
        js.executeScript(
            "const w = document.documentElement.clientWidth;"
                + "const scrolls = e => /auto|scroll/.test(getComputedStyle(e).overflowX);"
                + "const out = new Set(Array.from(document.querySelectorAll('body *'))"
                + ".filter(e => !e.parentElement.closest('.table-box, pre') && !scrolls(e))"
                + ".filter(e => e.getBoundingClientRect().right > w + 0.5"
                + " || e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0));"
                + "return [...out].filter(e => ![...e.children].some(c => out.has(c)))"
                + ".slice(0, 8).map(e => e.tagName + '.' + e.className + ' '"
                + " + (e.textContent || '').slice(0, 40)).join(', ');");
    assertThat(((Number) overflow).intValue())
        .as(
            page
                + " scrolls sideways by this many pixels at 390 px (past the edge: "
                + outside
                + ")")
        .isLessThanOrEqualTo(0);
  }

  @Test
  void theOperatorListsEveryAgreementCountsThemByStateAndFiltersOnTheServer() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("", "operator");
      assertThat(b.text("who")).startsWith("operator · key ");
      b.waiting().until(ExpectedConditions.elementToBeClickable(By.linkText(agreementId)));
      WebElement active =
          b.waiting()
              .until(
                  ExpectedConditions.elementToBeClickable(
                      By.xpath("//div[@id='state-counts']/button[starts-with(., 'ACTIVE ')]")));
      int activeCount = Integer.parseInt(active.getText().substring("ACTIVE ".length()));
      assertThat(activeCount).isPositive();
      assertThat(b.text("state-counts")).contains("PROPOSED ", "CLOSED ", "total ");
      b.screenshot("operator-agreements");

      active.click();
      b.waiting()
          .until(d ->
              d.findElements(By.cssSelector("#agreements-rows tr")).size()
                  == Math.min(activeCount, 50));
      assertThat(b.driver.findElements(By.cssSelector("#agreements-rows tr .state")))
          .allMatch(e -> e.getText().equals("ACTIVE"), "ACTIVE");
      assertThat(
              b.driver
                  .findElement(
                      By.xpath("//div[@id='state-counts']/button[starts-with(., 'ACTIVE ')]"))
                  .getAttribute("aria-pressed"))
          .isEqualTo("true");

      b.driver.findElement(By.id("f-min-amount")).sendKeys("100");
      b.driver.findElement(By.cssSelector("#filters button[type=submit]")).click();
      b.waiting().until(ExpectedConditions.textToBe(By.id("list-status"), "0 agreement(s) shown"));
      b.driver.findElement(By.id("f-min-amount")).clear();
      b.driver.findElement(By.id("f-min-amount")).sendKeys("1,5");
      b.driver.findElement(By.cssSelector("#filters button[type=submit]")).click();
      assertThat(
              b.waiting()
                  .until(ExpectedConditions.visibilityOfElementLocated(By.id("list-error")))
                  .getText())
          .as("a bad filter value gets the API's refusal, naming the parameter")
          .startsWith("The server refused the list: 400")
          .contains("min_amount");

      b.driver.findElement(By.id("open-id")).sendKeys(agreementId);
      b.driver.findElement(By.cssSelector("#open-form button[type=submit]")).click();
      b.waitForAgreement();
      assertThat(b.text("agreement-title")).isEqualTo("Agreement " + agreementId);

      b.go("#/health");
      b.waiting()
          .until(
              ExpectedConditions.textToBePresentInElementLocated(
                  By.id("health-body"), "Agreements and money by state"));
      assertThat(b.table("Agreements and the amounts they carry")).contains("ACTIVE", "USD");
      assertThat(b.text("health-body")).contains("Outbox messages pending", "Timers pending");
      b.assertAccessible("the health page");
      b.screenshot("health");
      assertThat(b.browserErrors()).isEmpty();
    }
  }

  /** The health page is the operator's: a party sees the API's refusal there, and no figure. */
  @Test
  void aPartysHealthPageShowsTheApisRefusal() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("alice", "alice");
      b.go("#/health");
      assertThat(
              b.waiting()
                  .until(ExpectedConditions.visibilityOfElementLocated(By.id("health-error")))
                  .getText())
          .startsWith("The server refused: 403");
      assertThat(b.text("health-body")).isEmpty();
    }
  }

  @Test
  void aStrangersKeySeesNeitherTheAgreementInTheListNorAnythingOfItsPage() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      // Mallory names alice's identity: the API lists only agreements her own key is a party to.
      b.signIn("alice", "mallory");
      assertThat(b.text("list-status")).startsWith("0 agreement(s) shown");
      assertThat(b.text("main")).doesNotContain(agreementId);
      b.screenshot("stranger-list");

      b.go("#/agreements/" + agreementId);
      var error =
          b.waiting()
              .until(ExpectedConditions.visibilityOfElementLocated(By.id("agreement-error")));
      assertThat(error.getText()).startsWith("The server refused: 404");
      assertThat(b.text("agreement-body")).isEmpty();
      assertThat(b.text("main")).doesNotContain("ACTIVE", "bob", "10.00", "accuracy");
      b.screenshot("stranger-agreement");
    }
  }

  /**
   * The page's own chain check (its JCS and SHA-256, in the browser) against the server's real
   * events: it agrees with the server on the intact log and catches one changed field or a broken
   * link.
   */
  @Test
  void thePagesChainCheckRecomputesTheServersHashesAndCatchesATamperedEvent() {
    var events = anonymous.withKey(Fixtures.key("alice")).events(agreementId).path("events");
    var tampered = events.deepCopy();
    ((ObjectNode) tampered.get(1)).put("type", "fundedd");
    var relinked = events.deepCopy();
    ((ObjectNode) relinked.get(2)).put("prev_hash", events.get(0).path("hash").asText());
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.driver.get(base + "/console");
      b.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
      String script =
          "const done = arguments[arguments.length - 1];"
              + "import('./console/assets/api.js')"
              + ".then(m => m.checkChain(arguments[0], JSON.parse(arguments[1])))"
              + ".then(r => done(JSON.stringify(r.map(c => c.ok))), e => done('error: ' + e));";
      JavascriptExecutor js = (JavascriptExecutor) b.driver;
      int n = events.size();
      assertThat(js.executeAsyncScript(script, agreementId, events.toString()))
          .isEqualTo(oks(n, -1, true));
      assertThat(js.executeAsyncScript(script, agreementId, tampered.toString()))
          .isEqualTo(oks(n, 1, true));
      assertThat(js.executeAsyncScript(script, agreementId, relinked.toString()))
          .isEqualTo(oks(n, 2, true));
      assertThat(js.executeAsyncScript(script, "asa-another-id", events.toString()))
          .as("the agreement id is part of each hash")
          .isEqualTo(oks(n, -1, false));
    }
  }

  /**
   * The page signs only the terms it shows: its own JCS and SHA-256 give the server's
   * agreement_hash for a real (negotiated) agreement, and another hash for terms changed by one
   * member, so the sign button refuses them.
   */
  @Test
  void thePageComputesTheAgreementHashItSignsAndTellsChangedTermsApart() {
    var envelope = anonymous.withKey(Fixtures.key("alice")).agreement(agreementId);
    var doc = envelope.path("agreement");
    var changed = doc.deepCopy();
    ((ObjectNode) changed.path("escrow").path("payment")).put("amount", "11.01");
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.driver.get(base + "/console");
      b.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("party")));
      String script =
          "const done = arguments[arguments.length - 1];"
              + "import('./console/assets/api.js')"
              + ".then(m => m.agreementHash(JSON.parse(arguments[0])))"
              + ".then(h => done(h), e => done('error: ' + e));";
      JavascriptExecutor js = (JavascriptExecutor) b.driver;
      assertThat(js.executeAsyncScript(script, doc.toString()))
          .isEqualTo(envelope.path("agreement_hash").asText());
      assertThat((String) js.executeAsyncScript(script, changed.toString()))
          .startsWith("sha256:")
          .isNotEqualTo(envelope.path("agreement_hash").asText());
    }
  }

  /** "[true,...]" for n events, the one at {@code broken} (if any) the opposite. */
  private static String oks(int n, int broken, boolean ok) {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(String.valueOf(i == broken ? !ok : ok));
    }
    return "[" + String.join(",", out) + "]";
  }

  /** Without a typed identity the page lists the key's did:key, computed as DidKey computes it. */
  @Test
  void thePagesDidKeyIsTheServersAndIsTheDefaultIdentity() {
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.signIn("", "mallory");
      assertThat(b.text("who"))
          .startsWith(
              dev.asa.crypto.DidKey.of(Fixtures.key("mallory").publicKey())
                  + " · key "
                  + Fixtures.key("mallory").publicKey().toBase64Url());
    }
  }

  @Test
  void aFileThatIsNotAKeyIsRefusedInThePage() throws Exception {
    Path notAKey = keys.resolve("notes.json");
    Files.writeString(notAKey, "{\"kty\":\"RSA\"}");
    try (ConsoleBrowser b = new ConsoleBrowser(base, keys)) {
      b.driver.get(base + "/console");
      b.waiting()
          .until(ExpectedConditions.visibilityOfElementLocated(By.id("party")))
          .sendKeys("alice");
      b.driver.findElement(By.id("key-file")).sendKeys(notAKey.toString());
      var error =
          b.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
      assertThat(error.getText()).contains("not an Ed25519 private key");
      assertThat(b.driver.findElement(By.id("list")).isDisplayed()).isFalse();
      assertThat(Pattern.compile("shown").matcher(b.text("list-status")).find()).isFalse();
    }
  }
}
