package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.json.Json;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class CanarySetTest {

  @Test
  void jsonLinesAndAJsonArrayReadTheSame() {
    ObjectNode a = Canaries.canary("good-1", 90, 85);
    ObjectNode b = Canaries.canary("bad-1", 25, 30);
    b.remove("service_type");
    CanarySet lines = CanarySet.parse("\n" + Canaries.jsonl(a, b) + "\n\n");
    CanarySet array = CanarySet.parse("  [" + Json.write(a) + "," + Json.write(b) + "]");
    assertThat(lines.canaries()).hasSize(2);
    assertThat(array.canaries()).isEqualTo(lines.canaries());
    Canary good = lines.byId("good-1").orElseThrow();
    assertThat(good.serviceTypeName()).contains("research");
    assertThat(good.knownScores()).containsOnlyKeys("accuracy", "writing");
    assertThat(good.tolerance()).isEqualByComparingTo("10");
    assertThat(good.request().path("description").asText()).startsWith("Summarise");
    assertThat(lines.byId("bad-1").orElseThrow().serviceTypeName()).isEmpty();
  }

  @Test
  void aCanaryWithoutServiceTypePosesAsAny() {
    ObjectNode any = Canaries.canary("any", 50, 50);
    any.remove("service_type");
    CanarySet set = CanarySet.parse(Canaries.jsonl(Canaries.canary("r", 90, 90), any));
    assertThat(set.forServiceType("research")).extracting(Canary::id).containsExactly("r", "any");
    assertThat(set.forServiceType("translation")).extracting(Canary::id).containsExactly("any");
  }

  @Test
  void aLoadedCanaryCannotBeChangedThroughItsJson() {
    Canary c = Canaries.set(1).canaries().getFirst();
    c.request().put("description", "changed");
    c.criteria().removeAll();
    assertThat(c.request().path("description").asText()).startsWith("Summarise");
    assertThat(c.criteria().path("dimensions")).hasSize(3);
    assertThat(CanarySet.parse(Canaries.jsonl(c.toJson())).canaries()).containsExactly(c);
  }

  @Test
  void problemsNameTheCanaryTheFieldAndTheLine() {
    ObjectNode good = Canaries.canary("good", 90, 85);
    ObjectNode bad = Canaries.canary("bad", 25, 30);
    ((ObjectNode) bad.get("known_scores")).put("charm", 50);
    bad.put("tolerance", -1);
    String text = Canaries.jsonl(good) + "\n" + Canaries.jsonl(bad);
    assertThatThrownBy(() -> CanarySet.parse(text))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e -> {
          var vs = ((InvalidDocumentException) e).violations();
          assertThat(vs)
              .extracting(Violation::pointer)
              .containsExactlyInAnyOrder("/1/known_scores/charm", "/1/tolerance");
          assertThat(vs).allSatisfy(v -> assertThat(v.message()).endsWith("(line 3)"));
          assertThat(vs.getFirst().message()).contains("accuracy, writing, on_time");
        });
  }

  @Test
  void inAJsonArrayFileProblemsNameTheLineWhereTheirCanaryStarts() {
    ObjectNode good = Canaries.canary("good", 90, 85);
    ObjectNode bad = Canaries.canary("bad", 25, 30);
    bad.put("tolerance", -1);
    String text = "\n[\n  " + Json.write(good) + ",\n\n  " + Json.writePretty(bad) + "\n]\n";
    assertThatThrownBy(() -> CanarySet.parse(text))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e -> {
          var vs = ((InvalidDocumentException) e).violations();
          assertThat(vs).extracting(Violation::pointer).containsExactly("/1/tolerance");
          assertThat(vs.getFirst().message()).endsWith("(line 5)");
        });
    assertRefused("[\n{\"id\": 1,\n", "", "(line 3, column");
  }

  @Test
  void aSetSentAsJsonIsReadAsTheArrayFormWithoutLines() throws Exception {
    ObjectNode good = Canaries.canary("good", 90, 85);
    ObjectNode bad = Canaries.canary("bad", 25, 30);
    bad.put("tolerance", -1);
    assertThat(CanarySet.fromJson(Json.mapper().createArrayNode().add(good)).canaries())
        .extracting(Canary::id)
        .containsExactly("good");
    assertThatThrownBy(() -> CanarySet.fromJson(Json.mapper().createArrayNode().add(good).add(bad)))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e -> {
          var vs = ((InvalidDocumentException) e).violations();
          assertThat(vs).extracting(Violation::pointer).containsExactly("/1/tolerance");
          assertThat(vs.getFirst().message()).doesNotContain("line");
        });
    assertThatThrownBy(() -> CanarySet.fromJson(good))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("must be a JSON array of canaries, found an object");
    assertThatThrownBy(() -> CanarySet.fromJson(Json.mapper().createArrayNode()))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("holds no canary");
  }

  @Test
  void aLineThatIsNotJsonIsNamed() {
    String text = Canaries.jsonl(Canaries.canary("good", 90, 85)) + "{not json\n";
    assertRefused(text, "/1", "is not valid JSON");
  }

  @Test
  void theCriteriaAreCheckedByTheAgreementRulesUnderTheCanarysPointer() {
    assertRefused(
        c -> ((ObjectNode) c.at("/criteria/dimensions/0")).put("weight", 0.9),
        "/0/criteria/dimensions",
        "weights sum to");
    assertRefused(c -> c.remove("criteria"), "/0/criteria", "quality_criteria form");
  }

  @Test
  void knownScoresAreScoresOfTheCriteriasDimensions() {
    assertRefused(
        c -> ((ObjectNode) c.get("known_scores")).put("accuracy", 101),
        "/0/known_scores/accuracy",
        "from 0 to 100");
    assertRefused(
        c -> ((ObjectNode) c.get("known_scores")).put("accuracy", "high"),
        "/0/known_scores/accuracy",
        "a string");
    assertRefused(
        c -> ((ObjectNode) c.get("known_scores")).put("on_time", 50),
        "/0/known_scores/on_time",
        "0 (false) or 100 (true)");
    assertRefused(c -> c.putObject("known_scores"), "/0/known_scores", "at least one");
    assertRefused(c -> c.remove("known_scores"), "/0/known_scores", "is missing");
  }

  @Test
  void everyMemberIsChecked() {
    assertRefused(c -> c.remove("id"), "/0/id", "is missing");
    assertRefused(c -> c.put("id", "has space"), "/0/id", "letters, digits");
    assertRefused(c -> c.put("service_type", "Research"), "/0/service_type", "snake_case");
    assertRefused(c -> c.remove("request"), "/0/request", "is missing");
    assertRefused(
        c -> ((ObjectNode) c.get("request")).put("description", ""),
        "/0/request/description",
        "empty");
    assertRefused(
        c -> ((ObjectNode) c.get("request")).put("constraints", 3),
        "/0/request/constraints",
        "must be an object");
    assertRefused(c -> c.put("deliverable", "text"), "/0/deliverable", "must be an object");
    assertRefused(
        c -> ((ObjectNode) c.get("deliverable")).remove("content"),
        "/0/deliverable/content",
        "is missing");
    assertRefused(
        c -> ((ObjectNode) c.get("deliverable")).put("type", "poetry"),
        "/0/deliverable/type",
        "not a deliverable type");
    assertRefused(
        c -> ((ObjectNode) c.get("deliverable")).put("content_url", "https://x"),
        "/0/deliverable/content_url",
        "unknown member");
    assertRefused(c -> c.remove("tolerance"), "/0/tolerance", "is missing");
    assertRefused(c -> c.put("tolerance", 101), "/0/tolerance", "from 0 to 100");
    assertRefused(c -> c.put("answer", 1), "/0/answer", "unknown member");
  }

  @Test
  void idsAreUnique() {
    String text = Canaries.jsonl(Canaries.canary("same", 90, 85), Canaries.canary("same", 20, 20));
    assertRefused(text, "/1/id", "already the id of canary 0");
  }

  @Test
  void anEmptyFileOrAnEmptyArrayIsRefused() {
    assertRefused("\n\n", "", "holds no canary");
    assertRefused("[]", "", "holds no canary");
    assertRefused("[1]", "/0", "must be an object");
  }

  @Test
  void aHugeFileIsRefusedBeforeItIsRead() {
    String text = "{}\n".repeat(CanarySet.MAX_CANARIES + 1);
    assertRefused(text, "", "at most 10000");
  }

  private static void assertRefused(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode c = Canaries.canary("c", 90, 85);
    edit.accept(c);
    assertRefused(Canaries.jsonl(c), pointer, fragment);
  }

  private static void assertRefused(String text, String pointer, String fragment) {
    assertThatThrownBy(() -> CanarySet.parse(text))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .as(e.getMessage())
                .anySatisfy(v -> {
                  assertThat(v.pointer()).isEqualTo(pointer);
                  assertThat(v.message()).contains(fragment);
                }));
  }
}
