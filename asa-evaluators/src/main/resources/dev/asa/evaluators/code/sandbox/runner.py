# ASA test harness for Python, run inside the sandbox: python3 runner.py TESTS RESULTS [SOURCES...]
# Runs unittest.TestCase tests and pytest-style test_* functions / Test* classes without pytest,
# measures line coverage of SOURCES with a tracer, and writes one line per event to RESULTS.
#
# Tripwires (see Tripwire.java): the per-run key and control-test names are read from KEY and the
# file truncated before the test file or the deliverable is loaded; every line carries an
# HMAC-SHA256 over a sequence number and its content; two must-fail controls and a must-pass one
# run after the tests through the same path; an END line closes the run. The deliverable runs in
# this process and could still dig the key out of memory (gc, frames): that takes deliberate
# effort, and anything it forges short of that is caught on the Java side, which fails closed.
import hashlib
import hmac
import importlib.util
import inspect
import os
import sys
import threading
import time
import secrets
import traceback
import unittest

KEY = "__asa__/key"


def esc(text):
    return str(text).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "")


def Results(path, key):
    # A closure, not an object with attributes: the key is not one getattr away.
    out = open(path, "w", encoding="utf-8")
    state = {"seq": 0, "results": 0}
    new, sha256, join = hmac.new, hashlib.sha256, "\t".join

    def line(*fields):
        body = join([str(state["seq"])] + [esc(f) for f in fields])
        state["seq"] += 1
        if fields[0] in ("PASS", "FAIL", "ERROR"):
            state["results"] += 1
        # Flushed at once: a run killed midway keeps what it had.
        out.write(new(key, body.encode("utf-8"), sha256).hexdigest() + "\t" + body + "\n")
        out.flush()

    def end():
        line("END", state["results"])

    return line, end


def read_key():
    with open(KEY, encoding="utf-8") as f:
        seed = f.read().split("\n")
    with open(KEY, "w", encoding="utf-8"):
        pass  # erased before anything of the deliverable's is loaded
    return bytes.fromhex(seed[0]), seed[1:3], seed[3]


PRIMITIVES = sorted(a for a in vars(unittest.TestCase) if a.startswith("assert") or a in ("fail", "run"))


def primitives():
    return {a: vars(unittest.TestCase).get(a) for a in PRIMITIVES}


def executable_lines(path):
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    lines, stack = set(), [code]
    while stack:
        c = stack.pop()
        lines.update(l for _, _, l in c.co_lines() if l is not None and l > 0)
        stack.extend(k for k in c.co_consts if inspect.iscode(k))
    return lines


def main():
    tests_path, results_path, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    key, must_fail, must_pass = read_key()
    line, end = Results(results_path, key)
    del key
    try:
        return run(tests_path, line, sources, must_fail, must_pass)
    finally:
        end()


def run(tests_path, line, sources, must_fail, must_pass):
    originals = primitives()
    root = os.getcwd()
    sys.path.insert(0, root)
    test_dir = os.path.dirname(os.path.abspath(tests_path))
    if test_dir != root:
        sys.path.insert(0, test_dir)

    targets = {os.path.abspath(s) for s in sources}
    hits = set()

    def local(frame, event, arg):
        if event == "line":
            hits.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename in targets:
            hits.add((frame.f_code.co_filename, frame.f_lineno))
            return local
        return None

    if targets:
        sys.settrace(tracer)
        threading.settrace(tracer)

    name = os.path.splitext(os.path.basename(tests_path))[0]
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.abspath(tests_path))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    except BaseException:
        line("PROBLEM", "the test file did not load:\n" + traceback.format_exc(limit=8))
        return 3

    cases = []
    for test in iterate(unittest.defaultTestLoader.loadTestsFromModule(module)):
        cases.append((test.id().split(".", 1)[-1], test))
    for attr, value in list(vars(module).items()):
        if attr.startswith("test") and inspect.isfunction(value) and value.__module__ == name:
            if not required_parameters(value):
                cases.append((attr, value))
        elif (attr.startswith("Test") and inspect.isclass(value) and value.__module__ == name
              and not issubclass(value, unittest.TestCase)):
            for method in sorted(m for m in vars(value) if m.startswith("test")):
                if inspect.isfunction(getattr(value, method)):
                    cases.append((attr + "." + method, plain_method(value, method)))
    if not cases:
        line("PROBLEM", "no tests found in " + tests_path)
        return 4

    for case_name, case in cases:
        line("START", case_name)
        began = time.perf_counter()
        outcome, message = run_case(case)
        ms = int((time.perf_counter() - began) * 1000)
        line(outcome, case_name, ms, message)

    sys.settrace(None)
    threading.settrace(None)
    controls(line, must_fail, must_pass)
    changed = [a for a, f in primitives().items() if originals.get(a) is not f]
    if changed:
        line("TAMPER", "unittest.TestCase." + ", ".join(changed) + " replaced while the tests ran")
    if targets:
        total = covered = 0
        for path in targets:
            try:
                lines = executable_lines(path)
            except BaseException:
                continue
            total += len(lines)
            covered += sum(1 for l in lines if (path, l) in hits)
        if total:
            line("COVERAGE", "%.2f" % (100.0 * covered / total))
    return 0


def controls(line, must_fail, must_pass):
    # Through the same path as the tests (run_case, unittest), so what disarms theirs disarms these;
    # the values are drawn now, after the deliverable loaded.
    a, b = secrets.token_hex(16), secrets.token_hex(16)

    class Control(unittest.TestCase):
        def test_fail(self):
            self.assertEqual(a, b)

        def test_pass(self):
            self.assertEqual(a, a)
            self.assertTrue(a != b)

    def plain_fail():
        assert a == b, "control"

    for name, case in ((must_fail[0], Control("test_fail")), (must_fail[1], plain_fail),
                       (must_pass, Control("test_pass"))):
        line("START", name)
        began = time.perf_counter()
        outcome, message = run_case(case)
        line(outcome, name, int((time.perf_counter() - began) * 1000), message)


def iterate(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from iterate(item)
        else:
            yield item


def required_parameters(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in params)


def plain_method(cls, method):
    def call():
        instance = cls()
        if hasattr(instance, "setup_method"):
            instance.setup_method(getattr(instance, method))
        getattr(instance, method)()
    return call


class Outcome(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.verdict = ("PASS", "")

    def addFailure(self, test, err):
        self.verdict = ("FAIL", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self.verdict = ("ERROR", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self.verdict = ("PASS", "skipped: " + reason)


def run_case(case):
    if isinstance(case, unittest.TestCase):
        result = Outcome()
        try:
            case.run(result)
        except BaseException:
            return "ERROR", traceback.format_exc(limit=8)
        return result.verdict
    try:
        case()
        return "PASS", ""
    except AssertionError:
        return "FAIL", traceback.format_exc(limit=8)
    except BaseException:
        return "ERROR", traceback.format_exc(limit=8)


if __name__ == "__main__":
    sys.exit(main())
