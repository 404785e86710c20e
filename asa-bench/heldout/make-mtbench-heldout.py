#!/usr/bin/env python3
"""Builds issue 15's held-out set: MT-Bench's human pairwise judgments of first-turn answers, one
record per pair with a human majority, in `asa judge-eval`'s pairwise format. See PROVENANCE.md
beside this file for where each input comes from; none of them is in this repository, so that the
set stays held out (nothing is tuned on it) and the licences stay with their sources.

    python3 make-mtbench-heldout.py INPUTS > mtbench-heldout.jsonl
    python3 make-mtbench-heldout.py --all-pairs INPUTS > mtbench-all-pairs.jsonl

INPUTS is a folder holding human.jsonl, gpt4_pair.jsonl, question.jsonl and model_answer/<model>.jsonl
for the six judged models. Every file is checked against the SHA-256 PROVENANCE.md gives, so a
figure measured on the output describes the set the issue names and no look-alike.

The default construction is the issue's: votes grouped by the ordered (question, model_a, model_b)
of the human rows, only those orderings GPT-4's pairwise judgments also have, tie votes counting for
neither answer, and a pair kept when one answer has more votes. It gives 477 pairs, on which the
longer answer wins 320 (68.1% of the 470 whose lengths differ; 67.1% with equal lengths counted as
misses, as `asa judge-eval --baseline length` counts them). --all-pairs groups by unordered pair
instead, every ordering kept: 709 pairs.
"""
import collections
import hashlib
import json
import os
import sys

MODELS = ("alpaca-13b", "claude-v1", "gpt-3.5-turbo", "gpt-4", "llama-13b", "vicuna-13b-v1.2")

SHA256 = {
    "human.jsonl": "7ae1ff9ad4a01c30936342dd5494493da9a7fe6538265df1f4c04d44e76fa5f3",
    "gpt4_pair.jsonl": "ef1d3c8d0eb9824cd9ecdd50a4d5690f0c05382148a24801128cb5facb121238",
    "question.jsonl": "119565adbab82227089cefdb44c8d7e2cf04dc0a0ec233634c82e7d4e2a944f7",
    "model_answer/alpaca-13b.jsonl": "80f4a8bf4665839d33fa0ea7f4b58824abf88d5a0edc9e7cc68a362fca88ef98",
    "model_answer/claude-v1.jsonl": "884c109de34721859bf7ffa0f7e525dfbc9fb0d99c1ee7c5488bfb2eb8f8c62c",
    "model_answer/gpt-3.5-turbo.jsonl": "c3c097c21f91e4b44a554d82e5d47516daf7e8240e13b2eca79d211afc1fdfd6",
    "model_answer/gpt-4.jsonl": "f65cdce00aa8567e9add118cabd34c2866291ed8f5c1d568f8da9a81d231d3e7",
    "model_answer/llama-13b.jsonl": "b96b9f1e0a7e4e669fecfecda1c33908fdc4c095e38346e84352ea254c0b2cbc",
    "model_answer/vicuna-13b-v1.2.jsonl": "bc9c414cc4e80274aa511ad6e622fdef70209b056f5ed9c1a78dd22549fef010",
}


def fail(message, status=5):
    """Stops with asa's exit statuses: 5 for an input file that is missing or not the one named."""
    print(f"make-mtbench-heldout: {message}", file=sys.stderr)
    sys.exit(status)


def read_checked(inputs, name):
    """The file's JSON lines, once its SHA-256 is the one PROVENANCE.md names."""
    path = os.path.join(inputs, name)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror}; see PROVENANCE.md for where it comes from")
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256[name]:
        fail(f"{path}: SHA-256 {digest}, expected {SHA256[name]}: another version of the file "
             "(PROVENANCE.md warns of regenerated answer files)")
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]


def build(inputs, all_pairs):
    questions = {q["question_id"]: q for q in read_checked(inputs, "question.jsonl")}
    answers = {}
    for model in MODELS:
        for r in read_checked(inputs, f"model_answer/{model}.jsonl"):
            answers[(model, r["question_id"])] = r["choices"][0]["turns"][0]
    judged_by_gpt4 = {(r["question_id"], r["model_a"], r["model_b"])
                      for r in read_checked(inputs, "gpt4_pair.jsonl") if r["turn"] == 1}
    votes = collections.defaultdict(collections.Counter)
    for r in read_checked(inputs, "human.jsonl"):
        if r["turn"] != 1 or r["winner"] == "tie":
            continue  # a tie vote counts for neither answer
        q, a, b = r["question_id"], r["model_a"], r["model_b"]
        if all_pairs:
            a, b = sorted((a, b))
        elif (q, a, b) not in judged_by_gpt4:
            continue
        winner = r["model_a"] if r["winner"] == "model_a" else r["model_b"]
        votes[(q, a, b)]["a" if winner == a else "b"] += 1
    for (q, a, b), count in sorted(votes.items()):
        if count["a"] == count["b"]:
            continue  # no majority: an even split
        yield {
            "id": f"mtbench-{q}-{a}-{b}",
            "request": questions[q]["turns"][0],
            "answer_a": answers[(a, q)],
            "answer_b": answers[(b, q)],
            "human": "a" if count["a"] > count["b"] else "b",
            "category": questions[q]["category"],
        }


def main(argv):
    all_pairs = "--all-pairs" in argv
    rest = [a for a in argv if a != "--all-pairs"]
    if len(rest) != 1:
        fail("usage: make-mtbench-heldout.py [--all-pairs] INPUTS" + __doc__, status=2)
    n = 0
    for record in build(rest[0], all_pairs):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        n += 1
    print(f"{n} pairs", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
