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
#
# Plain comparisons: an assertion must not be decided by the deliverable's own objects. A returned
# list subclass whose __eq__ is always true would pass every assertEqual, and `[1] == forged` asks
# the forged object too (Python tries a subclass's reflected method first). So every comparison the
# test file makes (its ==, !=, <, in... rewritten in its syntax tree before it runs) and every
# comparing assert method of unittest.TestCase compares plain data: plain() copies builtins and
# their subclasses into exact builtins through the builtin types' own methods, recursively, so
# only CPython's comparison of exact builtins decides. An object of a class the deliverable defines
# stays itself (behind Foreign): equal to another of its kind by its own __eq__ (when the test asks
# whether two of the deliverable's objects are equal, only their class can say), never equal to
# plain data. The comparison runs in this process, but on copies the deliverable's code never sees.
#
# Skips: a skip is not a pass. A test the client declared skipped (@unittest.skip..., or
# @expectedFailure, which says the test is not meant to pass yet) is reported as SKIP and not
# counted. A unittest.SkipTest raised while a test runs counts as a failure, unless the test file's
# own code raised it (self.skipTest in the client's test): otherwise a deliverable that raises
# SkipTest would "pass" every test it cannot do.
import ast
import hashlib
import hmac
import importlib.util
import inspect
import operator
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
        if fields[0] in ("PASS", "FAIL", "ERROR", "SKIP"):
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


class Foreign:
    """A value of a class the deliverable defines, inside a comparison: see plain()."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is Foreign and bool(self.value == other.value)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.value)

    def __contains__(self, item):
        # Membership by what the container yields, compared plainly: its __contains__ would be
        # handed the value sought and could answer yes to anything.
        return any(x == item for x in self)

    def __iter__(self):
        return (plain(x) for x in iter(self.value))

    def __len__(self):
        return len(self.value)

    def __repr__(self):
        return repr(self.value)

    def _order(self, other, op):
        if type(other) is not Foreign:
            return NotImplemented
        return bool(op(self.value, other.value))

    def __lt__(self, other):
        return self._order(other, operator.lt)

    def __le__(self, other):
        return self._order(other, operator.le)

    def __gt__(self, other):
        return self._order(other, operator.gt)

    def __ge__(self, other):
        return self._order(other, operator.ge)


TRUSTED = {"root": None, "tests": None, "tests_path": None}
_trust = {}


def trusted(t):
    """Whether every class of t's MRO is Python's own or the test file's, not the deliverable's."""
    known = _trust.get(id(t))
    if known is not None and known[0] is t:
        return known[1]
    verdict = all(_trusted_class(k) for k in type.__dict__["__mro__"].__get__(t))
    _trust[id(t)] = (t, verdict)
    return verdict


def _trusted_class(k):
    module_name = type.__dict__["__module__"].__get__(k)
    if module_name == "builtins":
        return True
    module = sys.modules.get(module_name)
    if module is None:
        return False
    if module is TRUSTED["tests"]:
        return True
    if module_name.split(".")[0] not in sys.stdlib_module_names:
        return False
    where = getattr(module, "__file__", None)
    if where and os.path.abspath(where).startswith(TRUSTED["root"] + os.sep):
        return False  # a deliverable's file named like a standard module
    found = module
    for part in type.__dict__["__qualname__"].__get__(k).split("."):
        found = getattr(found, part, None)
    return found is k


def plain(value, depth=0):
    """value as plain data: exact builtins copied by the builtin types' own methods."""
    t = type(value)
    if value is None or t is bool or t is int or t is float or t is str or t is bytes:
        return value
    if depth > 200:
        raise ValueError("a value nested more than 200 deep cannot be compared")
    d = depth + 1
    if issubclass(t, bool):
        return bool(int.__int__(value))
    if issubclass(t, int):
        return int.__int__(value)
    if issubclass(t, float):
        return float.__float__(value)
    if issubclass(t, complex):
        return complex(complex.real.__get__(value), complex.imag.__get__(value))
    if issubclass(t, str):
        return str.__str__(value)
    if issubclass(t, bytes):
        return bytes.__getitem__(value, slice(None))
    if issubclass(t, bytearray):
        return bytearray.__getitem__(value, slice(None))
    if issubclass(t, list):
        return [plain(x, d) for x in list.__iter__(value)]
    if issubclass(t, tuple):
        return tuple(plain(x, d) for x in tuple.__iter__(value))
    if issubclass(t, dict):
        return {plain(k, d): plain(v, d) for k, v in dict.items(value)}
    if issubclass(t, frozenset):
        return frozenset(plain(x, d) for x in frozenset.__iter__(value))
    if issubclass(t, set):
        return {plain(x, d) for x in set.__iter__(value)}
    if trusted(t):
        return value
    return Foreign(value)


COMPARE = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
    "is": operator.is_, "is not": operator.is_not,
}
OP_NAMES = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}


def compare(op, a, b):
    if op in ("is", "is not"):
        return COMPARE[op](a, b)  # identity: nothing to forge
    return COMPARE[op](plain(a), plain(b))


def compare_chain(left, *rest):
    # a < b < c: each comparator evaluated once, and only while the chain holds.
    for op, right in rest:
        value = right()
        if not compare(op, left, value):
            return False
        left = value
    return True


class PlainComparisons(ast.NodeTransformer):
    """Rewrites the test file's comparisons into calls of compare() (see the top of the file)."""

    def visit_Compare(self, node):
        self.generic_visit(node)
        ops = [OP_NAMES[type(o)] for o in node.ops]
        if len(ops) == 1:
            if ops[0] in ("is", "is not"):
                return node
            call = ast.Call(ast.Name("__asa_compare__", ast.Load()),
                            [ast.Constant(ops[0]), node.left, node.comparators[0]], [])
        else:
            pairs = [ast.Tuple([ast.Constant(o), ast.Lambda(no_arguments(), c)], ast.Load())
                     for o, c in zip(ops, node.comparators)]
            call = ast.Call(ast.Name("__asa_compare_chain__", ast.Load()), [node.left] + pairs, [])
        return ast.copy_location(call, node)


def no_arguments():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                         kwarg=None, defaults=[])


def load_tests(path, name):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    tree = ast.fix_missing_locations(PlainComparisons().visit(ast.parse(source, path)))
    code = compile(tree, path, "exec")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__asa_compare__ = compare
    module.__asa_compare_chain__ = compare_chain
    sys.modules[name] = module
    TRUSTED["tests"] = module
    exec(code, module.__dict__)
    return module


COMPARING = ("assertEqual", "assertNotEqual", "assertListEqual", "assertTupleEqual",
             "assertSequenceEqual", "assertDictEqual", "assertSetEqual", "assertCountEqual",
             "assertMultiLineEqual", "assertAlmostEqual", "assertNotAlmostEqual", "assertIn",
             "assertNotIn", "assertGreater", "assertGreaterEqual", "assertLess",
             "assertLessEqual")


def comparing_plainly(original):
    def method(self, first, second, *args, **kwargs):
        return original(self, plain(first), plain(second), *args, **kwargs)
    method.__name__ = original.__name__
    return method


for _name in COMPARING:
    setattr(unittest.TestCase, _name, comparing_plainly(vars(unittest.TestCase)[_name]))


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
    TRUSTED["root"] = os.path.abspath(root)
    TRUSTED["tests_path"] = os.path.abspath(tests_path)
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
        module = load_tests(os.path.abspath(tests_path), name)
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
    def __init__(self, tests_path):
        super().__init__()
        self.tests_path = os.path.abspath(tests_path)
        self.verdict = ("PASS", "")

    def _worse(self, verdict):
        # A test with subtests ends with its worst part: an error over a failure over a pass.
        rank = {"PASS": 0, "SKIP": 1, "FAIL": 2, "ERROR": 3}
        if rank[verdict[0]] >= rank[self.verdict[0]]:
            self.verdict = verdict

    def addFailure(self, test, err):
        self._worse(("FAIL", self._exc_info_to_string(err, test)))

    def addError(self, test, err):
        self._worse(("ERROR", self._exc_info_to_string(err, test)))

    def addSubTest(self, test, subtest, err):
        # unittest records a failing subtest without calling addFailure: without this, a test
        # whose every subtest failed would pass.
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._worse(("FAIL" if failed else "ERROR", self._exc_info_to_string(err, subtest)))

    def addSkip(self, test, reason):
        # unittest calls this inside its `except SkipTest` when the test raised it as it ran, and
        # outside any exception for a skip the test declared (a decorator on it or its class).
        raised = sys.exc_info()[1]
        if raised is None:
            self._worse(("SKIP", "skipped as the test file declares: " + str(reason)))
        elif self._raised_by_the_tests(raised):
            self._worse(("SKIP", "the test skipped itself: " + str(reason)))
        else:
            self._worse(("FAIL", "unittest.SkipTest was raised by code outside the test file ("
                         + str(reason) + "): a skip is not a pass\n"
                         + "".join(traceback.format_exception(raised, limit=8))))

    def _raised_by_the_tests(self, raised):
        # The innermost frame outside unittest's own code is the one that raised the skip.
        unittest_dir = os.path.dirname(os.path.abspath(unittest.__file__))
        origin = None
        tb = raised.__traceback__
        while tb is not None:
            where = os.path.abspath(tb.tb_frame.f_code.co_filename)
            if not where.startswith(unittest_dir + os.sep):
                origin = where
            tb = tb.tb_next
        return origin == self.tests_path

    def addExpectedFailure(self, test, err):
        self._worse(("SKIP", "declared an expected failure (@expectedFailure): not counted"))

    def addUnexpectedSuccess(self, test):
        self._worse(("SKIP", "declared an expected failure (@expectedFailure), and it passed:"
                     " not counted"))


def run_case(case):
    if isinstance(case, unittest.TestCase):
        result = Outcome(TRUSTED["tests_path"])
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
