package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code asa templates [TYPE]}: the starting points for new agreements and their quality terms. */
@Command(
    name = "templates",
    header = "Lists the agreement templates and their quality terms.",
    customSynopsis = "asa templates [TYPE]",
    description =
        "Each dimension with its weight and SLO, and the composite threshold; with TYPE, that template in detail.")
final class TemplatesCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(paramLabel = "TYPE", arity = "0..1", description = "a template type, e.g. general")
  String type;

  @Override
  public Integer call() throws Exception {
    Session session = server.session();
    ObjectNode answer =
        type == null ? session.client().templates() : session.client().template(type);
    if (session.json()) {
      session.printJson(answer);
      return Exit.OK;
    }
    List<JsonNode> templates = type == null ? list(answer.path("templates")) : List.of(answer);
    session.out().print(table(templates));
    if (type != null) {
      session.out().print(details(answer));
    }
    return Exit.OK;
  }

  /** One line per dimension; the template's own columns only on its first line. */
  static String table(List<JsonNode> templates) {
    Table table = Table.withHeaders("TYPE", "TITLE", "DIMENSION", "WEIGHT", "SLO", "THRESHOLD");
    for (JsonNode t : templates) {
      JsonNode criteria = t.path("defaults").path("quality_criteria");
      boolean first = true;
      for (JsonNode d : criteria.path("dimensions")) {
        table.row(
            first ? t.path("type").asText() : "",
            first ? t.path("title").asText() : "",
            d.path("name").asText(),
            Formats.number(d.path("weight")),
            Formats.slo(d.path("slo")),
            first ? Formats.number(criteria.path("composite_threshold")) : "");
        first = false;
      }
      if (first) {
        table.row(
            t.path("type").asText(),
            t.path("title").asText(),
            "",
            "",
            "",
            Formats.number(criteria.path("composite_threshold")));
      }
    }
    return table.render();
  }

  private static String details(JsonNode t) {
    JsonNode d = t.path("defaults");
    Table facts =
        Table.plain()
            .row("description", t.path("description").asText())
            .row("deliverable", d.path("service").path("deliverable_format").asText("-"))
            .row(
                "composite",
                d.path("quality_criteria").path("composite_method").asText("weighted_average")
                    + ", pass at "
                    + Formats.number(d.path("quality_criteria").path("composite_threshold")));
    for (JsonNode g : d.path("quality_criteria").path("quality_gates")) {
      facts.row("gate", g.path("condition").asText() + " (" + g.path("type").asText() + ")");
    }
    for (JsonNode dim : d.path("quality_criteria").path("dimensions")) {
      if (dim.has("shadow_metric")) {
        facts.row(
            "shadow metric",
            dim.path("name").asText()
                + ": "
                + dim.path("shadow_metric").asText()
                + " "
                + Formats.slo(dim.path("shadow_slo")));
      }
    }
    JsonNode v = d.path("verification");
    if (!v.isMissingNode()) {
      facts.row(
          "verification",
          v.path("strategy").asText()
              + ", challenge window "
              + v.path("challenge_window_seconds").asText("0")
              + " s");
    }
    for (JsonNode tier : d.path("escrow").path("payment").path("graduated_release").path("tiers")) {
      String bound =
          tier.has("composite_score_gte")
              ? "composite >= " + Formats.number(tier.get("composite_score_gte"))
              : "composite < " + Formats.number(tier.path("composite_score_lt"));
      facts.row("release", bound + ": " + Formats.number(tier.path("release_percent")) + "%");
    }
    return "\n" + facts.render();
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }
}
