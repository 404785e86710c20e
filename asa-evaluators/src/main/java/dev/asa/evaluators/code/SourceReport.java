package dev.asa.evaluators.code;

import dev.asa.evaluators.Language;
import java.util.List;

/**
 * What the checks found in one source file.
 *
 * @param lines lines in the file
 * @param syntaxErrors where it does not parse (empty when it does)
 * @param functions every function and method, measured
 * @param documentables the public items documentation coverage counts
 * @param names how many function and class names were checked against the convention
 * @param findings naming and security findings (function thresholds come from {@code functions})
 */
public record SourceReport(
    String file,
    Language language,
    int lines,
    List<Finding> syntaxErrors,
    List<FunctionMetrics> functions,
    List<Documentable> documentables,
    int names,
    List<Finding> findings) {

  public SourceReport {
    syntaxErrors = List.copyOf(syntaxErrors);
    functions = List.copyOf(functions);
    documentables = List.copyOf(documentables);
    findings = List.copyOf(findings);
  }

  public boolean parses() {
    return syntaxErrors.isEmpty();
  }
}
