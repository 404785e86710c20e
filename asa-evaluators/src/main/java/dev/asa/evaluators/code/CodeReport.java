package dev.asa.evaluators.code;

import dev.asa.evaluators.Deadline;
import dev.asa.evaluators.Language;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every static check over a code tree: each source file parsed and checked, and duplication across
 * files. Files in no language the checks read (README, data) are listed, not judged.
 *
 * @param files one report per source file, in path order
 * @param duplication copy-paste across the source files
 * @param unread files no parser here reads
 */
public record CodeReport(
    CodeTree tree, List<SourceReport> files, Duplication duplication, List<String> unread) {

  public CodeReport {
    files = List.copyOf(files);
    unread = List.copyOf(unread);
  }

  /** Parses and checks every source file of the tree. */
  public static CodeReport of(CodeTree tree) {
    List<SourceReport> reports = new ArrayList<>();
    Map<String, String> sources = new LinkedHashMap<>();
    List<String> unread = new ArrayList<>();
    tree.files()
        .forEach((path, text) -> {
          Deadline.check();
          Language.ofPath(path)
              .ifPresentOrElse(
                  l -> {
                    reports.add(SourceAnalyzer.of(l).analyze(path, text));
                    sources.put(path, text);
                  },
                  () -> unread.add(path));
        });
    return new CodeReport(tree, reports, Duplication.of(sources), unread);
  }

  public int lines() {
    return files.stream().mapToInt(SourceReport::lines).sum();
  }

  public List<Finding> syntaxErrors() {
    return files.stream().flatMap(f -> f.syntaxErrors().stream()).toList();
  }

  public List<FunctionMetrics> functions() {
    return files.stream().flatMap(f -> f.functions().stream()).toList();
  }

  public List<Documentable> documentables() {
    return files.stream().flatMap(f -> f.documentables().stream()).toList();
  }

  /** Findings of one area, in file and line order. */
  public List<Finding> findings(Check.Area area) {
    List<Finding> out = new ArrayList<>();
    for (SourceReport f : files) {
      f.syntaxErrors().stream().filter(x -> x.check().area() == area).forEach(out::add);
      f.functions()
          .forEach(
              fn -> fn.findings().stream().filter(x -> x.check().area() == area).forEach(out::add));
      f.findings().stream().filter(x -> x.check().area() == area).forEach(out::add);
    }
    duplication.findings().stream().filter(x -> x.check().area() == area).forEach(out::add);
    return out;
  }

  public List<Finding> findings(Check check) {
    return findings(check.area()).stream().filter(f -> f.check() == check).toList();
  }

  public int namesChecked() {
    return files.stream().mapToInt(SourceReport::names).sum();
  }

  /** "JavaParser on 2 files (340 lines)": what measured, for every piece of evidence. */
  public String measuredBy() {
    Set<String> parsers = new LinkedHashSet<>();
    files.forEach(f -> parsers.add(SourceAnalyzer.parserName(f.language())));
    return String.join(" and ", parsers)
        + " on "
        + files.size()
        + (files.size() == 1 ? " file (" : " files (")
        + lines()
        + " lines"
        + (unread.isEmpty()
            ? ")"
            : "; not read: "
                + (unread.size() <= 3
                    ? String.join(", ", unread)
                    : String.join(", ", unread.subList(0, 3))
                        + " and "
                        + (unread.size() - 3)
                        + " more")
                + ")");
  }
}
