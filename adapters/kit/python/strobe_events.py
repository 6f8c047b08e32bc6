"""strobe's event channel, shared by its pytest plugin and unittest runner.

Events are JSON objects, one per line, written with one os.write each to the
file named by STROBE_PY_EVENTS: never to stdout or stderr, where the tests'
own output would mix with them. strobe reads the file as it grows.

Nothing here may raise into the test run: a channel that fails goes quiet,
and strobe falls back to the framework's own output.
"""

import faulthandler
import json
import os
import signal
import sys

# Bounds on what one event carries: strobe keeps 64 KiB of a test's output
# and a few KiB of a message, so sending more would only cost the run.
MAX_OUTPUT = 64 << 10
MAX_MESSAGE = 8 << 10


def register_stacks():
    """Dump every thread's Python stack on SIGUSR2 into
    $STROBE_STACKS_DIR/py-<pid>.txt (strobe_stacks does it on import,
    once per process, and again in a forked child)."""
    try:
        import strobe_stacks  # noqa: F401
    except Exception:
        pass


def keep_bytecode():
    """Writes the bytecode of strobe's modules that this process imported
    beside them, where Python would not (PYTHONDONTWRITEBYTECODE, -B):
    their directory is strobe's own, shared by every run of these modules,
    and each later run reads the bytecode instead of compiling them again
    (about 10 ms of a pytest run). Called once the run's events are out."""
    if not sys.dont_write_bytecode:
        return  # Python wrote it as it imported them
    try:
        import importlib.machinery
        import importlib.util

        here = os.path.dirname(os.path.abspath(__file__))
        for name, mod in list(sys.modules.items()):
            # strobe's, or the unittest runner run by -m as __main__.
            if not (name.startswith("strobe_") or name == "__main__"):
                continue
            src = getattr(mod, "__file__", None)
            if not src:
                continue
            src = os.path.abspath(src)
            loader = getattr(getattr(mod, "__spec__", None), "loader", None)
            # pytest's assertion rewriter loads the -p module: not Python's
            # cache, and too small to matter.
            if (
                os.path.dirname(src) != here
                or not os.path.basename(src).startswith("strobe_")
                or not isinstance(loader, importlib.machinery.SourceFileLoader)
            ):
                continue
            cached = importlib.util.cache_from_source(src)
            if not os.path.exists(cached):
                import py_compile

                py_compile.compile(src, cfile=cached, doraise=True)
    except Exception:
        pass


class Channel:
    """Writes events to the file strobe reads."""

    def __init__(self, fd):
        self.fd = fd
        self.held = []

    @classmethod
    def from_env(cls):
        # Popped: a process the tests start (a pytest inside a test) must
        # not write into this run's channel.
        path = os.environ.pop("STROBE_PY_EVENTS", None)
        if not path:
            return None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError:
            return None
        return cls(fd)

    def send(self, ev, hold=False):
        """Writes ev, after any held events. A held event waits for the
        next one: a test's end goes out with the next test's start, one
        write where there would be two (a test's start is never held: it
        names the test that runs, for the stuck detector)."""
        if self.fd is None:
            return
        self.held.append(json.dumps(ev, separators=(",", ":")))
        if not hold:
            self.flush()

    def flush(self):
        if self.fd is None or not self.held:
            return
        data = ("\n".join(self.held) + "\n").encode("utf-8", "replace")
        self.held = []
        try:
            os.write(self.fd, data)
        except Exception:
            self.close()

    def close(self):
        self.flush()
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None


def clip(s, n=MAX_MESSAGE):
    if s is None:
        return ""
    if len(s) <= n:
        return s
    return s[:n] + "…"


# A test's later failures (a subTest's after the first, a teardown error
# after the test failed): the end event's "later" keeps the first
# MAX_LATER, each the fields of a failure (status, when, type, msg, file,
# line, call, and sub: the subtest's parameters), and "later_omitted"
# counts the rest; strobe keeps as many (a subtest failing in a loop a
# million times holds no more).
MAX_LATER = 100


def add_later(t, fields):
    """Adds a later failure's fields to t, the test's pending end event."""
    later = t.setdefault("later", [])
    if len(later) < MAX_LATER:
        later.append({k: v for k, v in fields.items() if v not in (None, "")})
    else:
        t["later_omitted"] = t.get("later_omitted", 0) + 1


def clip_tail(s, n=MAX_OUTPUT):
    if not s:
        return ""
    if len(s) <= n:
        return s
    return "…" + s[-n:]


_library_marks = ("site-packages", "dist-packages", os.sep + "lib" + os.sep + "python")


def in_project(filename, root):
    """Whether a frame's file is the project's own code, not the standard
    library or an installed package (a venv inside the project included)."""
    if not filename or not filename.startswith(root + os.sep):
        return False
    return not any(m in filename for m in _library_marks)


def frames(tb):
    """tb's frames, outermost first, as (frame, line)."""
    out = []
    while tb is not None:
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out


def project_frame(tb, root, hide=None):
    """The innermost frame of tb in the project's code, as (relative path,
    line); (None, 0) when every frame is elsewhere. hide, when given, takes
    the traceback's frames (see frames) and returns those the framework
    shows: a helper that hides itself is not where its test failed."""
    return _located(_shown(frames(tb), root, hide), root)[:2]


def _shown(fs, root, hide):
    """The frames of fs the framework shows (hide), or all of them when it
    would show no project frame (the test itself hidden)."""
    if hide is None:
        return fs
    try:
        kept = hide(fs)
    except Exception:
        return fs
    if any(in_project(f.f_code.co_filename, root) for f, _ in kept):
        return kept
    return fs


def _located(fs, root):
    """The innermost project frame of fs: (relative path, line, frame),
    (None, 0, None) when there is none."""
    for frame, line in reversed(fs):
        fn = frame.f_code.co_filename
        if in_project(fn, root):
            return os.path.relpath(fn, root), line, frame
    return None, 0, None


def exception_type(exc):
    t = type(exc)
    if t.__module__ in ("builtins", "exceptions"):
        return t.__qualname__
    return t.__module__ + "." + t.__qualname__


def describe(exc, tb, root, hide=None, test=None):
    """The failure fields of an exception: type, message and the project
    frame it came from; hide drops the frames the framework hides (see
    project_frame). test is the code of the test function: when the
    frame is deeper (a helper, the code under test), "call" says the
    test's own line that led there, "test_x.py:12 (test_y)"."""
    fs = _shown(frames(tb), root, hide)
    file, line, where = _located(fs, root)
    try:
        msg = str(exc)
    except Exception:
        msg = "<unprintable %s>" % type(exc).__name__
    if not msg and type(exc) is AssertionError and where is not None:
        # An assert no one rewrote (a helper module pytest does not
        # rewrite, any under unittest) says nothing: its statement does.
        msg = _assert_statement(where.f_code.co_filename, line)
    info = {"type": exception_type(exc), "file": file, "line": line, "traces": _suggest_safe(fs, root)}
    if test is not None and where is not None and where.f_code is not test:
        for frame, ln in reversed(fs):
            if frame.f_code is test and in_project(frame.f_code.co_filename, root):
                info["call"] = "%s:%d (%s)" % (os.path.relpath(frame.f_code.co_filename, root), ln, frame.f_code.co_name)
                break
    subs = _group(exc)
    if subs:
        # An exception group (hypothesis' distinct failures and its
        # FlakyFailure, an asyncio TaskGroup) says only how many it holds:
        # each is said, and the failure is where the first was raised,
        # not where the group was (hypothesis' wrapper, at the def line).
        said = []
        for i, sub in enumerate(subs[:MAX_GROUP]):
            sub_info = describe(sub, sub.__traceback__, root, hide, test)
            at = " (at %s:%d)" % (sub_info["file"], sub_info["line"]) if sub_info["file"] else ""
            text = _said(sub_info)
            head, sep, rest = text.partition("\n")
            said.append("[%d] %s%s%s" % (i + 1, head, at, "\n    " + rest.replace("\n", "\n    ") if sep else ""))
            if i == 0 and sub_info["file"]:
                for k in ("file", "line", "call", "traces"):
                    info.pop(k, None)
                    if sub_info.get(k):
                        info[k] = sub_info[k]
        if len(subs) > MAX_GROUP:
            said.append("… and %d more" % (len(subs) - MAX_GROUP))
        msg = msg + "\n" + "\n".join(said)
    notes = _notes(exc, root)
    if notes:
        # PEP 678 notes, which str() leaves out: hypothesis' "Failing test
        # case: test_x(n=100)" (its "Falsifying example" before 6.1xx),
        # pytest.approx's, a library's added context.
        msg = msg + "\n" + notes if msg else notes
    info["msg"] = clip(msg)
    return info


# How many sub-exceptions of a group a failure says.
MAX_GROUP = 5


def _group(exc):
    """The sub-exceptions of an exception group (3.11's, or the
    exceptiongroup backport's), () for any other exception."""
    subs = getattr(exc, "exceptions", None)
    if isinstance(subs, tuple) and subs and all(isinstance(s, BaseException) for s in subs) and hasattr(exc, "derive"):
        return subs
    return ()


def _said(info):
    """A failure's text as strobe's parsers say it: the message of an
    AssertionError that has one, else "Type: message"."""
    msg = info.get("msg") or ""
    if info.get("type") == "AssertionError" and msg:
        return msg
    return info.get("type", "") + (": " + msg if msg else "")


def _notes(exc, root):
    """The notes added to exc (add_note, or __notes__ set by hand as
    hypothesis does before 3.11), the project's paths relative to it."""
    try:
        notes = getattr(exc, "__notes__", None)
        if not isinstance(notes, (list, tuple)):
            return ""
        return "\n".join(str(n) for n in notes).replace(root + os.sep, "")
    except Exception:
        return ""


def _assert_statement(filename, line):
    """The assert statement at line of filename, on one line ("assert
    x == 1"), "" when there is none."""
    try:
        import ast

        tree = _tree(filename)
        best = None
        for n in ast.walk(tree) if tree else ():
            if isinstance(n, ast.Assert) and n.lineno <= line <= (n.end_lineno or n.lineno):
                if best is None or n.lineno >= best.lineno:
                    best = n
        return "assert " + ast.unparse(best.test) if best is not None else ""
    except Exception:
        return ""


# Suggested traces of a failure: the project's functions worth rerunning
# the test traced with. Those on the traceback below the test, innermost
# first; when the test failed in its own body (a plain assert), the
# project functions its failing line calls, then those these call,
# breadth first, so that a wrong argument passed further down is traced
# too, the last of the bound the whole module the walk was in. Names are
# the tracer's: module + "." + qualname.
MAX_TRACES = 8
SUGGEST_DEPTH = 2


def _suggest_safe(fs, root):
    """Suggested trace patterns for a failure's frames; never raises."""
    try:
        return _suggest(fs, root)
    except Exception:
        return []


def _suggest(fs, root):
    frames = [(f, line) for f, line in fs if in_project(f.f_code.co_filename, root) and not _impersonated(f, root)]
    if not frames:
        return []
    out = []
    # The first project frame is the test itself: never suggested.
    for frame, _ in reversed(frames[1:]):
        code = frame.f_code
        name = "%s.%s" % (frame.f_globals.get("__name__", "?"), getattr(code, "co_qualname", code.co_name))
        if "<" not in name and name not in out:
            out.append(name)
    if len(frames) > 1:
        return out[:MAX_TRACES]
    frame, line = frames[0]
    seen = set()

    def resolved(calls):
        return [f for f in (_resolve(c, frame.f_locals, frame.f_globals) for c in calls) if f and in_project(f.__code__.co_filename, root)]

    filename = frame.f_code.co_filename
    level = resolved(_calls_at(filename, line))
    if not level:
        # self.assertEqual(actual, expected): the calls that computed
        # the values the line reads.
        level = resolved(_calls_behind(filename, line))
    for _ in range(SUGGEST_DEPTH + 1):
        nxt = []
        for fn in level:
            if fn in seen or not in_project(fn.__code__.co_filename, root):
                continue
            seen.add(fn)
            name = "%s.%s" % (fn.__module__, fn.__qualname__)
            if "<" in name:
                continue
            if len(out) == MAX_TRACES - 1:
                # The walk goes on past the bound: the last suggestion is
                # the module it was in, its functions all (module.*).
                out.append(fn.__module__ + ".*")
                return out
            out.append(name)
            nxt.extend(f for f in (_resolve(c, {}, fn.__globals__) for c in _calls_in_def(fn)) if f)
        level = nxt
    return out


def _impersonated(frame, root):
    """Whether frame's code claims a project file no module of the
    project runs it from: hypothesis' @given wrapper, made by exec and
    given the test's file and line, was taken for the test, and the
    test's body for a function below it."""
    file = frame.f_globals.get("__file__")
    if not isinstance(file, str):
        return True
    return file != frame.f_code.co_filename and not in_project(os.path.abspath(file), root)


_trees = {}


def _tree(filename):
    if filename not in _trees:
        import ast
        import linecache

        src = "".join(linecache.getlines(filename))
        _trees[filename] = ast.parse(src) if src else None
    return _trees[filename]


def _calls(node):
    import ast

    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    calls.sort(key=lambda n: (n.lineno, n.col_offset))  # in source order
    return [n.func for n in calls]


def _calls_at(filename, line):
    """The calls of the innermost statement at line (a compound one's
    head alone: an if's test, not its branches)."""
    import ast

    tree = _tree(filename)
    best = None
    for n in ast.walk(tree) if tree else ():
        if isinstance(n, ast.stmt) and n.lineno <= line <= (n.end_lineno or n.lineno):
            if best is None or n.lineno >= best.lineno and (n.end_lineno or n.lineno) <= (best.end_lineno or best.lineno):
                best = n
    if best is None:
        return []
    head = getattr(best, "test", None) if isinstance(best, (ast.If, ast.While)) else best
    return _calls(head) if head is not None else []


BEHIND_HOPS = 3


def _calls_behind(filename, line):
    """The calls that computed the names the statement at line reads:
    the assignments, for and with targets above it in its function,
    followed back BEHIND_HOPS definitions, nearest first."""
    import ast

    tree = _tree(filename)
    func = stmt = None
    for n in ast.walk(tree) if tree else ():
        if not isinstance(n, ast.stmt) or not n.lineno <= line <= (n.end_lineno or n.lineno):
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and (func is None or n.lineno >= func.lineno):
            func = n
        if stmt is None or n.lineno >= stmt.lineno and (n.end_lineno or 0) <= (stmt.end_lineno or 0):
            stmt = n
    if func is None or stmt is None:
        return []
    read = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    defs = []  # (line, names, value)
    for n in ast.walk(func):
        if getattr(n, "lineno", line) >= line:
            continue
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            defs.append((n.lineno, targets, n.value))
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            defs.append((n.lineno, [n.target], n.iter))
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            defs.extend((n.lineno, [i.optional_vars], i.context_expr) for i in n.items if i.optional_vars is not None)
    defs.sort(key=lambda d: -d[0])
    calls, used = [], set()
    for _ in range(BEHIND_HOPS):
        more = set()
        for i, (_, targets, value) in enumerate(defs):
            names = {t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)}
            if i in used or not names & read:
                continue
            used.add(i)
            calls.extend(_calls(value))
            more |= {v.id for v in ast.walk(value) if isinstance(v, ast.Name)}
        read |= more
    return calls


def _calls_in_def(fn):
    """The calls in the body of fn's definition."""
    import ast

    code = fn.__code__
    tree = _tree(code.co_filename)
    for n in ast.walk(tree) if tree else ():
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == code.co_name:
            first = min([n.lineno] + [d.lineno for d in n.decorator_list])
            if first == code.co_firstlineno or n.lineno == code.co_firstlineno:
                return [c for s in n.body for c in _calls(s)]
    return []


def _resolve(expr, local, glob):
    """The Python function a call expression names, read without running
    anything (no property, no __getattr__); None when it names none."""
    import ast
    import inspect

    names = []
    while isinstance(expr, ast.Attribute):
        names.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    if expr.id in local:
        obj = local[expr.id]
    elif expr.id in glob:
        obj = glob[expr.id]
    else:
        return None
    for attr in reversed(names):
        holder = obj if inspect.ismodule(obj) or inspect.isclass(obj) else type(obj)
        try:
            obj = inspect.getattr_static(holder, attr)
        except AttributeError:
            return None
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if inspect.isclass(obj):
        obj = obj.__dict__.get("__init__")
    if inspect.ismethod(obj):
        obj = obj.__func__
    return obj if inspect.isfunction(obj) else None
