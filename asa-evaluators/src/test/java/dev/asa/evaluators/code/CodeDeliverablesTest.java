package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Language;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;

class CodeDeliverablesTest {

  private static CodeDeliverables.Read read(String content, String format, String type) {
    return CodeDeliverables.read(Deliverable.of(content, format, Instant.EPOCH), type);
  }

  private static CodeTree tree(CodeDeliverables.Read r) {
    assertThat(r).isInstanceOf(CodeDeliverables.Read.Tree.class);
    return ((CodeDeliverables.Read.Tree) r).tree();
  }

  private static String refusal(CodeDeliverables.Read r) {
    assertThat(r).isInstanceOf(CodeDeliverables.Read.Refused.class);
    return ((CodeDeliverables.Read.Refused) r).reason();
  }

  /** 200,000 blank lines before the class: its name is found in linear time (it was minutes). */
  @Test
  void aJavaFileOfManyBlankLinesIsNamedInLinearTime() {
    long started = System.nanoTime();
    CodeTree java = tree(read("\n".repeat(200_000) + "  public class Deep {}\n", "java", "code"));
    assertThat(java.files()).containsOnlyKeys("Deep.java");
    // Seconds against minutes: generous enough that a loaded machine cannot fail it.
    assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(20_000);
  }

  @Test
  void aSingleFileTakesItsLanguageFromTheFormatOrTheType() {
    CodeTree py = tree(read("print('hi')\n", "python", "code"));
    assertThat(py.language()).isEqualTo(Language.PYTHON);
    assertThat(py.files()).containsOnlyKeys("main.py");
    CodeTree java = tree(read("public final class Greeter {}\n", "code", "code/java"));
    assertThat(java.files()).containsOnlyKeys("Greeter.java");
    assertThat(tree(read("let x = 1;", null, "code/js")).language()).isEqualTo(Language.JAVASCRIPT);
    assertThat(refusal(read("x = 1", "code", "code"))).contains("does not declare its language");
    assertThat(refusal(read("x = 1", null, "code/cobol"))).contains("'cobol'");
  }

  @Test
  void aManifestIsATreeAndItsFilesSayTheLanguage() {
    CodeTree t =
        tree(
            read(
                "{\"files\": {\"src/app.py\": \"x = 1\\n\", \"README.md\": \"# hi\", \"tests/test_app.py\": \"\"}}",
                "code",
                "code"));
    assertThat(t.language()).isEqualTo(Language.PYTHON);
    assertThat(t.files()).containsOnlyKeys("README.md", "src/app.py", "tests/test_app.py");
    assertThat(t.sources(Language.PYTHON)).hasSize(2);
  }

  @Test
  void everyBadPathIsRefusedWithTheReason() {
    assertThat(refusal(read("{\"files\": {\"/etc/passwd\": \"x\"}}", "python", null)))
        .contains("'/etc/passwd' is absolute");
    assertThat(refusal(read("{\"files\": {\"a/../../x.py\": \"x\"}}", "python", null)))
        .contains("climbs out");
    assertThat(refusal(read("{\"files\": {\"A.py\": \"x\", \"a.py\": \"y\"}}", "python", null)))
        .contains("differ only in case");
    assertThat(refusal(read("{\"files\": {\"a\": \"x\", \"a/b.py\": \"y\"}}", "python", null)))
        .contains("both a file and a directory");
    assertThat(refusal(read("{\"files\": {\"a\\\\b.py\": \"x\"}}", "python", null)))
        .contains("backslash");
    assertThat(refusal(read("{\"files\": {\"x.py\": 3}}", "python", null)))
        .contains("not a string");
    assertThat(refusal(read("{\"files\": {}, \"extra\": 1}", "python", null))).contains("'extra'");
  }

  @Test
  void theFileCountAndSizeAreCapped() {
    StringBuilder many = new StringBuilder("{\"files\": {");
    for (int i = 0; i <= CodeDeliverables.MAX_FILES; i++) {
      many.append(i == 0 ? "" : ",").append("\"f").append(i).append(".py\": \"x\"");
    }
    many.append("}}");
    assertThat(refusal(read(many.toString(), "python", null))).contains("more than 200 files");
    String big = "x".repeat((int) CodeDeliverables.MAX_TOTAL_BYTES + 1);
    assertThat(refusal(read(big, "python", null))).contains("larger than the limit");
  }

  @Test
  void aZipInBase64IsUnpackedAndABombIsStopped() throws IOException {
    String zip = zip(Map.of("pkg/mod.py", "def f():\n    return 1\n", "pkg/__init__.py", ""));
    CodeTree t = tree(read(zip, "python", null));
    assertThat(t.files()).containsOnlyKeys("pkg/__init__.py", "pkg/mod.py");
    String bomb = zip(Map.of("big.py", "#".repeat((int) CodeDeliverables.MAX_TOTAL_BYTES * 4)));
    assertThat(bomb.length()).isLessThan(100_000);
    assertThat(refusal(read(bomb, "python", null))).contains("unpacks to more than");
    assertThat(refusal(read(zip(Map.of("../evil.py", "x")), "python", null)))
        .contains("climbs out");
  }

  @Test
  void aTarInBase64IsUnpackedAndLinksAreRefused() {
    byte[] tar = tar("src/Main.java", '0', "class Main {}\n");
    CodeTree t = tree(read(Base64.getEncoder().encodeToString(tar), "java", null));
    assertThat(t.files()).containsOnlyKeys("src/Main.java");
    // Hard link, symbolic link, character and block device, FIFO, a GNU volume header.
    for (char type : new char[] {'1', '2', '3', '4', '6', 'V'}) {
      byte[] other = tar("escape.py", type, "");
      assertThat(refusal(read(Base64.getEncoder().encodeToString(other), "python", null)))
          .as("type %s", type)
          .contains("link or a device");
    }
  }

  /** Long paths as tar writers record them: a pax {@code path} record, or a GNU long name. */
  @Test
  void longPathsInPaxAndGnuFormAreRead() throws IOException {
    String deep = "src/" + "nested/".repeat(20) + "Main.java"; // longer than ustar's 100 bytes
    for (int mode :
        new int[] {TarArchiveOutputStream.LONGFILE_POSIX, TarArchiveOutputStream.LONGFILE_GNU}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
        tar.setLongFileMode(mode);
        byte[] data = "class Main {}\n".getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(deep);
        entry.setSize(data.length);
        tar.putArchiveEntry(entry);
        tar.write(data);
        tar.closeArchiveEntry();
      }
      CodeTree t = tree(read(Base64.getEncoder().encodeToString(out.toByteArray()), "java", null));
      assertThat(t.files()).as("long file mode %d", mode).containsOnlyKeys(deep);
    }
  }

  @Test
  void aTruncatedOrClimbingTarIsRefused() {
    byte[] whole = tar("big.py", '0', "#".repeat(2_000));
    byte[] truncated = java.util.Arrays.copyOf(whole, 512 + 600);
    assertThat(refusal(read(Base64.getEncoder().encodeToString(truncated), "python", null)))
        .contains("tar archive");
    byte[] climbing = tar("../evil.py", '0', "x = 1\n");
    assertThat(refusal(read(Base64.getEncoder().encodeToString(climbing), "python", null)))
        .contains("climbs out");
  }

  private static String zip(Map<String, String> files) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(out)) {
      for (var f : files.entrySet()) {
        z.putNextEntry(new ZipEntry(f.getKey()));
        z.write(f.getValue().getBytes(StandardCharsets.UTF_8));
        z.closeEntry();
      }
    }
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }

  /** One ustar entry and the two zero blocks that end an archive. */
  private static byte[] tar(String name, char type, String content) {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    int padded = (data.length + 511) / 512 * 512;
    byte[] out = new byte[512 + padded + 1024];
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(n, 0, out, 0, n.length);
    byte[] size = String.format("%011o", data.length).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(size, 0, out, 124, size.length);
    out[156] = (byte) type;
    System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, out, 257, 5);
    // The header's checksum: the sum of its bytes with the checksum field read as spaces.
    java.util.Arrays.fill(out, 148, 156, (byte) ' ');
    int sum = 0;
    for (int i = 0; i < 512; i++) {
      sum += out[i] & 0xff;
    }
    byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(checksum, 0, out, 148, checksum.length);
    System.arraycopy(data, 0, out, 512, data.length);
    return out;
  }
}
