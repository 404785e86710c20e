package dev.asa.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementSchemas;
import dev.asa.json.Json;
import dev.asa.server.store.db.Readiness;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an operator's tooling asks a running server: which build it is ({@code GET /version}) and
 * whether it can serve ({@code GET /ready}, for a load balancer or an orchestrator; {@code GET
 * /health} stays the liveness answer that needs nothing but the process).
 */
public final class Operations {
  private final BuildInfo build;
  private final Supplier<Readiness> readiness;

  public Operations(BuildInfo build, Supplier<Readiness> readiness) {
    this.build = build;
    this.readiness = readiness;
  }

  ObjectNode version() {
    ObjectNode o = Json.object();
    o.put("version", build.version());
    if (build.buildTime() != null) {
      o.put("build_time", build.buildTime());
    }
    o.put("java", Runtime.version().toString());
    var versions = o.putArray("protocol_versions");
    AgreementSchemas.versions().forEach(versions::add);
    return o;
  }

  /**
   * The readiness answer when every check passes.
   *
   * @throws RequestException 503 naming the failing checks otherwise
   */
  ObjectNode ready() {
    Readiness r = readiness.get();
    ObjectNode checks = Json.object();
    checks.put("database", r.database().ok() ? "ok" : "failed");
    checks.put("migrations", r.migrations().ok() ? "ok" : "failed");
    if (!r.ready()) {
      List<String> failed = new ArrayList<>();
      if (!r.database().ok()) {
        failed.add("database: " + r.database().detail());
      }
      if (!r.migrations().ok()) {
        failed.add("migrations: " + r.migrations().detail());
      }
      ObjectNode extensions = Json.object();
      extensions.set("checks", checks);
      throw new RequestException(
          new Problem(
              "not-ready",
              "Not ready to serve",
              503,
              String.join("; ", failed),
              List.of(),
              extensions));
    }
    return Json.object().put("status", "ready").set("checks", checks);
  }
}
