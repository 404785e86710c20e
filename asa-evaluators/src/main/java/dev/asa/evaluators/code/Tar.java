package dev.asa.evaluators.code;

import dev.asa.evaluators.code.CodeDeliverables.RefusedException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Reads a POSIX tar archive (ustar, pax, GNU long names) with Apache Commons Compress, keeping
 * regular files only. Links, devices, FIFOs and sparse files are refused rather than followed,
 * since a link is how an archive points outside itself; each path is checked as a zip's is ({@link
 * CodeDeliverables.Files}). The archive is already in memory and capped, so no entry can be larger
 * than what the caller was allowed to send.
 */
final class Tar {
  private Tar() {}

  private static final int BLOCK = 512;

  static boolean isTar(byte[] b) {
    return b.length >= BLOCK && new String(b, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
  }

  /**
   * Only the three type flags of a plain file. Not {@link TarArchiveEntry#isFile()}: it also says
   * yes to links, devices and any type it does not know whose name does not end in "/".
   */
  private static boolean isRegularFile(TarArchiveEntry entry) {
    byte type = entry.getLinkFlag();
    boolean plain =
        type == TarConstants.LF_NORMAL
            || type == TarConstants.LF_OLDNORM
            || type == TarConstants.LF_CONTIG;
    return plain && !entry.isSparse();
  }

  static Map<String, String> read(byte[] b) {
    if (!isTar(b)) {
      throw new RefusedException("the archive is neither zip nor tar (no ustar header)");
    }
    CodeDeliverables.Files files = new CodeDeliverables.Files();
    try (TarArchiveInputStream in =
        new TarArchiveInputStream(new ByteArrayInputStream(b), StandardCharsets.UTF_8.name())) {
      TarArchiveEntry entry;
      while ((entry = in.getNextEntry()) != null) {
        String name = entry.getName();
        if (entry.isDirectory()) {
          continue; // its files carry their own paths
        }
        if (!isRegularFile(entry)) {
          throw new RefusedException(
              "the tar entry '"
                  + name
                  + "' is a link or a device; the archive may hold regular files only");
        }
        byte[] data = in.readAllBytes();
        if (data.length != entry.getSize()) {
          throw new RefusedException("the tar archive is truncated or has a bad entry size");
        }
        files.add(name, CodeDeliverables.text(name, data));
      }
    } catch (IOException | IllegalArgumentException e) {
      // Commons Compress says what is wrong (a truncated archive, a header that is not one).
      throw new RefusedException("the tar archive could not be read: " + e.getMessage());
    }
    if (files.files.isEmpty()) {
      throw new RefusedException("the tar archive holds no file");
    }
    return files.files;
  }
}
