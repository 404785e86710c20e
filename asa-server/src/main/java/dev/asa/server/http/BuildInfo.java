package dev.asa.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this build is, as Maven wrote it into {@code dev/asa/server/build.properties} when the jar
 * was built (the project version is never written by hand anywhere else).
 *
 * @param version the project version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param buildTime when the jar was built (UTC, ISO 8601), or null when unknown
 */
public record BuildInfo(String version, String buildTime) {
  private static final String RESOURCE = "/dev/asa/server/build.properties";

  /** The build this class was compiled in. */
  public static BuildInfo current() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing: the jar was not built by Maven");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return new BuildInfo(filled(p, "version"), filled(p, "build_time"));
  }

  /**
   * A property Maven filled in, or null when it is absent or still a {@code ${...}} placeholder.
   */
  private static String filled(Properties p, String name) {
    String value = p.getProperty(name, "").strip();
    return value.isEmpty() || value.startsWith("${") ? null : value;
  }
}
