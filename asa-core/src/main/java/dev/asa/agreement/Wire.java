package dev.asa.agreement;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Reads lower-case snake_case wire names into enums, with an error listing what is accepted. */
final class Wire {
  private Wire() {}

  static <E extends Enum<E>> E parse(Class<E> type, String name, String what) {
    for (E e : type.getEnumConstants()) {
      if (e.name().toLowerCase(Locale.ROOT).equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "unknown "
            + what
            + " '"
            + name
            + "'; expected one of "
            + Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")));
  }
}
