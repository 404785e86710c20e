package dev.asa.server.http;

import dev.asa.server.work.NotFoundException;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The browser console (issue 18): {@code GET /console}, one HTML page, and {@code GET
 * /console/assets/{file}}, its stylesheet and script modules, all from this server's own resources
 * (no CDN, no build step).
 *
 * <p>The console adds no access of its own. The page imports the caller's key file with WebCrypto,
 * keeps the key in memory, and signs every API request exactly as the SDK does (RFC 9421, see
 * {@code dev.asa.signedrequests.RequestSigner}); the server answers it as it answers the CLI. The
 * key never leaves the browser. The responses carry a strict Content-Security-Policy (no inline
 * script, no other host), so a script that found its way into an agreement's text could neither run
 * nor send the key anywhere.
 */
final class Console {
  private static final String DIRECTORY = "/dev/asa/server/console/";
  private static final String PAGE = "index.html";

  /** Every response of the console: only this server's own files, no inline script, no framing. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none';"
          + " frame-ancestors 'none'";

  /** The files the page loads, and their content types; nothing else is served. */
  private static final Map<String, String> ASSET_TYPES =
      Map.of(
          "console.css", "text/css; charset=utf-8",
          "console.js", "text/javascript; charset=utf-8",
          "api.js", "text/javascript; charset=utf-8",
          "dom.js", "text/javascript; charset=utf-8",
          "list.js", "text/javascript; charset=utf-8",
          "agreement.js", "text/javascript; charset=utf-8",
          "actions.js", "text/javascript; charset=utf-8",
          "evaluators.js", "text/javascript; charset=utf-8",
          "health.js", "text/javascript; charset=utf-8");

  private final byte[] page;
  private final Map<String, byte[]> assets = new LinkedHashMap<>();

  Console() {
    this.page = read(PAGE);
    ASSET_TYPES.keySet().stream().sorted().forEach(name -> assets.put(name, read(name)));
  }

  void servePage(Context ctx) {
    secure(ctx);
    ctx.header("Cache-Control", "no-store");
    ctx.contentType("text/html; charset=utf-8");
    ctx.result(page);
  }

  /** One of the console's files; 404 for any other name. */
  void serveAsset(Context ctx) {
    String file = ctx.pathParam("file");
    byte[] content = assets.get(file);
    if (content == null) {
      throw new NotFoundException(
          "no asset '" + file + "'; the console uses " + String.join(", ", assets.keySet()));
    }
    secure(ctx);
    ctx.header("Cache-Control", "no-cache");
    ctx.contentType(ASSET_TYPES.get(file));
    ctx.result(content);
  }

  private static void secure(Context ctx) {
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("X-Frame-Options", "DENY");
  }

  private static byte[] read(String name) {
    try (InputStream in = Console.class.getResourceAsStream(DIRECTORY + name)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource " + DIRECTORY + name + " is missing from the build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
