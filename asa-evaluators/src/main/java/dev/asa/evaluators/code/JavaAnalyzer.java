package dev.asa.evaluators.code;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import dev.asa.evaluators.Deadline;
import dev.asa.evaluators.Language;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Java through JavaParser (com.github.javaparser): the reference Java parser on the JVM, current to
 * Java 21, with positions on every node and every problem.
 */
final class JavaAnalyzer implements SourceAnalyzer {

  private static final int MAX_SYNTAX_ERRORS = 5;

  /** Names whose mere use switches off TLS checks. */
  private static final Set<String> TRUST_ALL =
      Set.of(
          "NoopHostnameVerifier",
          "ALLOW_ALL_HOSTNAME_VERIFIER",
          "TrustAllStrategy",
          "InsecureTrustManagerFactory");

  @Override
  public SourceReport analyze(String path, String source) {
    int lines = (int) source.lines().count();
    ParseResult<CompilationUnit> result;
    try {
      result =
          new JavaParser(
                  new ParserConfiguration()
                      .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21))
              .parse(source);
    } catch (StackOverflowError e) {
      return new SourceReport(
          path,
          Language.JAVA,
          lines,
          List.of(new Finding(Check.SYNTAX_ERROR, path, 1, "nested too deeply to parse")),
          List.of(),
          List.of(),
          0,
          List.of());
    }
    List<Finding> syntax = new ArrayList<>();
    for (Problem p : result.getProblems()) {
      if (syntax.size() == MAX_SYNTAX_ERRORS) {
        break;
      }
      int line =
          p.getLocation().flatMap(r -> r.getBegin().getRange()).map(r -> r.begin.line).orElse(1);
      syntax.add(
          new Finding(
              Check.SYNTAX_ERROR,
              path,
              line,
              TreeSitterAnalyzer.snippet(firstLine(p.getMessage()))));
    }
    if (result.getResult().isEmpty()) {
      return new SourceReport(
          path, Language.JAVA, lines, syntax, List.of(), List.of(), 0, List.of());
    }
    Walk w = new Walk(path);
    try {
      w.run(result.getResult().get());
    } catch (StackOverflowError e) {
      syntax.add(new Finding(Check.SYNTAX_ERROR, path, 1, "nested too deeply to analyse"));
    }
    return new SourceReport(
        path, Language.JAVA, lines, syntax, w.functions, w.documentables, w.names, w.findings);
  }

  private static String firstLine(String message) {
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  private static int line(Node n) {
    return n.getBegin().map(p -> p.line).orElse(1);
  }

  private static final class Walk {
    final String path;
    final List<FunctionMetrics> functions = new ArrayList<>();
    final List<Documentable> documentables = new ArrayList<>();
    final List<Finding> findings = new ArrayList<>();
    final Set<String> reported = new HashSet<>();
    int names;

    Walk(String path) {
      this.path = path;
    }

    void report(Check check, Node at, String detail) {
      if (reported.add(check + ":" + line(at))) { // one finding of a kind a line
        findings.add(new Finding(check, path, line(at), detail));
      }
    }

    void run(CompilationUnit cu) {
      for (TypeDeclaration<?> t : cu.findAll(TypeDeclaration.class)) {
        names++;
        String problem = Smells.camelName(t.getNameAsString(), true);
        if (problem != null) {
          report(Check.NAMING, t, t.getNameAsString() + ": " + problem);
        }
        if (isPublicType(t)) {
          documentables.add(
              new Documentable(
                  path, line(t), "class", t.getNameAsString(), t.getJavadocComment().isPresent()));
        }
      }
      for (CallableDeclaration<?> c : cu.findAll(CallableDeclaration.class)) {
        callable(c);
      }
      for (MethodCallExpr call : cu.findAll(MethodCallExpr.class)) {
        call(call);
      }
      for (ObjectCreationExpr created : cu.findAll(ObjectCreationExpr.class)) {
        String type = created.getType().getNameAsString();
        if (type.equals("ProcessBuilder")
            && created.getArguments().stream().anyMatch(this::isBuilt)) {
          report(
              Check.SHELL_CONCATENATION, created, "new ProcessBuilder(...) given a built string");
        } else if (type.equals("ObjectInputStream") || type.equals("XMLDecoder")) {
          report(Check.UNSAFE_DESERIALIZATION, created, "new " + type + "(...)");
        } else if (TRUST_ALL.contains(type)) {
          report(Check.TLS_DISABLED, created, "new " + type + "()");
        }
      }
      for (NameExpr n : cu.findAll(NameExpr.class)) {
        if (TRUST_ALL.contains(n.getNameAsString())) {
          report(Check.TLS_DISABLED, n, n.getNameAsString());
        }
      }
      for (FieldAccessExpr f : cu.findAll(FieldAccessExpr.class)) {
        if (TRUST_ALL.contains(f.getNameAsString())) {
          report(Check.TLS_DISABLED, f, f.toString());
        }
      }
      for (VariableDeclarator v : cu.findAll(VariableDeclarator.class)) {
        v.getInitializer().ifPresent(init -> secret(v, v.getNameAsString(), init));
      }
      for (AssignExpr a : cu.findAll(AssignExpr.class)) {
        String target = a.getTarget().toString();
        secret(a, target.substring(target.lastIndexOf('.') + 1), a.getValue());
      }
      for (StringLiteralExpr s : cu.findAll(StringLiteralExpr.class)) {
        if (Smells.credentialShaped(s.getValue())) {
          report(Check.HARDCODED_SECRET, s, "a literal shaped like a credential");
        }
      }
      for (Expression e : cu.findAll(Expression.class)) {
        Deadline.check();
        if (isBuilt(e)
            && !(e.getParentNode().orElse(null) instanceof Expression p && isBuilt(p))
            && Smells.looksLikeSql(e.toString())) {
          report(Check.SQL_CONCATENATION, e, TreeSitterAnalyzer.snippet(e.toString()));
        }
      }
    }

    static boolean isPublicType(TypeDeclaration<?> t) {
      boolean inInterface =
          t.getParentNode().orElse(null) instanceof ClassOrInterfaceDeclaration c
              && c.isInterface();
      return t.isPublic() || inInterface;
    }

    void callable(CallableDeclaration<?> c) {
      String name = c.getNameAsString();
      if (c instanceof MethodDeclaration m) {
        names++;
        String problem = Smells.camelName(name, false);
        if (problem != null) {
          report(Check.NAMING, m, name + ": " + problem);
        }
        boolean inInterface =
            m.getParentNode().orElse(null) instanceof ClassOrInterfaceDeclaration t
                && t.isInterface();
        boolean owner =
            m.getParentNode().orElse(null) instanceof TypeDeclaration<?> t && isPublicType(t);
        if ((m.isPublic() || (inInterface && !m.isPrivate()))
            && owner
            && m.getAnnotationByName("Override").isEmpty()) {
          documentables.add(
              new Documentable(path, line(m), "method", name, m.getJavadocComment().isPresent()));
        }
        tlsOverride(m);
      } else if (!(c instanceof ConstructorDeclaration)) {
        return;
      }
      int lines =
          c.getEnd().map(p -> p.line).orElse(line(c)) - c.getBegin().map(p -> p.line).orElse(1) + 1;
      functions.add(new FunctionMetrics(path, name, line(c), lines, depth(c), complexity(c)));
    }

    /** A trust manager that trusts everything, or a hostname verifier that accepts any host. */
    void tlsOverride(MethodDeclaration m) {
      String name = m.getNameAsString();
      var body = m.getBody();
      if (body.isEmpty()) {
        return;
      }
      if ((name.equals("checkServerTrusted") || name.equals("checkClientTrusted"))
          && body.get().getStatements().isEmpty()) {
        report(Check.TLS_DISABLED, m, name + " accepts every certificate");
      }
      if (name.equals("verify")
          && m.getParameters().size() == 2
          && body.get().getStatements().size() == 1
          && body.get().getStatement(0).toString().replaceAll("\\s+", "").equals("returntrue;")) {
        report(Check.TLS_DISABLED, m, "a HostnameVerifier that accepts every host");
      }
    }

    void call(MethodCallExpr call) {
      String name = call.getNameAsString();
      String scope = call.getScope().map(Object::toString).orElse("");
      Expression first = call.getArguments().isEmpty() ? null : call.getArgument(0);
      switch (name) {
        case "exec" -> {
          if (scope.contains("Runtime") && first != null && isBuilt(first)) {
            report(Check.SHELL_CONCATENATION, call, scope + ".exec(...) given a built string");
          }
        }
        case "eval" -> {
          if (!scope.isEmpty() && first != null && !(first instanceof LiteralExpr)) {
            report(Check.DYNAMIC_EVAL, call, scope + ".eval(...)");
          }
        }
        case "setHostnameVerifier", "setDefaultHostnameVerifier" -> {
          if (first instanceof LambdaExpr l
              && l.getBody().toString().replaceAll("[\\s{};]|return", "").equals("true")) {
            report(Check.TLS_DISABLED, call, name + " with a verifier that accepts every host");
          }
        }
        default -> {}
      }
    }

    void secret(Node at, String name, Expression value) {
      String literal =
          value instanceof StringLiteralExpr s
              ? s.getValue()
              : value instanceof TextBlockLiteralExpr t ? t.getValue() : null;
      if (literal != null && Smells.secretName(name) && Smells.secretLiteral(literal)) {
        report(Check.HARDCODED_SECRET, at, name + " = a literal");
      }
    }

    /** A string put together at run time: concatenation with a non-literal, or formatting. */
    /**
     * What {@link #hasString} and {@link #hasDynamic} found for each operation, remembered: every
     * operation of a chain of concatenations asks them of the chain below it, which took time in
     * the square of the chain's length.
     */
    final Map<BinaryExpr, Boolean> strings = new IdentityHashMap<>();

    final Map<BinaryExpr, Boolean> dynamics = new IdentityHashMap<>();

    boolean isBuilt(Expression e) {
      if (e instanceof EnclosedExpr en) {
        return isBuilt(en.getInner());
      }
      if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
        return hasString(b) && hasDynamic(b);
      }
      if (e instanceof MethodCallExpr m) {
        String scope = m.getScope().map(Object::toString).orElse("");
        return (m.getNameAsString().equals("format")
                && scope.equals("String")
                && m.getArguments().size() > 1)
            || (m.getNameAsString().equals("formatted")
                && m.getScope().orElse(null) instanceof StringLiteralExpr
                && !m.getArguments().isEmpty());
      }
      return false;
    }

    boolean hasString(Expression e) {
      if (e instanceof StringLiteralExpr || e instanceof TextBlockLiteralExpr) {
        return true;
      }
      if (e instanceof EnclosedExpr en) {
        return hasString(en.getInner());
      }
      if (!(e instanceof BinaryExpr b)) {
        return false;
      }
      Boolean known = strings.get(b);
      if (known == null) {
        known = hasString(b.getLeft()) || hasString(b.getRight());
        strings.put(b, known);
      }
      return known;
    }

    boolean hasDynamic(Expression e) {
      if (e instanceof LiteralExpr) {
        return false;
      }
      if (e instanceof EnclosedExpr en) {
        return hasDynamic(en.getInner());
      }
      if (e instanceof BinaryExpr b) {
        Boolean known = dynamics.get(b);
        if (known == null) {
          known = hasDynamic(b.getLeft()) || hasDynamic(b.getRight());
          dynamics.put(b, known);
        }
        return known;
      }
      return true;
    }

    /** The deepest nesting of blocks; an {@code else if} continues a chain, it is not deeper. */
    @SuppressWarnings("ReferenceEquality") // the else branch must be this very node
    static int depth(Node n) {
      int max = 0;
      for (Node c : n.getChildNodes()) {
        max = Math.max(max, depth(c));
      }
      boolean elseIf =
          n instanceof IfStmt
              && n.getParentNode().orElse(null) instanceof IfStmt p
              && p.getElseStmt().orElse(null) == n;
      boolean nests =
          (n instanceof IfStmt && !elseIf)
              || n instanceof ForStmt
              || n instanceof ForEachStmt
              || n instanceof WhileStmt
              || n instanceof DoStmt
              || n instanceof SwitchStmt
              || n instanceof TryStmt
              || n instanceof SynchronizedStmt;
      return nests ? max + 1 : max;
    }

    static int complexity(Node n) {
      int c = 1;
      c += n.findAll(IfStmt.class).size();
      c += n.findAll(ForStmt.class).size();
      c += n.findAll(ForEachStmt.class).size();
      c += n.findAll(WhileStmt.class).size();
      c += n.findAll(DoStmt.class).size();
      c += n.findAll(CatchClause.class).size();
      c += n.findAll(ConditionalExpr.class).size();
      c +=
          (int) n.findAll(SwitchEntry.class).stream().filter(s -> !s.getLabels().isEmpty()).count();
      c +=
          (int)
              n.findAll(BinaryExpr.class).stream()
                  .filter(b ->
                      b.getOperator() == BinaryExpr.Operator.AND
                          || b.getOperator() == BinaryExpr.Operator.OR)
                  .count();
      return c;
    }
  }
}
