package dev.asa.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code asa --version}: the version Maven built, read from the resource it filled in. */
final class Version implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {"asa " + version() + " (Java " + Runtime.version() + ")"};
  }

  static String version() {
    try (InputStream in = Version.class.getResourceAsStream("/asa-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
