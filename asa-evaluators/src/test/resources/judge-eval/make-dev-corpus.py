#!/usr/bin/env python3
"""Builds dev-corpus.jsonl: the LLMBar pairs (Natural and the four Adversarial sets), then this
directory's own 38 pairs under the category "asa-own". See PROVENANCE.md.

    python3 make-dev-corpus.py /path/to/LLMBar > dev-corpus.jsonl

/path/to/LLMBar is a checkout of github.com/princeton-nlp/LLMBar at the commit PROVENANCE.md names.
"""
import json
import os
import sys

# (folder under Dataset/LLMBar, category); nothing else of the repository is read.
SETS = [
    ("Natural", "llmbar-natural"),
    ("Adversarial/Neighbor", "llmbar-neighbor"),
    ("Adversarial/GPTInst", "llmbar-gptinst"),
    ("Adversarial/GPTOut", "llmbar-gptout"),
    ("Adversarial/Manual", "llmbar-manual"),
]


def main(root):
    out = sys.stdout
    for folder, category in SETS:
        with open(os.path.join(root, "Dataset", "LLMBar", folder, "dataset.json"), encoding="utf-8") as f:
            records = json.load(f)
        for i, r in enumerate(records, start=1):
            if r["label"] not in (1, 2):
                raise SystemExit(f"{folder} record {i}: label {r['label']!r}")
            out.write(json.dumps({
                "id": f"{category}-{i:03d}",
                "request": r["input"],
                "answer_a": r["output_1"],
                "answer_b": r["output_2"],
                "human": "a" if r["label"] == 1 else "b",
                "category": category,
            }, ensure_ascii=False) + "\n")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "dev-pairs.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            r["category"] = "asa-own"
            out.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
