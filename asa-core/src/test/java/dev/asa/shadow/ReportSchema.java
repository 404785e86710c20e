package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.List;

/** The spec-format report schema of {@link ShadowReportTest}, for the sealed-criteria tests. */
final class ReportSchema {
  private ReportSchema() {}

  private static final Schema SCHEMA = load();

  private static Schema load() {
    JsonNode raw = Json.parseTrusted(ShadowReportTest.resource("shadow-report.schema.json"));
    SchemaRegistry registry =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
    return registry.getSchema(SchemaLocation.of(raw.path("$id").asText()), raw);
  }

  static List<String> violations(JsonNode report) {
    List<String> out = new ArrayList<>();
    for (Error e : SCHEMA.validate(report)) {
      out.add(e.toString());
    }
    return out;
  }
}
