package dev.asa.evaluators.code;

import dev.asa.evaluators.Deadline;
import dev.asa.evaluators.Language;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.treesitter.TSLanguage;
import org.treesitter.TSNode;
import org.treesitter.TSParser;
import org.treesitter.TSTree;
import org.treesitter.TreeSitterJavascript;
import org.treesitter.TreeSitterPython;
import org.treesitter.TreeSitterTypescript;

/**
 * Python, JavaScript and TypeScript through tree-sitter.
 *
 * <p>Why tree-sitter: one maintained family of grammars for all three (the ones GitHub and editors
 * use), current syntax (Python 3.12, ES2024, TypeScript 5), an error-tolerant parser that marks
 * exactly where a file stops parsing (ERROR and MISSING nodes with positions), and Maven Central
 * jars (io.github.bonede) that carry the native parsers for Linux, macOS and Windows, so nothing is
 * generated or downloaded at build or run time. ANTLR grammars for these languages need
 * hand-written lexer base classes, lag the languages, and their JavaScript and TypeScript parsers
 * are slow on predicates. tree-sitter is written for editors, so every input, however broken,
 * parses to a tree in linear time.
 */
final class TreeSitterAnalyzer implements SourceAnalyzer {

  private static final int MAX_SYNTAX_ERRORS = 5;

  private final Language language;
  private final boolean python;

  TreeSitterAnalyzer(Language language) {
    this.language = language;
    this.python = language == Language.PYTHON;
  }

  private TSLanguage grammar() {
    return switch (language) {
      case PYTHON -> new TreeSitterPython();
      case JAVASCRIPT -> new TreeSitterJavascript();
      case TYPESCRIPT -> new TreeSitterTypescript();
      case JAVA -> throw new IllegalArgumentException("Java is read by JavaParser");
    };
  }

  @Override
  public SourceReport analyze(String path, String source) {
    try (TSParser parser = new TSParser()) {
      parser.setLanguage(grammar());
      TSTree tree = parser.parseString(null, source);
      try {
        Walk w = new Walk(path, source.getBytes(StandardCharsets.UTF_8));
        TSNode root = tree.getRootNode();
        List<Finding> syntax = new ArrayList<>();
        try {
          if (root.hasError()) {
            w.syntaxErrors(root, syntax);
          }
          w.walk(root, null, 0, false);
        } catch (StackOverflowError e) {
          syntax.add(new Finding(Check.SYNTAX_ERROR, path, 1, "nested too deeply to analyse"));
        }
        return new SourceReport(
            path,
            language,
            (int) source.lines().count(),
            syntax,
            w.functions,
            w.documentables,
            w.names,
            w.findings);
      } finally {
        tree.close();
      }
    }
  }

  /** One function being measured while its body is walked. */
  private static final class Acc {
    final String name;
    int maxNesting;
    int complexity = 1;

    Acc(String name) {
      this.name = name;
    }
  }

  private final class Walk {
    final String path;
    final byte[] bytes;
    final List<FunctionMetrics> functions = new ArrayList<>();
    final List<Documentable> documentables = new ArrayList<>();
    final List<Finding> findings = new ArrayList<>();
    final Set<String> reported = new HashSet<>();

    /** Whether each enclosing class is public, innermost first. */
    final Deque<Boolean> classes = new ArrayDeque<>();

    int names;

    Walk(String path, byte[] bytes) {
      this.path = path;
      this.bytes = bytes;
    }

    String text(TSNode n) {
      return new String(
          bytes, n.getStartByte(), n.getEndByte() - n.getStartByte(), StandardCharsets.UTF_8);
    }

    int line(TSNode n) {
      return n.getStartPoint().getRow() + 1;
    }

    void report(Check check, TSNode at, String detail) {
      if (reported.add(check + ":" + line(at))) { // one finding of a kind a line
        findings.add(new Finding(check, path, line(at), detail));
      }
    }

    void syntaxErrors(TSNode node, List<Finding> out) {
      if (out.size() >= MAX_SYNTAX_ERRORS) {
        return;
      }
      if (node.isMissing()) {
        out.add(new Finding(Check.SYNTAX_ERROR, path, line(node), "missing " + node.getType()));
        return;
      }
      if (node.isError()) {
        out.add(
            new Finding(
                Check.SYNTAX_ERROR, path, line(node), "unexpected `" + snippet(text(node)) + "`"));
        return;
      }
      for (int i = 0; i < node.getChildCount(); i++) {
        TSNode c = node.getChild(i);
        if (c.hasError() || c.isMissing() || c.isError()) {
          syntaxErrors(c, out);
        }
      }
    }

    /**
     * @param inBuilt whether the parent is a built string ({@link #isBuilt}): a concatenation is
     *     read for SQL once, at its outermost node. Passed down rather than asked of {@code
     *     getParent()}, which tree-sitter answers by walking down from the root.
     */
    void walk(TSNode node, Acc fn, int depth, boolean inBuilt) {
      Deadline.check();
      String type = node.getType();
      if (isFunction(type)) {
        function(node, fn);
        return;
      }
      if (isClass(type)) {
        klass(node, fn);
        return;
      }
      if (fn != null && isBranch(node, type)) {
        fn.complexity++;
      }
      int d = depth;
      if (isNesting(node, type)) {
        d = depth + 1;
        if (fn != null) {
          fn.maxNesting = Math.max(fn.maxNesting, d);
        }
      }
      boolean built = isBuilt(node);
      visit(node, type);
      if (built && !inBuilt && Smells.looksLikeSql(text(node))) {
        report(Check.SQL_CONCATENATION, node, snippet(text(node)));
      }
      for (int i = 0; i < node.getNamedChildCount(); i++) {
        walk(node.getNamedChild(i), fn, d, built);
      }
    }

    void function(TSNode node, Acc outer) {
      String name = functionName(node);
      Acc acc = new Acc(name == null ? "anonymous function" : name);
      if (name != null) {
        names++;
        String problem = python ? Smells.pythonName(name, false) : Smells.camelName(name, false);
        if (problem != null && !name.equals("constructor")) {
          report(Check.NAMING, node, name + ": " + problem);
        }
      }
      if (outer == null && name != null) {
        documentable(node, name, classes.isEmpty() ? "function" : "method");
      }
      for (int i = 0; i < node.getNamedChildCount(); i++) {
        walk(node.getNamedChild(i), acc, 0, false);
      }
      functions.add(
          new FunctionMetrics(
              path,
              acc.name,
              line(node),
              node.getEndPoint().getRow() - node.getStartPoint().getRow() + 1,
              acc.maxNesting,
              acc.complexity));
    }

    void klass(TSNode node, Acc fn) {
      TSNode n = node.getChildByFieldName("name");
      String name = n.isNull() ? null : text(n);
      boolean pub = fn == null && name != null && !name.startsWith("_") && !classes.contains(false);
      if (name != null) {
        names++;
        String problem = python ? Smells.pythonName(name, true) : Smells.camelName(name, true);
        if (problem != null) {
          report(Check.NAMING, node, name + ": " + problem);
        }
        if (fn == null) {
          documentable(node, name, "class");
        }
      }
      classes.push(pub);
      try {
        for (int i = 0; i < node.getNamedChildCount(); i++) {
          walk(node.getNamedChild(i), fn, 0, false);
        }
      } finally {
        classes.pop();
      }
    }

    /** Counts a public top-level function, class or method of a public class. */
    void documentable(TSNode node, String name, String kind) {
      if (classes.contains(false) || name.startsWith("_") || name.startsWith("#")) {
        return;
      }
      if (!python) {
        if (name.equals("constructor") || hasPrivateModifier(node)) {
          return;
        }
        boolean topLevel = kind.equals("method") || isTopLevel(node);
        if (!topLevel) {
          return;
        }
      }
      documentables.add(new Documentable(path, line(node), kind, name, documented(node)));
    }

    boolean isTopLevel(TSNode node) {
      TSNode p = node.getParent();
      while (!p.isNull()
          && (p.getType().equals("export_statement")
              || p.getType().equals("variable_declarator")
              || p.getType().equals("lexical_declaration")
              || p.getType().equals("variable_declaration"))) {
        p = p.getParent();
      }
      return !p.isNull() && p.getType().equals("program");
    }

    boolean hasPrivateModifier(TSNode node) {
      for (int i = 0; i < node.getNamedChildCount(); i++) {
        TSNode c = node.getNamedChild(i);
        if (c.getType().equals("accessibility_modifier") && !text(c).equals("public")) {
          return true;
        }
      }
      return false;
    }

    boolean documented(TSNode node) {
      if (python) {
        TSNode body = node.getChildByFieldName("body");
        if (body.isNull() || body.getNamedChildCount() == 0) {
          return false;
        }
        TSNode first = body.getNamedChild(0);
        return first.getType().equals("expression_statement")
            && first.getNamedChildCount() > 0
            && first.getNamedChild(0).getType().equals("string");
      }
      // JSDoc: a /** */ comment right before the declaration (or its export or const).
      TSNode anchor = node;
      while (!anchor.getParent().isNull()
          && Set.of(
                  "export_statement",
                  "variable_declarator",
                  "lexical_declaration",
                  "variable_declaration")
              .contains(anchor.getParent().getType())) {
        anchor = anchor.getParent();
      }
      TSNode prev = anchor.getPrevNamedSibling();
      while (!prev.isNull() && prev.getType().equals("decorator")) {
        prev = prev.getPrevNamedSibling();
      }
      return !prev.isNull()
          && prev.getType().equals("comment")
          && text(prev).startsWith("/**")
          && prev.getEndPoint().getRow() >= anchor.getStartPoint().getRow() - 1;
    }

    String functionName(TSNode node) {
      TSNode n = node.getChildByFieldName("name");
      if (!n.isNull()) {
        return text(n);
      }
      TSNode p = node.getParent();
      if (!p.isNull() && p.getType().equals("variable_declarator")) {
        TSNode pn = p.getChildByFieldName("name");
        return pn.isNull() ? null : text(pn);
      }
      return null;
    }

    boolean isFunction(String type) {
      return python
          ? type.equals("function_definition")
          : switch (type) {
            case "function_declaration",
                "function_expression",
                "function",
                "generator_function_declaration",
                "generator_function",
                "arrow_function",
                "method_definition" ->
                true;
            default -> false;
          };
    }

    boolean isClass(String type) {
      return python
          ? type.equals("class_definition")
          : type.equals("class_declaration")
              || type.equals("abstract_class_declaration")
              || type.equals("class");
    }

    boolean isBranch(TSNode node, String type) {
      if (python) {
        return switch (type) {
          case "if_statement",
              "elif_clause",
              "for_statement",
              "while_statement",
              "except_clause",
              "conditional_expression",
              "boolean_operator",
              "for_in_clause",
              "if_clause",
              "case_clause" ->
              true;
          default -> false;
        };
      }
      return switch (type) {
        case "if_statement",
            "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "switch_case",
            "catch_clause",
            "ternary_expression" ->
            true;
        case "binary_expression" -> {
          String op = operator(node);
          yield op.equals("&&") || op.equals("||") || op.equals("??");
        }
        default -> false;
      };
    }

    boolean isNesting(TSNode node, String type) {
      if (python) {
        return switch (type) {
          case "if_statement",
              "for_statement",
              "while_statement",
              "try_statement",
              "with_statement",
              "match_statement" ->
              true;
          default -> false;
        };
      }
      return switch (type) {
        // "else if" continues a chain; it is not one level deeper.
        case "if_statement" -> !node.getParent().getType().equals("else_clause");
        case "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "switch_statement",
            "try_statement" ->
            true;
        default -> false;
      };
    }

    String operator(TSNode node) {
      TSNode op = node.getChildByFieldName("operator");
      return op.isNull() ? "" : text(op);
    }

    // ---------------------------------------------------------------- security smells

    void visit(TSNode node, String type) {
      switch (type) {
        case "call", "call_expression" -> call(node, false);
        case "new_expression" -> call(node, true);
        case "assignment", "assignment_expression", "augmented_assignment" ->
            binding(node, "left", "right");
        case "keyword_argument" -> binding(node, "name", "value");
        case "variable_declarator" -> binding(node, "name", "value");
        case "pair" -> binding(node, "key", "value");
        case "public_field_definition", "field_definition" ->
            binding(node, node.getChildByFieldName("name").isNull() ? "property" : "name", "value");
        case "string", "template_string" -> {
          if (!isDynamic(node) && Smells.credentialShaped(text(node))) {
            report(Check.HARDCODED_SECRET, node, "a literal shaped like a credential");
          }
        }
        default -> {}
      }
    }

    void call(TSNode node, boolean constructor) {
      TSNode f = node.getChildByFieldName(constructor ? "constructor" : "function");
      if (f.isNull()) {
        return;
      }
      String callee = text(f).replaceAll("\\s+", "");
      TSNode args = node.getChildByFieldName("arguments");
      TSNode first = firstArgument(args);
      String argsText = args.isNull() ? "" : text(args);
      String shown = callee + "(...)";
      if (python) {
        switch (callee) {
          case "eval", "exec", "builtins.eval", "builtins.exec" ->
              report(Check.DYNAMIC_EVAL, node, shown);
          case "pickle.loads",
              "pickle.load",
              "cPickle.loads",
              "cPickle.load",
              "marshal.loads",
              "marshal.load",
              "dill.loads",
              "dill.load",
              "shelve.open",
              "yaml.unsafe_load" ->
              report(Check.UNSAFE_DESERIALIZATION, node, shown);
          case "yaml.load" -> {
            if (!argsText.contains("SafeLoader") && !argsText.contains("BaseLoader")) {
              report(Check.UNSAFE_DESERIALIZATION, node, "yaml.load without SafeLoader");
            }
          }
          case "os.system",
              "os.popen",
              "subprocess.call",
              "subprocess.run",
              "subprocess.Popen",
              "subprocess.check_output",
              "subprocess.check_call",
              "subprocess.getoutput",
              "subprocess.getstatusoutput" -> {
            if (first != null && isDynamic(first) && isBuilt(first)) {
              report(Check.SHELL_CONCATENATION, node, shown + " given " + snippet(text(first)));
            }
          }
          case "ssl._create_unverified_context" -> report(Check.TLS_DISABLED, node, shown);
          default -> {}
        }
        return;
      }
      if (constructor) {
        if (callee.equals("Function") || callee.equals("vm.Script")) {
          report(Check.DYNAMIC_EVAL, node, "new " + shown);
        }
        return;
      }
      String last = callee.substring(callee.lastIndexOf('.') + 1);
      String object = callee.contains(".") ? callee.substring(0, callee.lastIndexOf('.')) : "";
      switch (last) {
        case "eval" -> {
          if (object.isEmpty() || object.equals("window") || object.equals("globalThis")) {
            report(Check.DYNAMIC_EVAL, node, shown);
          }
        }
        case "runInThisContext", "runInNewContext", "runInContext" -> {
          if (object.equals("vm")) {
            report(Check.DYNAMIC_EVAL, node, shown);
          }
        }
        case "setTimeout", "setInterval" -> {
          if (first != null && (first.getType().equals("string") || isBuilt(first))) {
            report(Check.DYNAMIC_EVAL, node, shown + " given code as a string");
          }
        }
        case "exec", "execSync", "spawn", "spawnSync" -> {
          boolean childProcess =
              object.isEmpty()
                  || object.contains("child_process")
                  || object.equals("childProcess")
                  || object.equals("cp");
          boolean shell = last.startsWith("exec") || argsText.contains("shell: true");
          if (childProcess && shell && first != null && isBuilt(first)) {
            report(Check.SHELL_CONCATENATION, node, shown + " given " + snippet(text(first)));
          }
        }
        default -> {}
      }
    }

    TSNode firstArgument(TSNode args) {
      if (args.isNull()) {
        return null;
      }
      for (int i = 0; i < args.getNamedChildCount(); i++) {
        TSNode a = args.getNamedChild(i);
        if (!a.getType().equals("comment") && !a.getType().equals("keyword_argument")) {
          return a;
        }
      }
      return null;
    }

    /** A name bound to a value: a hard-coded secret, or TLS checks switched off. */
    void binding(TSNode node, String nameField, String valueField) {
      TSNode n = node.getChildByFieldName(nameField);
      TSNode v = node.getChildByFieldName(valueField);
      if (n.isNull() || v.isNull()) {
        return;
      }
      String nameText = text(n).strip();
      String name = nameText.substring(nameText.lastIndexOf('.') + 1);
      String value = text(v).strip();
      boolean literal =
          (v.getType().equals("string") || v.getType().equals("template_string")) && !isDynamic(v);
      if (literal && Smells.secretName(name) && Smells.secretLiteral(Smells.unquote(value))) {
        report(Check.HARDCODED_SECRET, node, Smells.unquote(name) + " = a literal");
      }
      String bare = Smells.unquote(name);
      if (python) {
        if ((bare.equals("verify") && value.equals("False"))
            || (bare.equals("check_hostname") && value.equals("False"))
            || (bare.equals("verify_mode") && value.endsWith("CERT_NONE"))) {
          report(Check.TLS_DISABLED, node, bare + " = " + value);
        }
      } else if (((bare.equals("rejectUnauthorized") || bare.equals("strictSSL"))
              && value.equals("false"))
          || bare.equals("NODE_TLS_REJECT_UNAUTHORIZED")) {
        report(Check.TLS_DISABLED, node, bare + " = " + value);
      }
    }

    /**
     * A string put together at run time from literal text and something else: concatenation, %
     * formatting, f-strings, str.format, template literals.
     */
    boolean isBuilt(TSNode node) {
      if (node == null || node.isNull()) {
        return false;
      }
      return switch (node.getType()) {
        case "binary_operator" ->
            (operator(node).equals("+") || operator(node).equals("%"))
                && containsString(node)
                && isDynamic(node);
        case "binary_expression" ->
            operator(node).equals("+") && containsString(node) && isDynamic(node);
        case "string", "template_string" -> isDynamic(node);
        case "call" -> {
          TSNode f = node.getChildByFieldName("function");
          yield !f.isNull()
              && f.getType().equals("attribute")
              && text(f).endsWith(".format")
              && f.getNamedChild(0).getType().equals("string");
        }
        default -> false;
      };
    }

    /**
     * What {@link #containsString} and {@link #isDynamic} found for each operator node, by its
     * span: every node of a chain of concatenations asks them of the chain below it, and
     * unremembered, a chain of 300 terms took 17 s (the square of its length, each step a call into
     * the parser).
     */
    final Map<Span, Boolean> containsStrings = new HashMap<>();

    final Map<Span, Boolean> dynamics = new HashMap<>();

    boolean containsString(TSNode node) {
      String t = node.getType();
      if (t.equals("string") || t.equals("template_string") || t.equals("concatenated_string")) {
        return true;
      }
      if (!t.equals("binary_operator")
          && !t.equals("binary_expression")
          && !t.equals("parenthesized_expression")) {
        return false;
      }
      Span span = Span.of(node, t);
      Boolean known = containsStrings.get(span);
      if (known != null) {
        return known;
      }
      boolean found = false;
      for (int i = 0; i < node.getNamedChildCount() && !found; i++) {
        found = containsString(node.getNamedChild(i));
      }
      containsStrings.put(span, found);
      return found;
    }

    /** Whether a value depends on something other than literals. */
    boolean isDynamic(TSNode node) {
      return switch (node.getType()) {
        case "string", "template_string", "concatenated_string" -> {
          for (int i = 0; i < node.getNamedChildCount(); i++) {
            String c = node.getNamedChild(i).getType();
            if (c.equals("interpolation")
                || c.equals("template_substitution")
                || (c.equals("string") && isDynamic(node.getNamedChild(i)))) {
              yield true;
            }
          }
          yield false;
        }
        case "binary_operator", "binary_expression", "parenthesized_expression" -> {
          Span span = Span.of(node, node.getType());
          Boolean known = dynamics.get(span);
          if (known != null) {
            yield known;
          }
          boolean found = false;
          for (int i = 0; i < node.getNamedChildCount() && !found; i++) {
            found = isDynamic(node.getNamedChild(i));
          }
          dynamics.put(span, found);
          yield found;
        }
        case "integer", "float", "number", "true", "false", "none", "null", "comment" -> false;
        default -> true;
      };
    }
  }

  /** A node told apart from every other of its tree: no two nodes of one type share a span. */
  private record Span(int start, int end, String type) {
    static Span of(TSNode node, String type) {
      return new Span(node.getStartByte(), node.getEndByte(), type);
    }
  }

  static String snippet(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= 60 ? flat : flat.substring(0, 57) + "...";
  }
}
