#!/usr/bin/env python3
"""Builds dev-corpus.jsonl: the LLMBar pairs (Natural and the four Adversarial sets), then the
PandaLM test-set pairs with a human majority, then this directory's own 38 pairs under the category
"asa-own". See PROVENANCE.md.

    python3 make-dev-corpus.py /path/to/LLMBar /path/to/PandaLM > dev-corpus.jsonl

Each path is a checkout of github.com/princeton-nlp/LLMBar or github.com/WeOpenML/PandaLM at the
commit PROVENANCE.md names.
"""
import collections
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


def pandalm(root, out):
    """The test set's pairs on which at least two of the three annotators chose the same answer."""
    with open(os.path.join(root, "data", "testset-v1.json"), encoding="utf-8") as f:
        records = json.load(f)  # Python's json reads the file's NaN (an absent input) as a float
    for r in records:
        texts = (r["instruction"], r["response1"], r["response2"])
        if not all(isinstance(t, str) for t in texts):
            continue  # six records have a number or a boolean where an answer should be
        vote, count = collections.Counter(
            (r["annotator1"], r["annotator2"], r["annotator3"])).most_common(1)[0]
        if count < 2 or vote not in (1, 2):
            continue  # no majority, or a majority for "tie"
        request = r["instruction"]
        if isinstance(r["input"], str) and r["input"].strip():
            request += "\n\n" + r["input"]
        out.write(json.dumps({
            "id": f"pandalm-{r['idx']:03d}",
            "request": request,
            "answer_a": r["response1"],
            "answer_b": r["response2"],
            "human": "a" if vote == 1 else "b",
            "category": "pandalm",
        }, ensure_ascii=False) + "\n")


def main(llmbar, panda):
    out = sys.stdout
    root = llmbar
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
    pandalm(panda, out)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "dev-pairs.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            r["category"] = "asa-own"
            out.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
