package dev.asa.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.TemplateView;
import java.util.List;
import java.util.Optional;
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
    if (type == null) {
      ObjectNode answer = session.client().templates();
      List<TemplateView> templates = Views.read("GET /templates", answer, TemplateView::listFrom);
      session.print(answer, json -> table(templates));
      return Exit.OK;
    }
    TemplateView template = session.client().agreements().template(type);
    session.print(template.json(), json -> table(List.of(template)) + details(template));
    return Exit.OK;
  }

  /** One line per dimension; the template's own columns only on its first line. */
  static String table(List<TemplateView> templates) {
    Table table = Table.withHeaders("TYPE", "TITLE", "DIMENSION", "WEIGHT", "SLO", "THRESHOLD");
    for (TemplateView t : templates) {
      String threshold = Formats.number(t.compositeThreshold());
      boolean first = true;
      for (TemplateView.Dimension d : t.dimensions()) {
        table.row(
            first ? t.type() : "",
            first ? t.title() : "",
            d.name(),
            Formats.number(d.weight()),
            slo(d.slo()),
            first ? threshold : "");
        first = false;
      }
      if (first) {
        table.row(t.type(), t.title(), "", "", "", threshold);
      }
    }
    return table.render();
  }

  private static String details(TemplateView t) {
    Table facts =
        Table.plain()
            .row("description", t.description())
            .row("deliverable", t.deliverableFormat().orElse("-"))
            .row(
                "composite",
                t.compositeMethod().orElse("weighted_average")
                    + ", pass at "
                    + Formats.number(t.compositeThreshold()));
    for (TemplateView.Gate g : t.gates()) {
      facts.row("gate", g.condition() + " (" + g.type() + ")");
    }
    for (TemplateView.Dimension dim : t.dimensions()) {
      dim.shadow()
          .ifPresent(shadow ->
              facts.row(
                  "shadow metric", dim.name() + ": " + shadow.name() + " " + slo(shadow.slo())));
    }
    t.verification()
        .ifPresent(v ->
            facts.row(
                "verification",
                v.strategy()
                    + ", challenge window "
                    + v.challengeWindowSeconds().orElse(0L)
                    + " s"));
    for (TemplateView.Tier tier : t.releaseTiers()) {
      String bound =
          tier.compositeScoreGte().isPresent()
              ? "composite >= " + Formats.number(tier.compositeScoreGte())
              : "composite < " + Formats.number(tier.compositeScoreLt());
      facts.row("release", bound + ": " + Formats.number(tier.releasePercent()) + "%");
    }
    return "\n" + facts.render();
  }

  private static String slo(Optional<TemplateView.Slo> slo) {
    return slo.map(s -> Formats.slo(s.operator(), s.target())).orElse("");
  }
}
