"""strobe's pytest plugin, loaded with -p strobe_plugin (which imports
its hooks from here): nothing to install.

Every process that loads it (the main one, xdist workers) registers its
stack dump for strobe's stuck detector. The main process alone writes
events: xdist forwards its workers' reports to it, so one writer sees the
whole run and events never interleave mid-line.

Per test: "start" when it begins (logstart), one "end" when it is over
(logfinish) with the outcome of its three phases folded: a failed setup or
teardown is an "error", not a failure of the test's own assertions.
"""

import os

import pytest

try:
    import strobe_events as ev
except Exception:  # strobe reads pytest's own output instead
    ev = None
else:
    ev.register_stacks()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # Runs where the test ran (a worker under xdist), the only place the
    # exception object still exists: its frames give the project's file:line,
    # its text is the assertion as pytest rewrote it.
    outcome = yield
    rep = outcome.get_result()
    if ev is not None and rep.failed and call.excinfo is not None:
        try:
            e = call.excinfo
            root = str(item.config.invocation_params.dir)
            info = doctest_failure(e.value, root) or ev.describe(e.value, e.tb, root, hider(item, e), test_code(item))
            said = getattr(rep.longrepr, "errorstring", None)
            if isinstance(said, str):
                # A fixture pytest cannot find, or whose dependencies
                # loop: pytest's words ("fixture 'tmp_pth' not found",
                # those it has), not the exception's tuple.
                info.update(type=None, msg=ev.clip("\n".join(line.strip() for line in said.strip().splitlines())))
            elif unrun_async(item, e.value) is not None:
                # pytest's "install a suitable plugin" for an async test
                # or fixture no plugin ran, where one is installed: what
                # that plugin needs instead.
                info.update(type=None, msg=ev.clip(unrun_async(item, e.value)))
            elif isinstance(rep.longrepr, str):
                # pytest's own text, and all of it (pytest.fail(...,
                # pytrace=False)): it stands. This is decided here, where
                # the test ran: under xdist any report that is not a
                # traceback (a doctest's) reaches the main process as text.
                info["msg"] = None
            secs = timeout_of(e.value)
            if secs is not None:
                info.update(timeout=secs, stack=stack(e.tb, root))
            rep.strobe = info
        except Exception:
            pass


def unrun_async(item, exc):
    """pytest's failure of an async test, or of an async fixture, that no
    plugin ran ("async def functions are not natively supported … install
    a suitable plugin"), said with what fixes it when pytest-asyncio or
    anyio's plugin is loaded, in the mode it runs in: the test lacks the
    plugin's marker (pytest-asyncio's strict mode, its default, runs only
    the tests marked @pytest.mark.asyncio and sets up only the fixtures
    decorated @pytest_asyncio.fixture). None for any other failure, and
    when no such plugin is loaded: then pytest's advice stands."""
    if not isinstance(exc, pytest.fail.Exception):
        return None
    text = str(getattr(exc, "msg", "") or "")
    test = text.startswith("async def functions are not natively supported")
    fixture = None
    if not test:
        import re

        m = re.match(r"'([^']*)' requested an async fixture '([^']*)', with no plugin or hook that handled it", text)
        if m is None:
            return None
        fixture = m.group(2)
    config = item.config
    pm = config.pluginmanager
    asyncio = pm.hasplugin("asyncio") and plugin_mode(config, "asyncio_mode") != "auto"
    anyio_mode = plugin_mode(config, "anyio_mode")
    # anyio's marker is no fix for a test marked for pytest-asyncio.
    anyio = pm.hasplugin("anyio") and anyio_mode != "auto" and item.get_closest_marker("asyncio") is None
    what = "runs only the async tests marked" if fixture is None else "sets up async fixtures only for the tests marked"
    fix = None
    if asyncio and fixture is None:
        fix = ("pytest-asyncio is installed, but in strict mode (its default) it runs only the async tests marked "
               "@pytest.mark.asyncio: mark this test @pytest.mark.asyncio (a whole module: pytestmark = "
               "pytest.mark.asyncio), or set asyncio_mode = \"auto\" in the pytest configuration")
    elif asyncio:
        fix = ("pytest-asyncio is installed, but in strict mode (its default) it sets up only the async fixtures "
               "decorated @pytest_asyncio.fixture: decorate %r so (import pytest_asyncio), or set asyncio_mode = "
               "\"auto\" in the pytest configuration" % fixture)
    if anyio and fix is not None:
        fix += "; anyio's pytest plugin, installed too, %s @pytest.mark.anyio" % what
    elif anyio:
        fix = "anyio's pytest plugin is installed, but it %s @pytest.mark.anyio: mark this test @pytest.mark.anyio" % what
        if anyio_mode is not None:
            fix += ", or set anyio_mode = \"auto\" in the pytest configuration"
    if fix is None:
        return None
    return text.split("\n", 1)[0] + "\n" + fix


def plugin_mode(config, name):
    """The mode a plugin's option name sets ("auto", "strict"), from the
    command line, else the pytest configuration; "strict" when neither
    says, None when the plugin has no such option (an older version)."""
    try:
        val = config.getoption(name, default=None)
        if not val:
            val = config.getini(name)
    except (ValueError, KeyError):
        return None
    return str(val or "strict")


# pytest-timeout's failure (its signal method: SIGALRM, then pytest.fail).
_timeout_failure = None


def timeout_of(exc):
    """The seconds of pytest-timeout's timeout when exc is its failure of
    a test that ran past it ("Timeout (>2.0s) from pytest-timeout."),
    else None."""
    global _timeout_failure
    if not isinstance(exc, pytest.fail.Exception):
        return None
    import re

    if _timeout_failure is None:
        _timeout_failure = re.compile(r"Timeout \(>([0-9.]+)s\) from pytest-timeout\.")
    m = _timeout_failure.match(str(exc))
    return float(m.group(1)) if m else None


# Files whose frames say nothing of where a test was when it was stopped:
# pytest's and pluggy's calls around it, pytest-timeout's handler in it.
_harness = ("_pytest", "pluggy", "pytest_timeout.py")
MAX_STACK = 12


def stack(tb, root):
    """The stack of a test stopped by a timeout, innermost first, as the
    stuck detector says a thread's: "function (file:line)", the project's
    files relative to it, the rest from their installation's root
    (threading.py, requests/sessions.py); pytest's frames left out."""
    return stack_of(ev.frames(tb), root)


def stack_of(fs, root):
    """stack's frames of fs, (frame, line) outermost first."""
    out = []
    for frame, line in reversed(fs):
        fn = frame.f_code.co_filename
        if any(h in fn.split(os.sep) for h in _harness):
            continue
        out.append("%s (%s:%d)" % (frame.f_code.co_name, short_path(fn, root), line))
    return out[:MAX_STACK]


def short_path(fn, root):
    if ev.in_project(fn, root):
        return os.path.relpath(fn, root)
    for mark in ("site-packages", "dist-packages"):
        i = fn.rfind(os.sep + mark + os.sep)
        if i >= 0:
            return fn[i + len(mark) + 2 :]
    lib = os.path.dirname(os.__file__)
    if fn.startswith(lib + os.sep):
        return fn[len(lib) + 1 :]
    return fn


def hider(item, excinfo):
    """The frames pytest leaves out of a failure's traceback, as
    strobe_events' hide takes them: those whose locals, else globals, set
    __tracebackhide__ (a helper that asserts for its callers: the failure
    is the calling test's line), called with the ExceptionInfo when it is
    callable; for a unittest TestCase, also the modules that set
    __unittest. None under --fulltrace, which hides nothing."""
    if item.config.getoption("fulltrace", False):
        return None
    unittest = type(item).__name__ == "TestCaseFunction"

    def hidden(frame):
        for ns in (frame.f_locals, frame.f_globals):
            try:
                tbh = ns["__tracebackhide__"]
            except Exception:
                continue
            if tbh and callable(tbh):
                return bool(tbh(excinfo))
            if tbh:
                return True
            break
        return unittest and bool(frame.f_globals.get("__unittest"))

    def hide(fs):
        return [(f, line) for f, line in fs if not hidden(f)]

    return hide


def test_code(item):
    """The code object of the test function item runs (pytest.Function's
    function, unwrapped), None for any other item (a doctest)."""
    try:
        fn = getattr(item, "function", None)
        for _ in range(10):
            inner = getattr(fn, "__wrapped__", None)
            if inner is None:
                # hypothesis' @given: a wrapper that impersonates the test
                # (its name, file and line), with the test as inner_test.
                inner = getattr(getattr(fn, "hypothesis", None), "inner_test", None)
            if inner is None:
                break
            fn = inner
        return getattr(getattr(fn, "__func__", fn), "__code__", None)
    except Exception:
        return None


def pytest_configure(config):
    if ev is None:
        return
    ev.register_stacks()
    if os.environ.get("STROBE_TRACE_SPEC"):
        config.pluginmanager.register(TraceHooks(), "strobe_trace")
    if os.environ.get("STROBE_PYTEST_NAME"):
        config.pluginmanager.register(ExactName(os.environ["STROBE_PYTEST_NAME"]), "strobe_exact_name")
    global _notes
    if hasattr(config, "workerinput"):
        _notes = config.workerinput.get("strobe_notes")
        if _notes:
            note_thread_timeouts(config)
            config.pluginmanager.register(IdleWorker(), "strobe_idle_worker")
        return
    events = os.environ.get("STROBE_PY_EVENTS")
    ch = ev.Channel.from_env()
    if ch is not None:
        config.pluginmanager.register(Reporter(config, ch), "strobe_reporter")
        if config.pluginmanager.hasplugin("xdist"):
            _notes = os.path.dirname(events)
            config.pluginmanager.register(XdistNotes(), "strobe_xdist_notes")


# The directory where an xdist worker leaves a note for the main process
# (the run's own, the events file's): the worker it names is about to die.
_notes = None


class XdistNotes:
    """Tells each xdist worker where to leave its notes (the main
    process's events channel is its own alone)."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        node.workerinput["strobe_notes"] = _notes


class IdleWorker:
    """Names an xdist worker's thread that runs the tests IDLE_WORKER
    while it runs none: between a test's end and the next one's start,
    and once its session is over. Its waits then (execnet's wait for the
    next item, which xdist sends only when it has one, or for the end of
    the run) are no lock of a test's, though nothing else tells them from
    one: a hung test on the other worker had the idle one's stacks. strobe
    leaves such a process out of the stuck detector's judgement. It writes
    the kernel's name of the thread (/proc, Linux), as xdist's own
    "[pytest-xdist idle]" title does with setproctitle, when installed."""

    def __init__(self):
        self.name = None

    def set(self, idle):
        try:
            import threading

            path = "/proc/self/task/%d/comm" % threading.get_native_id()
            if self.name is None:
                with open(path) as f:
                    self.name = f.read().rstrip("\n")
            with open(path, "w") as f:
                f.write(IDLE_WORKER if idle else self.name)
        except Exception:
            pass

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid, location):
        self.set(False)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self, nodeid, location):
        self.set(True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session, exitstatus):
        # The project's own hooks at the session's end run after the
        # last test: a hang there is the worker's.
        if self.name is not None:
            self.set(False)

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config):
        if self.name is not None:
            self.set(True)


# The name an idle xdist worker's test thread takes (IdleWorker), 15
# bytes at most (the kernel's); adapters/pytest/capture.go reads it.
IDLE_WORKER = "[xdist idle]"


def note_thread_timeouts(config):
    """pytest-timeout's thread method ends the process with os._exit(1)
    once it has written every thread's stack to the terminal; in an xdist
    worker, whose stdout execnet points at /dev/null, that leaves xdist's
    "worker crashed" alone. In a worker, its dump goes to a note instead,
    with the timeout and the test's stack first, which the main process
    reads when xdist reports the crash (timeout_note)."""
    mod = config.pluginmanager.get_plugin("timeout")
    original = getattr(mod, "timeout_timer", None)
    if original is None:
        return

    def timeout_timer(item, settings):
        try:
            start_note(item, settings)
        except Exception:
            pass
        original(item, settings)
        # Back only when it left the process alive (a debugger attached).
        try:
            os.unlink(note_path(item.nodeid))
        except OSError:
            pass

    mod.timeout_timer = timeout_timer


def note_path(nodeid):
    import hashlib

    return os.path.join(_notes, "timeout-%s.txt" % hashlib.sha256(nodeid.encode()).hexdigest()[:16])


def start_note(item, settings):
    """Writes the note's first line (the timeout, and the test's stack
    as the signal method's failure says it) and points the terminal
    writer pytest-timeout dumps the stacks to at the note."""
    import json
    import sys
    import threading

    from _pytest._io import TerminalWriter

    root = str(item.config.invocation_params.dir)
    info = {"timeout": settings.timeout}
    current = sys._current_frames()
    # The test runs in the worker's main thread (execnet's
    # main_thread_only); else in the first thread with a project frame.
    idents = [threading.main_thread().ident] + [i for i in current if i != threading.get_ident()]
    for ident in idents:
        fs = outer_frames(current.get(ident))
        mine = [i for i, (frame, _) in enumerate(fs) if ev.in_project(frame.f_code.co_filename, root)]
        if mine:
            # From the test's outermost frame in, as a traceback starts.
            frame, line = fs[mine[-1]]
            info.update(file=os.path.relpath(frame.f_code.co_filename, root), line=line, stack=stack_of(fs[mine[0] :], root))
            break
    f = open(note_path(item.nodeid), "w")
    f.write(json.dumps(info) + "\n")
    f.flush()
    tr = item.config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None:
        tr._tw = TerminalWriter(f)


def outer_frames(frame):
    """frame and its callers, outermost first, as (frame, line)."""
    fs = []
    while frame is not None:
        fs.append((frame, frame.f_lineno))
        frame = frame.f_back
    fs.reverse()
    return fs


def timeout_note(nodeid):
    """The failure fields of a test whose xdist worker pytest-timeout's
    thread method ended (see note_thread_timeouts), None when no note
    says so: the timeout, its stack, where it was, and the dump in its
    output. The note is removed: a rerun may time out again."""
    if not _notes:
        return None
    import json

    try:
        path = note_path(nodeid)
        with open(path) as f:
            head, dump = f.readline(), f.read()
        os.unlink(path)
        info = json.loads(head)
    except Exception:
        return None
    secs = info.get("timeout")
    f = {"status": "failed", "when": "call", "timeout": secs, "out": ev.clip_tail(dump),
         "also": "its thread method ended the pytest-xdist worker (os._exit(1)), which xdist replaced"}
    for k in ("file", "line", "stack"):
        if info.get(k):
            f[k] = info[k]
    return f


class Reporter:
    def __init__(self, config, ch):
        # Files and node ids are said relative to where pytest runs (the
        # project strobe was asked about, where a rerun is pasted); pytest's
        # own are relative to its rootdir, which an ini file above (strobe
        # run on a project's tests/) or elsewhere can move.
        self.root = str(config.invocation_params.dir)
        rel = os.path.relpath(str(config.rootpath), self.root)
        self.rootdir = "" if rel == "." else rel
        self.ch = ch
        self.tests = {}
        # Tests pytest-rerunfailures runs again, between their attempts:
        # the attempts so far, the first failure, the time spent.
        self.retried = {}
        self.distributed = False
        ch.send({"ev": "hello", "pid": os.getpid(), "version": pytest.__version__})

    def pytest_sessionstart(self, session):
        # xdist's controller (its DSession, registered after
        # pytest_configure) reports the tests its workers run.
        self.distributed = session.config.pluginmanager.hasplugin("dsession")
        # pytest-randomly shuffles the tests and reseeds random (faker,
        # numpy) before each one with its seed: every rerun keeps it.
        config = session.config
        seed = getattr(config.option, "randomly_seed", None)
        if config.pluginmanager.hasplugin("randomly") and isinstance(seed, int):
            self.ch.send({"ev": "shuffled", "args": ["-p", "randomly", "--randomly-seed=%d" % seed]})

    def pytest_collectreport(self, report):
        if report.failed:
            nodeid = self.rebase(report.nodeid)
            file, line, msg = collect_error(report, nodeid, self.root)
            self.ch.send({"ev": "collect_error", "id": nodeid, "file": file, "line": line, "msg": msg})
        elif report.skipped and report.nodeid:
            # A module skipped as it is collected (importorskip,
            # pytest.skip(allow_module_level=True)): one skip in pytest's
            # counts, and no test of it is reported.
            self.ch.send({"ev": "end", "id": self.rebase(report.nodeid), "status": "skipped", "reason": skip_reason(report), "dur": 0.0})

    def pytest_collection_finish(self, session):
        self.ch.send({"ev": "collected", "n": len(session.items)})

    def pytest_runtest_logstart(self, nodeid, location):
        t = self.tests[nodeid] = {"ev": "end", "id": self.rebase(nodeid), "status": "passed", "dur": 0.0}
        prev = self.retried.pop(nodeid, None)
        if prev is not None:  # pytest-rerunfailures' next attempt
            t.update(prev)
        line = location[1] + 1 if location[1] is not None else 0
        self.ch.send({"ev": "start", "id": self.rebase(nodeid), "file": self.path(location[0]), "line": line})

    def rebase(self, nodeid):
        """nodeid with its path relative to where pytest runs, as pytest
        takes it on the command line there."""
        path, sep, rest = nodeid.partition("::")
        if not path:
            return nodeid
        return self.path(path) + sep + rest

    def path(self, rel):
        """A path relative to pytest's rootdir, made relative to where
        pytest runs ("tests/test_x.py" is "test_x.py" in tests/)."""
        if not self.rootdir:
            return rel
        return os.path.relpath(os.path.join(self.root, self.rootdir, rel), self.root)

    def pytest_runtest_logreport(self, report):
        t = self.tests.get(report.nodeid)
        if t is None:  # a report without its start (a crashed xdist worker)
            t = self.tests[report.nodeid] = {"ev": "end", "id": self.rebase(report.nodeid), "status": "passed", "dur": 0.0}
        t["dur"] += report.duration or 0.0
        when = report.when
        xfail = getattr(report, "wasxfail", None)
        if report.outcome == "rerun":
            # pytest-rerunfailures runs the test again after this failed
            # attempt (its setup, call or teardown, or its xdist worker
            # that died): the test's end waits for the last attempt, and
            # the first failure is kept for a test that then passes.
            if "first" not in t:
                t["first"] = failure_fields(report)
            t["rerun"] = True
        elif report.failed and when not in ("setup", "call", "teardown"):
            # xdist's report of a worker that died in the test ("???"):
            # a crash, whose signal the worker's faulthandler dump says,
            # or pytest-timeout's thread method, whose note says so.
            t.update(failure_fields(report))
        elif report.failed:
            # A failed subtest (pytest 9's SUBFAILED) fails its test, each
            # said with its parameters, as unittest's runner says them.
            sub = subtest(report)
            if t.get("subfailed") and not sub and when == "call" and isinstance(report.longrepr, str):
                # pytest failing the test for its failed subtests
                # ("contains 2 failed subtests"): they are said already.
                pass
            elif t["status"] in ("failed", "error"):
                # Another subtest's failure, the test's own after its
                # subtests', a teardown error after a failure: a later
                # failure of the test, at its own line, after the first.
                f = failure_fields(report)
                ev.add_later(t, {"status": f.get("status"), "when": f.get("when") if f.get("status") == "error" else None,
                                 "sub": sub, "type": f.get("type"), "msg": f.get("msg"), "file": f.get("file"),
                                 "line": f.get("line"), "call": f.get("call")})
            else:
                t.update(failure_fields(report))
                t["msg"] = sub + t["msg"]
            if sub:
                t["subfailed"] = True
        elif report.skipped:
            if xfail is not None:
                t.update(status="xfailed", reason=xfail)
            else:
                t.update(status="skipped", reason=skip_reason(report))
        elif when == "call" and xfail is not None:
            t.update(status="xpassed", reason=xfail)
        if when == "teardown" or report.failed:
            out = report.capstdout + report.capstderr
            if out:
                t["out"] = ev.clip_tail(out)
        if when not in ("setup", "call", "teardown"):
            # xdist's report of a worker that died in the test: no
            # logfinish follows.
            self.pytest_runtest_logfinish(report.nodeid, report.location)

    def pytest_runtest_logfinish(self, nodeid, location):
        t = self.tests.pop(nodeid, None)
        if t is None:
            return
        attempts = t.get("attempts", 1)
        if t.pop("rerun", False):
            self.retried[nodeid] = {"attempts": attempts + 1, "first": t["first"], "dur": t["dur"]}
            return
        t.pop("subfailed", None)
        if attempts == 1:
            t.pop("attempts", None)
        # A test's end waits for the next event, one write for two, where
        # that comes at once: not under xdist, where the next may be a
        # report from the other worker, and never come while its test
        # hangs; this one then read as running, and stuck beside it.
        self.ch.send(t, hold=not self.distributed)

    def pytest_sessionfinish(self, session, exitstatus):
        done = {"ev": "done", "exit": int(exitstatus)}
        # -x or --maxfail stopped the session ("stopping after 1
        # failures"): its exit is 1 as any failed run's.
        stop = session.shouldfail or session.shouldstop
        if stop:
            done["reason"] = stop if isinstance(stop, str) else "stopped"
        self.ch.send(done)

    def pytest_unconfigure(self, config):
        self.ch.close()
        ev.keep_bytecode()


class ExactName:
    """strobe test --test NAME, a name alone: strobe runs -k NAME, which
    takes every test whose name holds NAME, without case (test_p took
    test_package_version). This keeps the tests named NAME: the function
    (with all its parameters), or those of the class or module of that
    name, once -k has chosen; when none is so named, -k's choice stands
    (NAME was an expression)."""

    def __init__(self, name):
        self.name = name

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        keep, drop = [], []
        for item in items:
            (keep if self.named(item) else drop).append(item)
        if keep and drop:
            items[:] = keep
            config.hook.pytest_deselected(items=drop)

    def named(self, item):
        if self.name in (item.name, getattr(item, "originalname", None)):
            return True
        node = item.parent
        while node is not None:
            if self.name in (node.name, os.path.splitext(node.name)[0]):
                return True
            node = node.parent
        return False


class TraceHooks:
    """A traced run (strobe test --trace): in every process that collects
    tests (the main one, or each xdist worker; never xdist's controller,
    which runs none), the tracer counts the functions the patterns match
    once the tests are collected, refuses the run when they are too many,
    and else traces the tests themselves, not pytest's start-up."""

    def __init__(self):
        self.tracer = None

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        try:
            import strobe_trace
        except Exception:
            return
        self.tracer = strobe_trace.start()
        if self.tracer is None:
            return
        refused = self.tracer.census()
        if not refused:
            return
        if hasattr(config, "workerinput"):
            # An xdist worker that stopped pytest would be a crash to the
            # controller: it runs nothing instead, and its meta line says
            # why.
            items[:] = []
            return
        # On stderr too: pytest prints an Exit's reason on stdout, and
        # strobe says what stderr said of an exit 4.
        import sys

        print("strobe refused to trace: " + refused, file=sys.stderr)
        pytest.exit("strobe refused to trace: " + refused, returncode=4)

    def pytest_collection_finish(self, session):
        if self.tracer is not None:
            self.tracer.install()  # not when it refused

    def pytest_sessionfinish(self, session, exitstatus):
        if self.tracer is not None:
            self.tracer.flush()

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config):
        # xdist's workers leave by os._exit: atexit would be too late.
        if self.tracer is not None:
            self.tracer.finish()


def doctest_failure(exc, root):
    """The failure fields of a failed doctest example (--doctest-modules,
    --doctest-glob), None for any other exception: the example and what it
    printed, at the example's line, where the exception itself says only
    "<DocTest mod.f from /abs/mod.py:1 (2 examples)>"."""
    import doctest

    if not isinstance(exc, (doctest.DocTestFailure, doctest.UnexpectedException)):
        return None
    test, example = exc.test, exc.example
    file, line = None, 0
    if test.filename and ev.in_project(os.path.abspath(test.filename), root):
        file = os.path.relpath(os.path.abspath(test.filename), root)
        if test.lineno is not None and example.lineno is not None:
            line = test.lineno + example.lineno + 1  # as pytest reports it
    src = ">>> " + example.source.strip().replace("\n", "\n... ")
    if isinstance(exc, doctest.DocTestFailure):
        msg = "%s\nExpected:\n%s\nGot:\n%s" % (src, indent(example.want), indent(exc.got))
        return {"type": None, "msg": ev.clip(msg), "file": file, "line": line}
    # An example that raised: said as the exception, from the project
    # frame it came from, as any test's.
    _, inner, tb = exc.exc_info
    info = ev.describe(inner, tb, root)
    info["msg"] = ev.clip("%s\n%s" % (info["msg"], src))
    if info["file"] is None:
        info.update(file=file, line=line)
    return info


def indent(text):
    text = text.rstrip("\n")
    return "    " + text.replace("\n", "\n    ") if text else "    (nothing)"


def failure_fields(report):
    """The end event's fields of a failed report: its status (a failure
    of the test's call, an error of its setup or teardown, the crash of
    its xdist worker), the exception and where in the project it came
    from."""
    when = report.when
    if when not in ("setup", "call", "teardown"):
        return timeout_note(report.nodeid) or {"status": "crashed", "msg": failure_text(report)}
    f = {"status": "failed" if when == "call" else "error", "when": when, "msg": failure_text(report)}
    info = getattr(report, "strobe", None)
    if isinstance(info, dict):
        f.update(type=info.get("type"), file=info.get("file"), line=info.get("line"))
        for k in ("call", "traces", "timeout", "stack"):
            if info.get(k):
                f[k] = info[k]
        if info.get("msg") is not None:
            f["msg"] = info["msg"]
    hypothesis_report(report, f)
    return f


_seed_option = None


def hypothesis_report(report, f):
    """What hypothesis' pytest plugin adds to a failed test's report (its
    "Hypothesis" section): the seed that reproduces a failure its
    database cannot replay (a health check, a flaky test) goes into the
    rerun, as --hypothesis-seed=N; anything else it says (hypothesis
    before notes: "Falsifying example: test_x(n=100)") into the message."""
    global _seed_option
    for title, text in getattr(report, "sections", ()):
        if title != "Hypothesis" or not text:
            continue
        import re

        if _seed_option is None:
            _seed_option = re.compile(r"--hypothesis-seed=(-?\d+)")
        said = []
        for line in text.splitlines():
            m = _seed_option.search(line)
            if m:
                f["args"] = [m.group(0)]
            elif line.strip() and line not in f.get("msg", ""):
                said.append(line)
        if said:
            f["msg"] = ev.clip(f.get("msg", "") + "\n" + "\n".join(said))


def failure_text(report):
    """pytest's own account of a failure whose exception strobe did not see
    (a crashed xdist worker, a strict xpass): the last lines of its report."""
    r = report.longrepr
    if r is None:
        return ""
    if isinstance(r, str):
        return ev.clip(r)
    crash = getattr(r, "reprcrash", None)
    if crash is not None:
        return ev.clip(crash.message)
    return ev.clip(str(r))


def subtest(report):
    """A subtest report's parameters and a space ("[array] ", "(n=3) "),
    as unittest describes a subtest; "" for a test's own report."""
    ctx = getattr(report, "context", None)
    if ctx is None or not hasattr(ctx, "kwargs"):
        return ""
    parts = []
    if getattr(ctx, "msg", None) is not None:
        parts.append("[%s]" % ctx.msg)
    if ctx.kwargs:
        parts.append("(%s)" % ", ".join("%s=%s" % kv for kv in ctx.kwargs.items()))
    return " ".join(parts or ["(<subtest>)"]) + " "


def skip_reason(report):
    r = report.longrepr
    if isinstance(r, tuple) and len(r) == 3:
        msg = str(r[2])
        return msg[len("Skipped: "):] if msg.startswith("Skipped: ") else msg
    return ""


def collect_error(report, nodeid, root):
    """Where a module failed to import, from pytest's text of it (the
    exception is gone by the time the report exists): the last project
    location in its traceback, or the SyntaxError's own file and line."""
    import re

    text = str(report.longrepr)
    file, line = None, 0
    for m in re.finditer(r'File "([^"]+)", line (\d+)|^\s*([^\s:]+\.py):(\d+): in ', text, re.M):
        f = m.group(1) or m.group(3)
        ln = int(m.group(2) or m.group(4))
        # pytest says a file outside the project from where it runs
        # ("../site/pytest_asyncio/plugin.py": a plugin on PYTHONPATH),
        # which is not the project's for being joined to it.
        path = os.path.normpath(f if os.path.isabs(f) else os.path.join(root, f))
        if ev.in_project(path, root):
            file, line = os.path.relpath(path, root), ln
    if file is None:
        file = nodeid.split("::")[0] or None
    text = text.replace(root + os.sep, "")
    errs = [l[1:].strip() for l in text.splitlines() if l.startswith("E ")]
    msg = "\n".join(errs) if errs else "\n".join(text.splitlines()[-5:])
    return file, line, ev.clip(msg)
