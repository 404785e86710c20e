package dev.asa.evaluators;

import dev.asa.scoring.CheckResult;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV as RFC 4180 describes it: comma-separated fields, records ended by CRLF or LF, fields that
 * contain a comma, quote or line break enclosed in double quotes with inner quotes doubled. Blank
 * lines are tolerated and skipped. A valid deliverable has a header and at least one data row, and
 * every row has as many fields as the header.
 */
final class Csv {
  private Csv() {}

  static CheckResult check(String content) {
    List<Row> rows;
    try {
      rows = parse(content);
    } catch (Malformed e) {
      return CheckResult.failed("not valid CSV: " + e.getMessage());
    }
    if (rows.isEmpty()) {
      return CheckResult.failed("not valid CSV: there is no header row");
    }
    int columns = rows.get(0).fields().size();
    if (rows.size() == 1) {
      return CheckResult.failed(
          "not valid CSV: a header of "
              + Text.plural(columns, "column", "columns")
              + " but no data rows");
    }
    for (Row row : rows) {
      if (row.fields().size() != columns) {
        return CheckResult.failed(
            "not valid CSV: the row on line "
                + row.line()
                + " has "
                + Text.plural(row.fields().size(), "field", "fields")
                + ", the header has "
                + columns);
      }
    }
    return CheckResult.passed(
        "valid CSV: a header of "
            + Text.plural(columns, "column", "columns")
            + " and "
            + Text.plural(rows.size() - 1, "data row", "data rows")
            + " of the same width");
  }

  /** One record and the line on which it starts. */
  record Row(int line, List<String> fields) {}

  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  static List<Row> parse(String text) throws Malformed {
    List<Row> rows = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int line = 1;
    int rowLine = 1;
    boolean rowHasContent = false; // distinguishes a blank line from a row of one empty field
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"' && field.isEmpty()) {
        // A quoted field: runs to the next lone quote; "" stands for one quote.
        int openedOn = line;
        i++;
        while (true) {
          if (i >= text.length()) {
            throw new Malformed("the quoted field opened on line " + openedOn + " is never closed");
          }
          char q = text.charAt(i);
          if (q == '"') {
            if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (q == '\n') {
            line++;
          }
          field.append(q);
          i++;
        }
        rowHasContent = true;
        if (i < text.length()
            && text.charAt(i) != ','
            && text.charAt(i) != '\r'
            && text.charAt(i) != '\n') {
          throw new Malformed(
              "line "
                  + line
                  + ": '"
                  + text.charAt(i)
                  + "' follows a closing quote; a quoted field must end at a comma or line end");
        }
        continue;
      }
      switch (c) {
        case ',' -> {
          fields.add(field.toString());
          field.setLength(0);
          rowHasContent = true;
          i++;
        }
        case '\r', '\n' -> {
          if (rowHasContent || !field.isEmpty()) {
            fields.add(field.toString());
            rows.add(new Row(rowLine, List.copyOf(fields)));
          }
          fields.clear();
          field.setLength(0);
          rowHasContent = false;
          i += (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') ? 2 : 1;
          line++;
          rowLine = line;
        }
        case '"' ->
            throw new Malformed(
                "line "
                    + line
                    + ": a quote inside an unquoted field; quote the whole field and double the inner quote");
        default -> {
          field.append(c);
          rowHasContent = true;
          i++;
        }
      }
    }
    if (rowHasContent || !field.isEmpty()) {
      fields.add(field.toString());
      rows.add(new Row(rowLine, List.copyOf(fields)));
    }
    return rows;
  }
}
