package dev.asa.agreement;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code asa_version} of a document (SemVer). A patch changes no schema; a minor adds optional
 * fields (unknown fields are kept and ignored); a major is breaking and needs its own schema.
 */
public record AsaVersion(int major, int minor, int patch) implements Comparable<AsaVersion> {

  public static final AsaVersion V1_0_0 = new AsaVersion(1, 0, 0);

  private static final Pattern SEMVER =
      Pattern.compile("^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$");

  public static AsaVersion parse(String text) {
    Matcher m = SEMVER.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "asa_version '" + text + "' is not a SemVer version such as \"1.0.0\"");
    }
    return new AsaVersion(
        Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
  }

  @Override
  public int compareTo(AsaVersion o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) c = Integer.compare(minor, o.minor);
    if (c == 0) c = Integer.compare(patch, o.patch);
    return c;
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
