"""Convert Markdown tables to CSV files."""

import csv
import sys


def parse_table(lines):
    """Return the rows of a Markdown pipe table as lists of cell strings."""
    rows = []
    for line in lines:
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        # Skip the separator row such as |---|:---:|
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows.append(cells)
    return rows


def write_csv(rows, out):
    writer = csv.writer(out)
    for row in rows:
        writer.writerow(row)


def main(path):
    with open(path, encoding="utf-8") as f:
        rows = parse_table(f.readlines())
    write_csv(rows, sys.stdout)


def test_parse_table_skips_separator():
    rows = parse_table(["| a | b |", "|---|---|", "| 1 | 2 |"])
    assert rows == [["a", "b"], ["1", "2"]]


if __name__ == "__main__":
    main(sys.argv[1])
