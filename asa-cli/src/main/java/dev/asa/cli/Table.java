package dev.asa.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table: columns as wide as their widest cell, two spaces apart, the last column
 * unpadded so that long text (evidence, descriptions) does not drag trailing blanks along.
 */
final class Table {

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  private Table(List<String> headers) {
    this.headers = headers;
  }

  static Table withHeaders(String... headers) {
    return new Table(List.of(headers));
  }

  /** A table without a header row: label and value pairs and the like. */
  static Table plain() {
    return new Table(List.of());
  }

  Table row(Object... cells) {
    rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c.toString()).toList());
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  String render() {
    List<List<String>> all = new ArrayList<>();
    if (!headers.isEmpty()) {
      all.add(headers);
    }
    all.addAll(rows);
    int columns = all.stream().mapToInt(List::size).max().orElse(0);
    int[] widths = new int[columns];
    for (List<String> row : all) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    StringBuilder s = new StringBuilder();
    for (List<String> row : all) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        line.append(row.get(c));
        if (c < row.size() - 1) {
          line.append(" ".repeat(widths[c] - row.get(c).length() + 2));
        }
      }
      s.append(line.toString().stripTrailing()).append('\n');
    }
    return s.toString();
  }
}
