package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxWorkFilesTest {

  private static String refusal(Map<String, String> files, Limits limits) {
    return assertThrows(RejectedFilesException.class, () -> WorkFiles.of(files, limits))
        .getMessage();
  }

  @Test
  void pathsThatLeaveTheDirectoryAreRefusedSayingWhy() {
    Limits l = Limits.defaults();
    assertTrue(refusal(Map.of("/etc/passwd", ""), l).startsWith("absolute file path"));
    assertTrue(refusal(Map.of("C:/x", ""), l).startsWith("absolute file path"));
    assertTrue(refusal(Map.of("a/../../x", ""), l).contains("(..)"));
    assertTrue(refusal(Map.of("a//b", ""), l).contains("empty"));
    assertTrue(refusal(Map.of("a/\u0000", ""), l).contains("unusual"));
    assertTrue(refusal(Map.of("a", "", "a/b", ""), l).contains("runs through the file a"));
  }

  @Test
  void tooManyFilesOrBytesAreRefused() {
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      many.put("f" + i + ".py", "");
    }
    assertTrue(refusal(many, Limits.defaults().withInputCaps(10, 1000)).startsWith("too many"));
    assertTrue(
        refusal(Map.of("a.py", "x".repeat(1001)), Limits.defaults().withInputCaps(10, 1000))
            .startsWith("files too large"));
  }

  @Test
  void ordinaryTreesAreAccepted() {
    WorkFiles w =
        WorkFiles.of(
            Map.of("src/main.py", "x", "README.md", "y", "pkg/sub/mod-1.js", "z"),
            Limits.defaults());
    assertEquals(
        List.of("README.md", "pkg/sub/mod-1.js", "src/main.py"), List.copyOf(w.files().keySet()));
  }
}
