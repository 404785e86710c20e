package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The operator's routes with typed answers, acting with the key of the {@link AsaClient} it came
 * from ({@link AsaClient#admin()}), which must be the server's operator key. The configuration
 * ({@link AsaClient#adminConfig()}) has no typed view: it is shown as the server gives it.
 *
 * <pre>{@code
 * Admin admin = AsaClient.connect(server, operatorKey).admin();
 * ServerHealth health = admin.health();
 * System.out.println(health.byState().get("CLOSED").count() + " agreements closed");
 * }</pre>
 *
 * <p>Every method throws {@link AsaApiException} when the server refuses the request (403 for any
 * key but the operator's) or cannot be reached (status 0), and when its answer is not what the
 * route answers.
 */
public final class Admin {

  private final AsaClient asa;

  Admin(AsaClient asa) {
    this.asa = asa;
  }

  /**
   * The server's summary ({@code GET /admin/health}): agreements by state with their amounts, the
   * ledger's totals, verification jobs, the outbox, timers and requests.
   *
   * @return the summary
   * @throws AsaApiException 403 unless this client signs with the operator key
   */
  public ServerHealth health() {
    return AsaClient.typed("GET /admin/health", asa::adminHealth, ServerHealth::from);
  }

  /**
   * Replaces the server's canary set ({@code PUT /admin/canaries}) with {@code canaries}, a JSON
   * array of canaries as in a canary file.
   *
   * @param canaries a JSON array of canaries
   * @return the set now in force
   * @throws AsaApiException 422 naming each problem of the set, which is refused whole
   */
  public CanarySet loadCanaries(JsonNode canaries) {
    return AsaClient.typed(
        "PUT /admin/canaries", () -> asa.loadCanaries(canaries), CanarySet::from);
  }

  /**
   * Begins archiving the agreements that ended before {@code closedBefore} ({@code POST
   * /admin/archive}). The run goes on in the background: follow it with {@link #archive(String)}
   * until it is {@link ArchiveView#complete()}, then download the file with {@link
   * AsaClient#downloadArchive}.
   *
   * @param closedBefore a date ({@code 2026-01-01}, its first instant UTC) or an RFC 3339 time
   * @return the archive as begun
   * @throws AsaApiException 409 while another run is in progress, 422 for a bad or future cutoff
   */
  public ArchiveView startArchive(String closedBefore) {
    return AsaClient.typed(
        "POST /admin/archive", () -> asa.startArchive(closedBefore), ArchiveView::from);
  }

  /**
   * An archive run's progress ({@code GET /admin/archives/{name}}) and, once complete, its file's
   * digest.
   *
   * @param name the archive's name, as {@link #startArchive} answered it
   * @return the archive
   * @throws AsaApiException 404 for an unknown name
   */
  public ArchiveView archive(String name) {
    return AsaClient.typed(
        "GET /admin/archives/" + name, () -> asa.archive(name), ArchiveView::from);
  }
}
