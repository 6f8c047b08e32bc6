"""strobe's unittest runner: python -m strobe_unittest [--list | --rest ID ... --] [NAME ...] | [discover [-s DIR] [-p PATTERN]]

Runs unittest tests through unittest's own result API and writes the same
events as strobe's pytest plugin (strobe_events). With no name it discovers
as `python -m unittest discover` does (start ".", pattern "test*.py"), and
also walks directories that are not packages (a tests/ without
__init__.py), importing their modules as namespace packages. A module that
fails to import (SyntaxError, ImportError) is a collection error at its
file and line, not a test; the other modules' tests still run.

Exit status: 0 all passed, 1 a test failed, 2 a module failed to import,
5 no tests.
"""

import doctest
import faulthandler
import fnmatch
import importlib
import os
import re
import sys
import time
import unittest

import strobe_events as ev

ev.register_stacks()

# A test's id that unittest cannot select (a doctest a module's load_tests
# added: more_itertools.more.chunked is a function, not a test) → the
# module or package that loads it, which a rerun names instead.
SELECTORS = {}

SKIP_DIRS = {"venv", "node_modules", "__pycache__", "site-packages", "build", "dist"}


class Result(unittest.TestResult):
    def __init__(self, ch, root):
        super().__init__()
        self.buffer = True  # each test's output is its own, not the terminal's
        self.ch = ch
        self.root = root
        self.cur = None
        self.began = 0.0
        self.count = 0
        # The classes and modules whose setUpClass or setUpModule failed
        # (their placeholders' ids): unittest runs none of their tests.
        self.fixtures_failed = []
        self.started = {}  # tests started, by class and module (owners)

    # -- a test's life ------------------------------------------------------

    def startTest(self, test):
        super().startTest(test)
        self.count += 1
        for owner in owners(test):
            self.started[owner] = self.started.get(owner, 0) + 1
        file, line = definition(test, self.root)
        self.cur = {"ev": "end", "id": test_id(test), "status": "passed"}
        if self.cur["id"] in SELECTORS:
            self.cur["sel"] = SELECTORS[self.cur["id"]]
        self.began = time.perf_counter()
        self.ch.send({"ev": "start", "id": self.cur["id"], "file": file, "line": line})

    def stopTest(self, test):
        t = self.cur
        if t is not None:
            out = self._stdout_buffer.getvalue() if self._stdout_buffer else ""
            out += self._stderr_buffer.getvalue() if self._stderr_buffer else ""
            if out:
                t["out"] = ev.clip_tail(out)
            t["dur"] = time.perf_counter() - self.began
            self.ch.send(t, hold=True)
            self.cur = None
        self._mirrorOutput = False  # strobe has it; do not echo it
        super().stopTest(test)

    # -- outcomes -----------------------------------------------------------

    def addSuccess(self, test):
        super().addSuccess(test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.fail(test, err, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        if isinstance(test, unittest.suite._ErrorHolder):
            m = FIXTURE_ERROR.match(test.description)
            if m is not None:
                self.fixtures_failed.append((m.group(1), m.group(2)))
        self.fail(test, err, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.settle(test, status="skipped", reason=reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.settle(test, status="xfailed", reason=str(err[1]))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        # unittest fails the run for it (wasSuccessful is False).
        self.settle(test, status="failed", msg="unexpected success: the test is marked @expectedFailure but passed")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.fail(test, err, "failed", prefix=subtest._subDescription() + " ")

    # -- helpers ------------------------------------------------------------

    def settle(self, test, **fields):
        """Records fields in the pending end event of test. A test that is
        not running (setUpClass failed, reported on a placeholder) gets
        its start and end now."""
        if self.cur is not None and self.cur["id"] == test_id(test):
            self.cur.update(fields)
            return
        t = {"ev": "end", "id": test_id(test), "status": "passed", "dur": 0.0}
        t.update(fields)
        self.ch.send({"ev": "start", "id": t["id"], "file": None, "line": 0})
        self.ch.send(t)

    def fail(self, test, err, status, prefix=""):
        info = doctest_failure(test, err[1], self.root) or ev.describe(err[1], err[2], self.root, hider(test, err[1]), test_code(test))
        when = phase(err[2])
        if status == "error" and when == "call":
            status = "failed"  # an exception in the test's own body
        t = self.cur if self.cur is not None and self.cur["id"] == test_id(test) else None
        if t is not None and t["status"] in ("failed", "error"):
            # A later failure of the test (another subTest's, a tearDown
            # error after it failed): at its own line, after the first.
            ev.add_later(t, {"status": status, "when": when if status == "error" else None, "sub": prefix,
                             "type": info["type"], "msg": info["msg"], "file": info["file"], "line": info["line"],
                             "call": info.get("call")})
            return
        fields = {"status": status, "msg": prefix + info["msg"], "type": info["type"]}
        if status == "error":
            fields["when"] = when
        if info["file"]:
            fields.update(file=info["file"], line=info["line"])
        if info.get("traces"):
            fields["traces"] = info["traces"]
        if info.get("call"):
            fields["call"] = info["call"]
        self.settle(test, **fields)


# The placeholder's id of a class's or module's set-up that failed:
# "setUpClass (tests.test_x.TestY)", "setUpModule (tests.test_x)".
FIXTURE_ERROR = re.compile(r"^(setUpClass|setUpModule) \((.+)\)$")


def owners(test):
    """The class and the module a test belongs to, as unittest names them
    in a set-up's failure: ("tests.test_x.TestY", "tests.test_x")."""
    cls = type(test)
    return "%s.%s" % (cls.__module__, cls.__qualname__), cls.__module__


def tally(tests):
    """How many tests each class and module has (owners)."""
    n = {}
    for t in tests:
        if isinstance(t, unittest.TestCase):
            for owner in owners(t):
                n[owner] = n.get(owner, 0) + 1
    return n


def not_run(ch, collected, result):
    """Says, per class or module whose setUpClass or setUpModule failed,
    how many of its tests (of those collected, a tally) unittest did not
    run for it: it skips them without a word (no start, no count), which
    read as tests removed from the project."""
    for fixture, owner in result.fixtures_failed:
        n = collected.get(owner, 0) - result.started.get(owner, 0)
        if n > 0:
            ch.send({"ev": "not_run", "id": owner, "reason": fixture, "n": n})


def hider(test, exc):
    """The frames unittest leaves out of a failure's traceback
    (TestResult._clean_tracebacks), as strobe_events' hide takes them:
    those of the modules that set __unittest before the test's own, and
    an assertion's from the first of them after (a helper module that
    sets it fails at its calling test's line)."""

    def hide(fs):
        i = 0
        while i < len(fs) and "__unittest" in fs[i][0].f_globals:
            i += 1
        fs = fs[i:]
        if isinstance(exc, getattr(test, "failureException", AssertionError)):
            for j, (f, _) in enumerate(fs):
                if "__unittest" in f.f_globals:
                    return fs[:j]
        return fs

    return hide


def test_code(test):
    """The code object of a TestCase's test method, None for any other
    test."""
    try:
        fn = getattr(test, test._testMethodName)
        return getattr(fn, "__func__", fn).__code__
    except Exception:
        return None


def doctest_failure(test, exc, root):
    """The failure fields of a doctest a module's load_tests added
    (DocTestSuite): the failing example's file and line, read from the
    report doctest writes, and that report with the project's paths
    relative. None for any other test."""
    if not isinstance(test, doctest.DocTestCase):
        return None
    msg = str(exc)
    file, line = None, 0
    for m in re.finditer(r'File "([^"]+)", line (\d+)', msg):
        path = os.path.abspath(m.group(1))
        if ev.in_project(path, root):
            file, line = os.path.relpath(path, root), int(m.group(2))
    return {"type": ev.exception_type(exc), "msg": ev.clip(msg.replace(root + os.sep, "")), "file": file, "line": line}


def phase(tb):
    """setup or teardown when the exception came from a fixture method,
    call otherwise."""
    when = "call"
    while tb is not None:
        name = tb.tb_frame.f_code.co_name
        if name in ("setUp", "setUpClass", "setUpModule", "asyncSetUp"):
            when = "setup"
        elif name in ("tearDown", "tearDownClass", "tearDownModule", "asyncTearDown", "doCleanups"):
            when = "teardown"
        tb = tb.tb_next
    return when


def test_id(test):
    if isinstance(test, unittest.suite._ErrorHolder):
        return test.description  # "setUpClass (tests.test_x.TestY)"
    return test.id()


def definition(test, root):
    """The file and line where a test method is defined."""
    try:
        fn = getattr(test, test._testMethodName)
        code = fn.__code__
        if ev.in_project(code.co_filename, root):
            return os.path.relpath(code.co_filename, root), code.co_firstlineno
    except Exception:
        pass
    return None, 0


# -- loading ----------------------------------------------------------------


def import_error(ch, root, name, exc):
    """A module that could not be imported, at its file and line."""
    file, line = None, 0
    if isinstance(exc, SyntaxError) and exc.filename:
        path = os.path.abspath(exc.filename)
        if ev.in_project(path, root):
            file, line = os.path.relpath(path, root), exc.lineno or 0
    if file is None:
        file, line = ev.project_frame(exc.__traceback__, root)
    if file is None:
        file = name.replace(".", os.sep) + ".py"
    ch.send({"ev": "collect_error", "id": name, "file": file, "line": line,
             "msg": ev.clip("%s: %s" % (ev.exception_type(exc), exc))})


def load_module(ch, root, loader, name):
    try:
        module = importlib.import_module(name)
    except Exception as exc:
        import_error(ch, root, name, exc)
        return None
    return selected_by(name, loader.loadTestsFromModule(module))


def selected_by(name, suite):
    """suite, its tests that name does not select by their ids noted as
    selected by name: an id outside the module, or one a TestCase made its
    own by overriding id() (idna's rows, `…runTest.266`), which unittest
    cannot load."""
    for t in iterate(suite):
        tid = t.id()
        if not tid.startswith(name + ".") or own_id(t, tid):
            SELECTORS.setdefault(tid, name)
    return suite


def own_id(test, tid):
    """Whether a TestCase's id is not unittest's own, module.Class.method."""
    method = getattr(test, "_testMethodName", None)
    if not isinstance(test, unittest.TestCase) or not method:
        return False
    cls = type(test)
    return tid != "%s.%s.%s" % (cls.__module__, cls.__qualname__, method)


def discover(ch, root, loader, start, pattern):
    """Every module matching pattern under start, by its dotted name from
    root, descending into directories whose names can be imported. A
    package is loaded as unittest's discovery loads it: its own TestCases
    count, and its load_tests, if it has one, loads the whole package."""
    suite = unittest.TestSuite()
    bad = 0
    for d, dirs, files in os.walk(start):
        dirs[:] = sorted(x for x in dirs if x.isidentifier() and x not in SKIP_DIRS and not x.startswith("."))
        rel = os.path.relpath(d, root)
        pkg = "" if rel == "." else rel.replace(os.sep, ".") + "."
        if pkg and "__init__.py" in files:
            tests, whole = load_package(ch, root, loader, pkg[:-1], pattern)
            if tests is None:
                bad += 1
            else:
                suite.addTests(tests)
            if tests is None or whole:
                dirs[:] = []
                continue
        for f in sorted(files):
            if f.endswith(".py") and f != "__init__.py" and fnmatch.fnmatch(f, pattern) and f[:-3].isidentifier():
                tests = load_module(ch, root, loader, pkg + f[:-3])
                if tests is None:
                    bad += 1
                else:
                    suite.addTests(tests)
    return suite, bad


def load_package(ch, root, loader, name, pattern):
    """A package's own tests, and whether its load_tests loaded the whole
    package (then discovery does not descend into it); None when it does
    not import."""
    try:
        package = importlib.import_module(name)
    except Exception as exc:
        import_error(ch, root, name, exc)
        return None, False
    tests = selected_by(name, loader.loadTestsFromModule(package, pattern=pattern))
    return tests, callable(getattr(package, "load_tests", None))


def load_name(ch, root, loader, name):
    """One test, class or module by dotted name; the module part is
    imported first so that its import error is located."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        mod = ".".join(parts[:i])
        try:
            importlib.import_module(mod)
            break
        except ModuleNotFoundError as exc:
            if exc.name != mod and not mod.startswith(exc.name + "."):
                import_error(ch, root, mod, exc)
                return None
        except Exception as exc:
            import_error(ch, root, mod, exc)
            return None
    try:
        suite = selected_by(name, loader.loadTestsFromName(name))
    except TypeError:
        # A function that makes no test (a doctest's id, calc.double),
        # which unittest's loader calls as if it did.
        suite = unittest.TestSuite()
    # A name that matches nothing is not an import error of the project's:
    # unittest makes a failing placeholder of it, which strobe drops (no
    # test ran, and strobe says so).
    return unittest.TestSuite(t for t in iterate(suite) if not isinstance(t, unittest.loader._FailedTest))


def load_by_id(root, loader, name, start, pattern):
    """The tests discovery finds whose id is name: a doctest a module's
    load_tests adds (calc.double, a doc file's calc_txt), which no dotted
    name loads, given as strobe's answer names it. The other modules'
    import errors are no concern of this selection's."""
    suite, _ = discover(ev.Channel(None), root, loader, start, pattern)
    return unittest.TestSuite(t for t in iterate(suite) if test_id(t) == name)


def module_name(name, root):
    """A test file's path as its dotted module name, as `python -m unittest
    tests/test_x.py` takes it (unittest.main's _convert_name); any other
    name as it is."""
    if not name.endswith(".py") or not os.path.isfile(name):
        return name
    rel = os.path.relpath(os.path.abspath(name), root)
    if rel.startswith(".."):
        return name
    return rel[:-3].replace(os.sep, ".")


def iterate(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from iterate(t)
        else:
            yield t


def parse_args(argv):
    names, start, pattern = [], ".", "test*.py"
    if argv and argv[0] == "discover":
        rest = argv[1:]
        positional = []
        i = 0
        while i < len(rest):
            a = rest[i]
            if a in ("-s", "--start-directory", "-p", "--pattern", "-t", "--top-level-directory") and i + 1 < len(rest):
                if a in ("-s", "--start-directory"):
                    start = rest[i + 1]
                elif a in ("-p", "--pattern"):
                    pattern = rest[i + 1]
                i += 2
                continue
            if not a.startswith("-"):
                positional.append(a)
            i += 1
        if positional:
            start = positional[0]
        if len(positional) > 1:
            pattern = positional[1]
        return [], start, pattern
    return [a for a in argv if not a.startswith("-")], start, pattern


def trace(bad):
    """A traced run's tracer (strobe test --trace), installed once the
    tests are loaded, so that it traces the tests and not the loading; None
    when the run is not traced. A refusal (patterns matching too many
    functions) is said on stderr, and no test runs."""
    if bad or not os.environ.get("STROBE_TRACE_SPEC"):
        return None
    try:
        import strobe_trace
    except Exception:
        return None
    tracer = strobe_trace.start()
    if tracer is None:
        return None
    if tracer.census():
        print("strobe refused to trace: " + tracer.refused, file=sys.stderr)
    else:
        tracer.install()
    return tracer


def rest_names(loader, suite, hung):
    """The names that, given to python -m unittest, run the suite's tests
    but those whose ids are in hung, coarsest first: a module whose tests
    the suite holds all of (as loading it by name loads them) and none of
    hung, else such a class, else each test's id. A test unittest cannot
    select by its id (a doctest a module's load_tests adds) goes with the
    module that loads it, or not at all when that module holds one of
    hung."""
    ids = set()
    owners = []  # per test left: its units, coarsest first
    for t in iterate(suite):
        if isinstance(t, (unittest.suite._ErrorHolder, unittest.loader._FailedTest)):
            continue
        tid = test_id(t)
        ids.add(tid)
        cls = type(t)
        if tid in SELECTORS or own_id(t, tid):
            units = [SELECTORS.get(tid, cls.__module__)]
        else:
            units = [cls.__module__, "%s.%s" % (cls.__module__, cls.__qualname__), tid]
        owners.append((tid, units))
    held = {}  # unit -> whether the suite holds every test loading it loads

    def whole(unit):
        if unit not in held:
            try:
                loaded = {test_id(t) for t in iterate(loader.loadTestsFromName(unit))}
                held[unit] = bool(loaded) and loaded <= ids
            except Exception:
                held[unit] = False
        return held[unit]

    tainted = set()  # units that hold a test of hung
    for tid, units in owners:
        if tid in hung:
            tainted.update(units)
    names = []
    for tid, units in owners:
        if tid in hung:
            continue
        for i, unit in enumerate(units):
            if unit in tainted:
                continue
            if i == len(units) - 1 or whole(unit):
                if unit not in names:
                    names.append(unit)
                break
    return names


def main(argv):
    # --list (first) loads the selection as a run would and prints each
    # test's id, one a line, without running any: strobe's partitions.
    listing = bool(argv) and argv[0] == "--list"
    if listing:
        argv = argv[1:]
    # --rest ID… -- [SELECTION] loads the selection and prints the names
    # that run it without the tests of those ids (rest_names), one a line:
    # the rest of a run strobe stopped at them.
    hung = None
    if argv and argv[0] == "--rest":
        end = argv.index("--") if "--" in argv else len(argv)
        hung, argv = set(argv[1:end]), argv[end + 1:]
    faulthandler.enable()  # a crash prints the Python stack on stderr, as under pytest
    root = os.getcwd()
    if root not in sys.path:
        sys.path.insert(0, root)
    ch = (ev.Channel.from_env() if hung is None else None) or ev.Channel(None)
    ch.send({"ev": "hello", "pid": os.getpid(), "version": "%d.%d.%d" % sys.version_info[:3]})
    loader = unittest.TestLoader()
    names, start, pattern = parse_args(argv)
    bad = 0
    if names:
        suite = unittest.TestSuite()
        for n in names:
            if os.path.isdir(n):
                tests, b = discover(ch, root, loader, n, pattern)
                bad += b
            else:
                tests = load_name(ch, root, loader, module_name(n, root))
                bad += tests is None
                if tests is not None and tests.countTestCases() == 0:
                    tests = load_by_id(root, loader, n, start, pattern)
            if tests is not None:
                suite.addTests(tests)
    else:
        suite, bad = discover(ch, root, loader, start, pattern)
    if hung is not None:
        for name in rest_names(loader, suite, hung):
            print(name)
        return 0  # a module that does not import is the run's to say
    if listing:
        for t in iterate(suite):
            print(test_id(t))
        if bad:
            print("strobe_unittest: %d test modules failed to import" % bad, file=sys.stderr)
        return 2 if bad else 0
    ch.send({"ev": "collected", "n": suite.countTestCases()})
    result = Result(ch, root)
    tracer = trace(bad)
    if tracer is not None and tracer.refused:
        bad = -1
    if bad >= 0:
        # A module that did not import leaves the others' tests to run,
        # as python -m unittest runs them beside its error.
        collected = tally(iterate(suite))  # before the run, which drops what it ran
        suite.run(result)
        not_run(ch, collected, result)
    if tracer is not None:
        tracer.finish()
    result.printErrors()
    if bad < 0:
        code = 4  # strobe refused to trace: nothing ran
    elif bad:
        code = 2
    elif result.testsRun == 0:
        code = 5
    elif result.wasSuccessful():
        code = 0
    else:
        code = 1
    print("Ran %d tests: %d failures, %d errors, %d skipped" % (
        result.testsRun, len(result.failures) + len(result.unexpectedSuccesses), len(result.errors), len(result.skipped)))
    ch.send({"ev": "done", "exit": code})
    ch.close()
    ev.keep_bytecode()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
