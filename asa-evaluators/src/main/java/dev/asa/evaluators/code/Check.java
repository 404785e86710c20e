package dev.asa.evaluators.code;

/** The static checks, each feeding one dimension, with what a finding of it says. */
public enum Check {
  SYNTAX_ERROR(Area.CORRECTNESS, "does not parse"),
  LONG_FUNCTION(Area.MAINTAINABILITY, "long function"),
  DEEP_NESTING(Area.MAINTAINABILITY, "deep nesting"),
  COMPLEX_FUNCTION(Area.MAINTAINABILITY, "high cyclomatic complexity"),
  DUPLICATION(Area.MAINTAINABILITY, "duplicated block"),
  NAMING(Area.MAINTAINABILITY, "name against the language's convention"),
  UNDOCUMENTED(Area.DOCUMENTATION, "public item without a doc comment"),
  DYNAMIC_EVAL(Area.SECURITY, "dynamic code evaluation"),
  UNSAFE_DESERIALIZATION(Area.SECURITY, "unsafe deserialisation"),
  SHELL_CONCATENATION(Area.SECURITY, "shell command built from strings"),
  SQL_CONCATENATION(Area.SECURITY, "SQL built by concatenation"),
  HARDCODED_SECRET(Area.SECURITY, "hard-coded secret"),
  TLS_DISABLED(Area.SECURITY, "TLS verification disabled");

  /** The dimension family a check informs. */
  public enum Area {
    CORRECTNESS,
    MAINTAINABILITY,
    DOCUMENTATION,
    SECURITY
  }

  private final Area area;
  private final String label;

  Check(Area area, String label) {
    this.area = area;
    this.label = label;
  }

  public Area area() {
    return area;
  }

  public String label() {
    return label;
  }
}
