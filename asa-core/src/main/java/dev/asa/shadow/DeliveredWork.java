package dev.asa.shadow;

import java.util.Objects;

/**
 * The deliverable a seal is checked against.
 *
 * @param content the deliverable as text
 * @param format the declared format (markdown, text, json, ...), or null when undeclared. The
 *     deterministic checks do not depend on it: {@code json_schema} and {@code json_path_equals}
 *     parse the content as JSON whatever is declared (and fail when it is not), the others read the
 *     text. It is passed on to the judge, and named in evidence when JSON was declared but not
 *     given
 */
public record DeliveredWork(String content, String format) {
  public DeliveredWork {
    Objects.requireNonNull(content, "content");
  }

  public static DeliveredWork of(String content, String format) {
    return new DeliveredWork(content, format);
  }
}
