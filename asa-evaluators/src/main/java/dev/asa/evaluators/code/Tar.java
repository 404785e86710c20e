package dev.asa.evaluators.code;

import dev.asa.evaluators.code.CodeDeliverables.RefusedException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * A minimal reader of POSIX tar (ustar, with pax and GNU long names): regular files only. Links and
 * devices are refused rather than followed, since a link is how an archive points outside itself.
 */
final class Tar {
  private Tar() {}

  private static final int BLOCK = 512;

  static boolean isTar(byte[] b) {
    return b.length >= BLOCK && new String(b, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
  }

  static Map<String, String> read(byte[] b) {
    if (!isTar(b)) {
      throw new RefusedException("the archive is neither zip nor tar (no ustar header)");
    }
    CodeDeliverables.Files files = new CodeDeliverables.Files();
    String longName = null;
    int at = 0;
    while (at + BLOCK <= b.length) {
      byte[] header = Arrays.copyOfRange(b, at, at + BLOCK);
      if (allZero(header)) {
        break;
      }
      long size = octal(header, 124, 12);
      char type = (char) header[156];
      int dataAt = at + BLOCK;
      if (size < 0 || dataAt + size > b.length) {
        throw new RefusedException("the tar archive is truncated or has a bad entry size");
      }
      String name = longName != null ? longName : name(header);
      longName = null;
      byte[] data = Arrays.copyOfRange(b, dataAt, (int) (dataAt + size));
      switch (type) {
        case '0', '\0', '7' -> files.add(name, CodeDeliverables.text(name, data));
        case '5' -> {} // a directory: its files carry their own paths
        case 'g' -> {} // global pax attributes: nothing a path depends on
        case 'x' -> longName = paxPath(data);
        case 'L' -> longName = cString(data, 0, data.length);
        default ->
            throw new RefusedException(
                "the tar entry '"
                    + name
                    + "' is a link or a device; the archive may hold regular files only");
      }
      at = dataAt + (int) ((size + BLOCK - 1) / BLOCK * BLOCK);
    }
    if (files.files.isEmpty()) {
      throw new RefusedException("the tar archive holds no file");
    }
    return files.files;
  }

  private static String name(byte[] h) {
    String name = cString(h, 0, 100);
    String prefix = cString(h, 345, 155);
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** The {@code path} record of a pax header ("27 path=dir/file.py\n"), or null. */
  private static String paxPath(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    for (String record : text.lines().toList()) {
      int space = record.indexOf(' ');
      String kv = space < 0 ? record : record.substring(space + 1);
      if (kv.startsWith("path=")) {
        return kv.substring("path=".length());
      }
    }
    return null;
  }

  private static String cString(byte[] b, int from, int length) {
    int end = from;
    while (end < from + length && b[end] != 0) {
      end++;
    }
    return new String(b, from, end - from, StandardCharsets.UTF_8);
  }

  /** An octal field; -1 when it is not one (base-256 sizes are past any cap anyway). */
  private static long octal(byte[] b, int from, int length) {
    long v = 0;
    boolean digits = false;
    for (int i = from; i < from + length; i++) {
      int c = b[i];
      if (c == 0 || c == ' ') {
        if (digits) {
          break;
        }
        continue;
      }
      if (c < '0' || c > '7') {
        return -1;
      }
      digits = true;
      v = v * 8 + (c - '0');
      if (v > Integer.MAX_VALUE) {
        return -1;
      }
    }
    return v;
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }
}
