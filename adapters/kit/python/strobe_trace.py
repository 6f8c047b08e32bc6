"""strobe's Python tracer, loaded by its pytest plugin and unittest runner.

When $STROBE_TRACE_SPEC names a spec file (package trace: compiled
patterns, watches, bounds, the output directory), start() installs a tracer
that records the calls of the functions the patterns match: arguments by
name, return values or exceptions, watched variables, thread, depth and
parent. It writes one JSON event per line to Out/events-<pid>.jsonl, never
to stdout or stderr, and ends the file with one "meta" line.

Python 3.12+ uses sys.monitoring: an unmatched function's start is disabled
after its first call, so it costs nothing afterwards. Older Pythons use
sys.setprofile (threading.setprofile for new threads), which still sees
every call: an unmatched one costs one dict lookup keyed by its code object.
sys.setprofile shows that a function ended by an exception (its last
instruction is not a return) but not the exception: a matched frame also
gets a local trace function for its "exception" events, while no one else
traces (coverage, a debugger), and else the exception is unavailable.

Nothing here may raise into the test run: a tracer that fails stops, with a
warning in its meta line.
"""

import atexit
import difflib
import inspect
import json
import os
import re
import reprlib
import sys
import threading
import time
import types

SPEC_ENV = "STROBE_TRACE_SPEC"

# How long an event waits in the buffer at most, while the tests run.
FLUSH_AFTER = 0.2

# Names the compiler gives code that is not a function a person wrote or
# would ask for: a module's body, comprehensions, generator expressions.
_SYNTHETIC = ("<module>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")

_tracer = None


def start():
    """Installs the tracer when the run is traced, once per process, and
    returns it; None when the run is not traced or the spec is unreadable."""
    global _tracer
    if _tracer is not None:
        return _tracer
    path = os.environ.get(SPEC_ENV)
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        _tracer = Tracer(spec)
    except Exception as e:  # an unreadable spec: say so in a meta line if we can
        _write_broken(path, e)
        return None
    return _tracer


def active():
    return _tracer


def _write_broken(path, err):
    try:
        with open(path, encoding="utf-8") as f:
            out = json.load(f).get("out")
        if out:
            meta = {"type": "meta", "tracer": _tracer_name(), "warnings": ["strobe's Python tracer could not start: %s" % err]}
            with open(os.path.join(out, "events-%d.jsonl" % os.getpid()), "a", encoding="utf-8") as f:
                f.write(json.dumps(meta) + "\n")
    except Exception:
        pass


def _tracer_name():
    how = "sys.monitoring" if hasattr(sys, "monitoring") else "sys.setprofile"
    return "python %d.%d %s" % (sys.version_info[0], sys.version_info[1], how)


class _Pattern:
    def __init__(self, p):
        self.raw = p.get("raw", "")
        self.kind = p.get("kind", "name")
        self.regex = re.compile(p["regex"]) if self.kind == "name" and p.get("regex") else None
        self.file = (p.get("file") or "").replace(os.sep, "/")

    def match(self, name, file, project):
        if self.kind == "name":
            return self.regex is not None and self.regex.search(name) is not None
        if self.kind == "file":
            f = file.replace(os.sep, "/")
            return f == self.file or f.endswith("/" + self.file)
        if self.kind == "project":
            return project(file)
        return False


class _Fn:
    """A matched function: what each of its events repeats."""

    __slots__ = ("name", "file", "line", "argnames", "watches", "calls")

    def __init__(self, name, code, watches):
        self.name = name
        self.file = code.co_filename
        self.line = code.co_firstlineno
        n = code.co_argcount + code.co_kwonlyargcount
        n += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
        self.argnames = code.co_varnames[:n]
        self.watches = watches
        self.calls = 0


class _Repr(reprlib.Repr):
    """reprlib bounded by the spec; a repr that raises says so."""

    def repr_instance(self, x, level):
        try:
            s = repr(x)
        except Exception as e:
            return "<repr failed: %s: %s>" % (type(e).__name__, e)
        if len(s) > self.maxother:
            i = max(0, (self.maxother - 3) // 2)
            j = max(0, self.maxother - 3 - i)
            s = s[:i] + "..." + s[len(s) - j:]
        return s


class Tracer:
    def __init__(self, spec):
        self.out = spec["out"]
        self.patterns = [_Pattern(p) for p in spec.get("patterns") or []]
        self.watches = [(w["variable"], [_Pattern(p) for p in w.get("on") or []]) for w in spec.get("watches") or []]
        root = spec.get("projectRoot") or os.getcwd()
        self.roots = {os.path.abspath(root) + os.sep, os.path.realpath(root) + os.sep}
        self.exclude = set(spec.get("exclude") or [])
        self.max_functions = spec.get("maxFunctions") or 200
        self.max_events = spec.get("maxEvents") or 200000
        self.full_calls = spec.get("fullCalls") or 1000
        self.sample_every = spec.get("sampleEvery") or 100
        self.max_value = spec.get("maxValue") or 256
        r = _Repr()
        r.maxlevel = spec.get("maxDepth") or 2
        items = spec.get("maxItems") or 8
        r.maxtuple = r.maxlist = r.maxarray = r.maxdict = r.maxset = r.maxfrozenset = r.maxdeque = items
        r.maxstring = r.maxlong = r.maxother = self.max_value
        self.repr = r.repr
        self.short = self.max_value // 8  # a str whose repr surely fits
        self.type_names = {}
        self.lock = threading.Lock()
        self.cache = {}  # code object -> _Fn, or None when not matched
        self.hit = set()  # indexes of the patterns that matched something
        self.census_names = []  # the project's functions, for nearest names
        self.census_matched = []
        self.aliases = {}  # code object -> the names a module re-exports it under
        self.warnings = []
        self.watched = set()  # the watches read at some function
        self.refused = ""
        self.installed = False
        self.finished = False
        self.stacks = {}  # thread id -> the traced calls on its stack
        self._open()
        atexit.register(self.finish)
        try:
            os.register_at_fork(after_in_child=self._forked)
        except AttributeError:
            pass

    # -- files ------------------------------------------------------------

    def _open(self):
        self.pid = os.getpid()
        self.path = os.path.join(self.out, "events-%d.jsonl" % self.pid)
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.buf = []
        self.next_id = 1
        self.dropped = 0
        self.stacks.clear()  # in place: the profile function holds it
        self.pending = False
        self.wake = threading.Event()  # the flusher's, once installed

    def _forked(self):
        """A forked child writes its own file: the parent's buffered events
        stay the parent's, and its call counts start again."""
        if self.finished:
            return  # forked after the tests: nothing to trace
        try:
            os.close(self.fd)
        except OSError:
            pass
        for fn in self.cache.values():
            if fn is not None:
                fn.calls = 0
        self.lock = threading.Lock()
        self._open()
        if self.installed:
            self._start_flusher()
        # A multiprocessing child leaves by os._exit after its finalizers,
        # never through atexit; it clears the finalizers it inherited, then
        # runs its after-fork hooks, where the tracer adds its own.
        mp = sys.modules.get("multiprocessing.util")
        if mp is not None:
            try:
                mp.register_after_fork(self, _finish_in_mp_child)
            except Exception:
                pass

    def _emit(self, ev):
        """Numbers ev and buffers it; its id, 0 when MaxEvents are written.
        Under the lock: ids follow the order of the file across threads."""
        with self.lock:
            if self.next_id > self.max_events:
                self.dropped += 1
                return 0
            eid = ev["id"] = self.next_id
            self.next_id += 1
            self.buf.append(_encode(ev))
            n = len(self.buf)
        if n >= 512:
            self.flush()
        elif not self.pending:
            self.pending = True
            self.wake.set()
        return eid

    def flush(self):
        with self.lock:
            if not self.buf or self.fd is None:
                return
            data = ("\n".join(self.buf) + "\n").encode("utf-8", "replace")
            self.buf = []
            try:
                os.write(self.fd, data)
            except OSError:
                pass

    def _start_flusher(self):
        """Writes buffered events FLUSH_AFTER seconds after the first of
        them: a test that hangs is killed (SIGKILL) by strobe's stuck
        detector or timeout, and the calls that led to the hang are what
        its trace is for. Between events the thread waits on an Event
        without a timeout: a thread in a timed wait (a polling sleep) would
        tell the stuck detector that the process may wake by itself, and a
        traced deadlock would never be called one."""
        gen = self.pid
        wake = self.wake = threading.Event()

        def loop():
            while not self.finished and self.pid == gen:
                wake.wait()
                time.sleep(FLUSH_AFTER)
                wake.clear()
                self.pending = False
                self.flush()

        threading.Thread(target=loop, name="strobe-trace-flush", daemon=True).start()

    def finish(self):
        """Stops tracing, flushes, and ends the file with its meta line."""
        if self.finished or self.fd is None:
            return
        self.finished = True
        self.wake.set()  # the flusher leaves
        self.uninstall()
        meta = _encode(self.meta())
        with self.lock:
            self.buf.append(meta)
        self.flush()
        try:
            os.close(self.fd)
        except OSError:
            pass
        self.fd = None

    def meta(self):
        m = {"type": "meta", "tracer": _tracer_name()}
        matched = sorted(set(self.census_matched) | {fn.name for fn in self.cache.values() if fn is not None})
        if matched:
            m["matched"] = matched
        unmatched = []
        for i, p in enumerate(self.patterns):
            if i not in self.hit:
                unmatched.append({"pattern": p.raw, "nearest": self.nearest(p)})
        if unmatched:
            m["unmatched"] = unmatched
        calls = {fn.name: fn.calls for fn in self.cache.values() if fn is not None and fn.calls}
        if calls:
            m["calls"] = calls
        if self.dropped:
            m["dropped"] = self.dropped
        if self.refused:
            m["refused"] = self.refused
        warnings = list(self.warnings)
        if not self.refused:
            for w, on in self.watches:
                if w not in self.watched:
                    warnings.append("watch %s: no function %s names was called" % (w, " or ".join(p.raw for p in on) or "it"))
        if warnings:
            m["warnings"] = warnings
        return m

    def nearest(self, p):
        """Up to 5 of the project's function names closest to a pattern
        that matched nothing: whole names, then last segments."""
        if p.kind != "name" or not self.census_names:
            return []
        want = p.raw.replace("::", ".").replace("*", "")
        names = sorted(set(self.census_names))
        near = difflib.get_close_matches(want, names, n=5, cutoff=0.5)
        if len(near) < 5:
            tail = want.rsplit(".", 1)[-1]
            by_tail = {}
            for n in names:
                by_tail.setdefault(n.rsplit(".", 1)[-1], []).append(n)
            for t in difflib.get_close_matches(tail, list(by_tail), n=5, cutoff=0.6):
                for n in by_tail[t]:
                    if n not in near and len(near) < 5:
                        near.append(n)
        return near

    # -- matching ---------------------------------------------------------

    def project(self, file):
        """Whether file is the project's own code: under its root, under
        none of the Exclude segments."""
        if not file or not os.path.isabs(file):
            return False
        for root in self.roots:
            if file.startswith(root):
                segs = file[len(root):].split(os.sep)
                return not any(s in self.exclude for s in segs[:-1])
        return False

    def decide(self, code, module):
        """The _Fn of a code object the patterns or a watch match, else
        None; cached by the caller."""
        qual = getattr(code, "co_qualname", None) or _qualname(code, module)
        if qual.rsplit(".", 1)[-1] in _SYNTHETIC:
            return None
        name = module + "." + qual if module else qual
        file = code.co_filename
        # The name it is defined under, and those a module of the project
        # re-exports it under (dateutil.parser.parse is
        # dateutil.parser._parser.parse): its events keep the first.
        names = [name] + self.aliases.get(code, [])
        hit = False
        for i, p in enumerate(self.patterns):
            if any(p.match(n, file, self.project) for n in names):
                self.hit.add(i)
                hit = True
        watches = [w for w, on in self.watches if any(p.match(n, file, self.project) for p in on for n in names)]
        self.watched.update(watches)
        if not hit and not watches:
            return None
        if sum(1 for fn in self.cache.values() if fn is not None) >= self.max_functions:
            w = "more than %d functions matched while the tests ran: %s and later ones are not traced; narrow the patterns" % (self.max_functions, name)
            if w not in self.warnings:
                self.warnings.append(w)
            return None
        return _Fn(name, code, watches)

    def census(self):
        """Walks the project's modules loaded so far and counts the
        functions the patterns match; refuses, and returns the reason, when
        that is more than MaxFunctions. The names found feed the nearest
        names of a pattern that matches nothing."""
        found = {}  # code -> qualified name
        for modname, mod in list(sys.modules.items()):
            f = _attr(mod, "__file__", None)
            if not f or not self.project(os.path.abspath(f)):
                continue
            try:
                _walk(mod, modname, vars(mod), found, 0)
                _reexports(modname, vars(mod), self.aliases, self.project)
            except Exception:  # one odd module costs its own names only
                pass
        names = []
        per_pattern = [0] * len(self.patterns)
        matched = []
        for code, name in found.items():
            if name.rsplit(".", 1)[-1] in _SYNTHETIC:
                continue
            names.append(name)
            m = False
            for i, p in enumerate(self.patterns):
                if any(p.match(n, code.co_filename, self.project) for n in [name] + self.aliases.get(code, [])):
                    per_pattern[i] += 1
                    self.hit.add(i)
                    m = True
            if m:
                matched.append(name)
        self.census_names = names
        self.census_matched = matched
        if len(matched) > self.max_functions:
            worst = max(range(len(self.patterns)), key=lambda i: per_pattern[i])
            count = "%d functions" % per_pattern[worst]
            if per_pattern[worst] != len(matched):
                count += " (the patterns %d in all)" % len(matched)
            self.refused = "pattern %s matches %s, more than %d: narrow it to a module (mod.*), a class (mod.Class.*) or one function" % (
                self.patterns[worst].raw, count, self.max_functions)
            self.finish()
        return self.refused

    # -- events -----------------------------------------------------------

    def enter(self, fn, frame):
        fn.calls += 1
        n = fn.calls
        tid = threading.get_ident()
        stack = self.stacks.get(tid)
        if stack is None:
            stack = self.stacks[tid] = []
        if n > self.full_calls and (n - self.full_calls) % self.sample_every:
            self.dropped += 2  # this call's enter and exit
            stack.append((frame, 0, 0, fn))
            return
        t = time.time_ns()
        parent = 0
        for e in reversed(stack):
            if e[1]:
                parent = e[1]
                break
        loc = frame.f_locals
        args = []
        for a in fn.argnames:
            if a in loc:
                args.append(self.value(a, loc[a]))
        ev = {"id": 0, "type": "enter", "t": t, "pid": self.pid, "thread": threading.current_thread().name,
              "depth": len(stack), "parent": parent, "function": fn.name, "file": fn.file, "line": fn.line, "args": args}
        if fn.watches:
            ev["watches"] = self.read_watches(fn, frame, loc)
        if n > self.full_calls:
            ev["sampled"] = True
            ev["call"] = n
        elif n > 1:
            ev["call"] = n
        eid = self._emit(ev)
        if not eid:
            self.dropped += 1  # its exit, not written either
        stack.append((frame, eid, t, fn))

    def exit(self, frame, value, error):
        stack = self.stacks.get(threading.get_ident())
        if not stack:
            return
        # Pop to this frame: a frame whose exit was missed (tracing started
        # inside it) is dropped from the stack.
        for i in range(len(stack) - 1, -1, -1):
            if stack[i][0] is frame:
                break
        else:
            return
        _, eid, t0, fn = stack[i]
        del stack[i:]
        if not eid:
            return
        t = time.time_ns()
        ev = {"id": 0, "type": "exit", "t": t, "pid": self.pid, "thread": threading.current_thread().name,
              "depth": len(stack), "parent": eid, "function": fn.name, "file": fn.file, "line": fn.line,
              "durationNs": max(t - t0, 1)}
        if error:
            ev["error"] = True
            if value is _HIDDEN:
                ev["return"] = [{"name": "exception", "unavailable": "another trace function (coverage, a debugger) ran: sys.setprofile alone does not show the exception (Python 3.12+ does)"}]
            else:
                ev["return"] = [self.value("exception", value)]
        else:
            ev["return"] = [self.value("", value)]
        if fn.watches:
            ev["watches"] = self.read_watches(fn, frame, None)
        self._emit(ev)

    def value(self, name, v):
        t = type(v)
        try:
            # The common small values straight to repr; the rest through
            # reprlib's bounds.
            if (t is int and -_BIG < v < _BIG) or t is float or t is bool or v is None or (t is str and len(v) < self.short) or (t in _EMPTY and not v):
                s = repr(v)
            else:
                s = self.repr(v)
        except Exception as e:
            s = "<repr failed: %s: %s>" % (type(e).__name__, e)
        if len(s) * 4 > self.max_value and len(s.encode("utf-8", "replace")) > self.max_value:
            s = s.encode("utf-8", "replace")[: self.max_value - 3].decode("utf-8", "ignore") + "..."
        tn = self.type_names.get(t)
        if tn is None:
            tn = t.__qualname__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)
            self.type_names[t] = tn
        out = {"type": tn, "value": s}
        if name:
            out["name"] = name
        return out

    def read_watches(self, fn, frame, loc):
        if loc is None:
            try:
                loc = frame.f_locals
            except Exception:
                loc = {}
        out = []
        for w in fn.watches:
            try:
                v, why = _lookup(w, loc, frame.f_globals, fn.name)
            except Exception as e:
                v, why = None, "%s: %s" % (type(e).__name__, e)
            if why:
                out.append({"name": w, "unavailable": why})
            else:
                out.append(self.value(w, v))
        return out

    # -- installing -------------------------------------------------------

    def install(self):
        """Starts tracing in this process (every thread)."""
        if self.installed or self.finished or self.refused:
            return
        self.installed = True
        self._start_flusher()
        if hasattr(sys, "monitoring"):
            self._install_monitoring()
        else:
            self._install_profile()

    def uninstall(self):
        if not self.installed:
            return
        self.installed = False
        try:
            if hasattr(sys, "monitoring"):
                m = sys.monitoring
                m.set_events(self.tool, 0)
                for code, fn in self.cache.items():
                    if fn is not None:
                        m.set_local_events(self.tool, code, 0)
                m.free_tool_id(self.tool)
            else:
                threading.setprofile(None)
                if sys.getprofile() is self._profile_fn:
                    sys.setprofile(None)
        except Exception:
            pass

    def _lookup_code(self, code, frame):
        fn = self.decide(code, frame.f_globals.get("__name__") or "")
        self.cache[code] = fn
        return fn

    def _install_profile(self):
        cache = self.cache
        enter, exit_ = self.enter, self.exit
        ret_ops = _return_opcodes()
        lookup = self._lookup_code
        miss = _MISS
        stacks = self.stacks
        get_ident = threading.get_ident
        gettrace, settrace = sys.gettrace, sys.settrace
        # sys.setprofile does not show the exception a function raised: a
        # matched frame gets a local trace function, whose "exception"
        # events do, while a matched call is on the thread's stack and no
        # one else traces (coverage, a debugger). The global trace function
        # that needs answers None: no other frame is traced.
        raised = {}  # frame -> the exception last raised in or through it

        def local(frame, event, arg):
            if event == "exception":
                raised[frame] = arg[1]
            return local

        def nothing(frame, event, arg):
            return None

        def profile(frame, event, arg):
            if event == "call":
                fn = cache.get(frame.f_code, miss)
                if fn is None:
                    return
                if fn is miss:
                    fn = lookup(frame.f_code, frame)
                    if fn is None:
                        return
                enter(fn, frame)
                t = gettrace()
                if t is None or t is nothing:
                    frame.f_trace_lines = False
                    frame.f_trace = local
                    if t is None:
                        settrace(nothing)
            elif event == "return":
                code = frame.f_code
                if cache.get(code) is None:
                    return
                # An exception ends a frame at the instruction that raised,
                # a return (or a generator's yield) at its own opcode.
                op = code.co_code[frame.f_lasti] if frame.f_lasti >= 0 else -1
                exc = raised.pop(frame, _HIDDEN)
                if op in ret_ops:
                    exit_(frame, arg, False)
                else:
                    exit_(frame, exc, True)
                if not stacks.get(get_ident()) and gettrace() is nothing:
                    settrace(None)

        self._profile_fn = profile
        threading.setprofile(profile)
        sys.setprofile(profile)

    def _install_monitoring(self):
        m = sys.monitoring
        tool = None
        for t in (m.PROFILER_ID, 4, 3, 2, 1):
            try:
                m.use_tool_id(t, "strobe")
                tool = t
                break
            except ValueError:
                continue
        if tool is None:
            self.warnings.append("sys.monitoring has no free tool id: nothing traced")
            return
        self.tool = tool
        E = m.events
        cache = self.cache
        enter, exit_ = self.enter, self.exit
        lookup = self._lookup_code
        getframe = sys._getframe
        disable = m.DISABLE
        local = E.PY_RETURN | E.PY_YIELD | E.PY_RESUME
        miss = _MISS

        def start(code, offset):
            fn = cache.get(code, miss)
            if fn is miss:
                fn = lookup(code, getframe(1))
                if fn is not None:
                    m.set_local_events(tool, code, local)
            if fn is None:
                return disable
            enter(fn, getframe(1))

        def resume(code, offset):
            fn = cache.get(code)
            if fn is not None:
                enter(fn, getframe(1))

        def ret(code, offset, value):
            if cache.get(code) is not None:
                exit_(getframe(1), value, False)

        def unwind(code, offset, exc):
            if cache.get(code) is not None:
                exit_(getframe(1), exc, True)

        m.register_callback(tool, E.PY_START, start)
        m.register_callback(tool, E.PY_RESUME, resume)
        m.register_callback(tool, E.PY_RETURN, ret)
        m.register_callback(tool, E.PY_YIELD, ret)
        m.register_callback(tool, E.PY_UNWIND, unwind)
        m.set_events(tool, E.PY_START | E.PY_UNWIND)


def _finish_in_mp_child(tracer):
    sys.modules["multiprocessing.util"].Finalize(None, tracer.finish, exitpriority=-100)


_MISS = object()
_BIG = 1 << 63
_EMPTY = (tuple, list, dict)
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str).encode
_HIDDEN = object()


def _return_opcodes():
    import dis

    return {dis.opmap[n] for n in ("RETURN_VALUE", "RETURN_CONST", "YIELD_VALUE") if n in dis.opmap}


def _qualname(code, module):
    """A code object's qualified name before Python 3.11 (no co_qualname):
    the __qualname__ of the module's function or method that owns it, its
    co_name when none does (a nested function)."""
    mod = sys.modules.get(module)
    if mod is not None:
        found = {}
        try:
            _walk(mod, module, vars(mod), found, 0)
        except Exception:
            pass
        name = found.get(code)
        if name:
            return name[len(module) + 1:] if module and name.startswith(module + ".") else name
    return code.co_name


def _walk(mod, modname, ns, found, depth):
    """Records code -> qualified name for the functions and methods defined
    in module mod (namespace ns: the module's or a class's), classes within
    classes included."""
    for v in list(ns.values()):
        if isinstance(v, (staticmethod, classmethod)):
            v = v.__func__
        elif isinstance(v, property):
            for f in (v.fget, v.fset, v.fdel):
                if f is not None:
                    _add(f, modname, found)
            continue
        if isinstance(v, type):
            if depth < 3 and _attr(v, "__module__", None) == modname:
                _walk(mod, modname, vars(v), found, depth + 1)
            continue
        _add(v, modname, found)


def _reexports(modname, ns, aliases, project):
    """Records code -> the names module modname (namespace ns) gives the
    project's functions it imported from another module, and the methods
    of the project's classes it imported: modname.parse for `from ._parser
    import parse`. Another package's (os.path.join imported) are left
    out: a pattern for the module's own names (pkg.*) does not take them."""
    for k, v in list(ns.items()):
        if k.startswith("__"):
            continue
        if isinstance(v, type):
            if _attr(v, "__module__", modname) == modname:
                continue
            for mk, mv in list(vars(v).items()):
                if isinstance(mv, (staticmethod, classmethod)):
                    mv = mv.__func__
                _alias(_unwrapped(mv), "%s.%s.%s" % (modname, k, mk), aliases, project)
            continue
        f = _unwrapped(v)
        if isinstance(f, types.FunctionType) and f.__module__ != modname:
            _alias(f, modname + "." + k, aliases, project)


def _alias(f, name, aliases, project):
    if isinstance(f, types.FunctionType) and project(os.path.abspath(f.__code__.co_filename)):
        names = aliases.setdefault(f.__code__, [])
        if name not in names:
            names.append(name)


def _add(f, modname, found):
    f = _unwrapped(f)
    if not isinstance(f, types.FunctionType):
        return
    code = f.__code__
    if f.__module__ != modname or code in found:
        return
    found[code] = modname + "." + f.__qualname__


def _unwrapped(v):
    """The function a decorator wrapped (functools.wraps' __wrapped__, an
    lru_cache's), read without running any of v's code: reading an
    attribute of an arbitrary object can run its __getattr__, and six.moves'
    lazy objects import a module then (a test checking that they had not
    yet failed under tracing, and a module missing there stopped pytest)."""
    for _ in range(5):
        if isinstance(v, types.FunctionType) and "__wrapped__" not in v.__dict__:
            return v
        try:
            w = inspect.getattr_static(v, "__wrapped__", None)
        except Exception:
            return v
        if w is None or w is v:
            return v
        v = w
    return v


def _attr(v, name, default):
    """An attribute found without running v's code (no __getattr__, no
    descriptor): what a module or class holds, as _unwrapped."""
    try:
        return inspect.getattr_static(v, name, default)
    except Exception:
        return default


def _lookup(expr, loc, glob, fname):
    """A watch's value: a dotted name read from the function's locals, then
    its module's globals, then a loaded module (pkg.mod.var); (value, "") or
    (None, why)."""
    parts = expr.split(".")
    first = parts[0]
    if first in loc:
        v = loc[first]
    elif first in glob:
        v = glob[first]
    else:
        for i in range(len(parts) - 1, 0, -1):
            mod = sys.modules.get(".".join(parts[:i]))
            if mod is not None:
                v, parts = mod, [parts[i - 1]] + parts[i:]
                break
        else:
            return None, "no variable %s in scope of %s" % (first, fname)
    for a in parts[1:]:
        try:
            v = getattr(v, a)
        except AttributeError:
            if isinstance(v, dict) and a in v:
                v = v[a]
            else:
                return None, "%s has no attribute %s" % (type(v).__name__, a)
    return v, ""
