# strobe's native tracer, run by gdb: gdb -q -nx -batch -x strobe_gdb.py --args PROGRAM ARGS...
#
# It reads the trace Spec named by STROBE_TRACE_SPEC, sets a breakpoint on
# every function the patterns match (enter: arguments and watches) and a
# finish breakpoint per recorded call (exit: return value, duration), runs
# the program with the test's own stdout and stderr, writes
# events-<gdb pid>.jsonl under the Spec's out directory, ending with a Meta
# line, and leaves gdb the way the program left: same exit code, or killed
# by the same signal. gdb's own messages never reach the program's streams:
# gdb's stdout and stderr are moved to /dev/null (or STROBE_GDB_LOG) and
# the program gets the original ones through the startup shell.
import atexit
import difflib
import json
import os
import re
import resource
import signal
import subprocess
import time

import gdb

SPEC = json.load(open(os.environ["STROBE_TRACE_SPEC"]))
OUT = SPEC["out"]
FULL = SPEC.get("fullCalls") or 1000
EVERY = SPEC.get("sampleEvery") or 100
MAX_EVENTS = SPEC.get("maxEvents") or 200000
MAX_FUNCS = SPEC.get("maxFunctions") or 200
MAX_VALUE = SPEC.get("maxValue") or 256
MAX_DEPTH = SPEC.get("maxDepth") or 2
MAX_ITEMS = SPEC.get("maxItems") or 8
ROOT = os.path.realpath(SPEC.get("projectRoot") or "/")
EXCLUDE = set(SPEC.get("exclude") or [])


STDERR = 2  # the program's stderr, once quiet has moved gdb's


def say(line):
    """One line for the user on the program's stderr: why gdb ends early."""
    try:
        os.write(STDERR, ("strobe: %s\n" % line).encode())
    except OSError:
        pass


def redirect():
    """Move gdb's stdout and stderr away, once, keeping the originals for
    the program. gdb sources this script twice: with -iex, before it loads
    the program (whose loading has warnings to say), then with -x; the two
    share this module's globals."""
    global STROBE_FDS
    if "STROBE_FDS" in globals():
        return STROBE_FDS
    out, err = os.dup(1), os.dup(2)
    log = os.open(os.environ.get("STROBE_GDB_LOG") or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    STROBE_FDS = (out, err)
    return STROBE_FDS


def quiet():
    """Keep the program's stdout and stderr for it alone."""
    global STDERR
    out, err = redirect()
    STDERR = err
    for cmd in ("set verbose off", "set confirm off", "set pagination off", "set width 0",
                "set print thread-events off", "set print inferior-events off",
                "set disable-randomization off", "set startup-with-shell on",
                "set auto-solib-add on", "set print pretty off",
                "handle all nostop noprint pass",
                # gdb's internal errors (gdb 13 asserts printing a Rust
                # Option<&&str>) abort the command, not gdb and the
                # program with it: render says the value is unavailable.
                "maint set internal-error quit no", "maint set internal-error corefile no",
                "maint set internal-error backtrace off"):
        try:
            gdb.execute(cmd, to_string=True)
        except gdb.error:
            pass
    # gdb closes its descriptors in the program it starts, so the startup
    # shell reopens the originals by their /proc name (pipes, terminals
    # and files reopen; >> never truncates a file). The shell is gdb's
    # $SHELL: make it sh (the program keeps the user's, copied at start).
    os.environ["SHELL"] = "/bin/sh"
    args = program_args()
    redir = "1>>/proc/%d/fd/%d 2>>/proc/%d/fd/%d" % (os.getpid(), out, os.getpid(), err)
    gdb.execute("set args %s %s" % (args, redir), to_string=True)
    # gdb looks for a source file in its working directory when it is not
    # where its compilation unit says (a dependency's src/lib.rs built
    # elsewhere would be the project's own): gdb works from the script's
    # directory, the program from where gdb was started.
    gdb.execute("set cwd %s" % os.getcwd(), to_string=True)
    try:
        here = os.path.dirname(os.path.abspath(__file__))
    except NameError:
        here = "/"
    gdb.execute("cd %s" % here, to_string=True)  # gdb's cd: its $cwd is its own


def program_args():
    """The arguments --args gave, as gdb quoted them for the shell."""
    shown = gdb.execute("show args", to_string=True).strip()
    i, j = shown.find('"'), shown.rfind('"')
    return shown[i + 1:j] if 0 <= i < j else ""


def split_name(sig):
    """The qualified name of an `info functions` line, without the return
    type, the parameters or Rust's fn keyword."""
    s = sig.rstrip(";").strip()
    for p in ("static ", "fn "):
        if s.startswith(p):
            s = s[len(p):]
    depth, start, i = 0, 0, 0
    while i < len(s):
        c = s[i]
        if s.startswith("->", i):
            i += 2
            continue
        if s.startswith("operator", i) and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
            # operator(), operator<, operator-> ... belong to the name
            j = i + len("operator")
            m = re.match(r"\s*(\(\)|\[\]|->\*?|<<=?|>>=?|<=>|[-+*/%^&|~!=<>,]=?|&&|\|\||\+\+|--|new(\[\])?|delete(\[\])?|[\w:<> ]+?(?=\())", s[j:])
            i = j + (m.end() if m else 0)
            continue
        if c in "<[":
            depth += 1
        elif c in ">]":
            depth -= 1
        elif c == "(" and depth == 0:
            if s.startswith("(anonymous namespace)", i):
                i += len("(anonymous namespace)")
                continue
            break
        elif c == " " and depth == 0:
            start = i + 1  # a C++ return type before the name
        i += 1
    return s[start:i].strip().lstrip("*&")


class Function:
    """A traced name. Its breakpoint stops in every function of that name
    (C++ overloads, a static function of each file): each is a Variant."""
    __slots__ = ("name", "file", "line", "fullname", "watches", "calls", "recorded", "pending", "rets", "variants")

    def __init__(self, name, file, line):
        self.name, self.file, self.line = name, file, line
        self.fullname, self.watches, self.calls = None, [], 0
        self.rets, self.variants = None, {}
        self.recorded, self.pending = 0, 0


class Variant:
    """One function of a traced name, by its entry address: its own file,
    line, return type and ret breakpoints (YAML::Load(const char*) returns
    where YAML::Load(std::istream&) does not)."""
    __slots__ = ("fn", "file", "line", "rets", "rtype", "classes")

    def __init__(self, fn, file, line):
        self.fn, self.file, self.line = fn, file, line
        self.rets, self.rtype, self.classes = None, None, None


def variant(fn, frame):
    """The Variant of fn that frame runs."""
    try:
        block = frame.block()
        while block is not None and block.function is None:
            block = block.superblock
    except RuntimeError:
        block = None
    key = block.start if block is not None else 0
    v = fn.variants.get(key)
    if v is None:
        file, line = fullname(fn) or fn.file, fn.line
        sym = block.function if block is not None else None
        if sym is not None and sym.symtab is not None:
            try:
                file, line = sym.symtab.fullname() or file, sym.line or line
            except (gdb.error, RuntimeError):
                pass
        v = fn.variants[key] = Variant(fn, file, line)
    return v


def list_functions():
    """Every function with debug info: `info functions -n`, by file."""
    text = gdb.execute("info functions -n", to_string=True)
    fns, seen, file = [], set(), ""
    for raw in text.splitlines():
        if raw.startswith("File ") and raw.endswith(":"):
            file = raw[5:-1]
            continue
        if raw.startswith("Non-debugging symbols"):
            break
        m = re.match(r"^(\d+):\s+(.*)$", raw)
        if not m or not file:
            continue
        name = split_name(m.group(2))
        if not name or (name, file) in seen:
            continue
        seen.add((name, file))
        fns.append(Function(name, file, int(m.group(1))))
    return fns


def fullname(fn):
    """The absolute path of the file that defines fn ("" when unknown)."""
    if fn.fullname is None:
        fn.fullname = ""
        if os.path.isabs(fn.file):
            fn.fullname = fn.file
        else:
            try:
                sym = gdb.lookup_static_symbol(fn.name) or gdb.lookup_global_symbol(fn.name)
                if sym is not None and sym.symtab is not None:
                    fn.fullname = sym.symtab.fullname()
            except (gdb.error, RuntimeError):
                pass
    return fn.fullname


def project_file(path):
    if not path or not os.path.isabs(path):
        return False
    rel = os.path.relpath(os.path.realpath(path), ROOT)
    if rel == ".." or rel.startswith("../"):
        return False
    return not any(seg in EXCLUDE for seg in rel.split("/"))


def is_project(fn):
    # std's own files are relative (library/...) but never ours
    if not os.path.isabs(fn.file) and fn.file.startswith("library/"):
        return False
    return project_file(fullname(fn))


class Matcher:
    def __init__(self, p):
        self.kind, self.raw = p["kind"], p["raw"]
        self.re = re.compile(p["regex"]) if p.get("regex") else None
        self.file = p.get("file", "")

    def match(self, fn):
        if self.kind == "name":
            return self.re.search(fn.name) is not None
        if self.kind == "file":
            return any(f == self.file or f.endswith("/" + self.file) for f in (fn.file, fullname(fn)) if f)
        if self.kind == "project":
            return is_project(fn)
        return False


def select(m, fns):
    """The functions m matches."""
    hits = [fn for fn in fns if m.match(fn)]
    if m.kind == "file" and any(is_project(fn) for fn in hits):
        # @file:lib.rs is the project's lib.rs, not every dependency's
        hits = [fn for fn in hits if is_project(fn)]
    return hits


def nearest(raw, fns):
    """Up to 5 names closest to an unmatched pattern, project functions first."""
    sep = "::" if "::" in raw else "."
    key = raw.replace("*", "")
    k = max(1, len([s for s in raw.split(sep) if s]))
    scored = []
    for fn in fns:
        tail = "::".join(fn.name.split("::")[-k:]) if sep == "::" else fn.name.split("::")[-1]
        r = difflib.SequenceMatcher(None, key, tail).ratio()
        if r >= 0.5:
            scored.append((r, fn))
    scored.sort(key=lambda x: -x[0])
    top = scored[:40]
    top.sort(key=lambda x: (not is_project(x[1]), -x[0]))
    out = []
    for _, fn in top:
        if fn.name not in out:
            out.append(fn.name)
        if len(out) == 5:
            break
    return out


class Writer:
    def __init__(self):
        os.makedirs(OUT, exist_ok=True)
        self.f = open(os.path.join(OUT, "events-%d.jsonl" % os.getpid()), "w", buffering=1)  # a line at a time: a killed gdb loses nothing written
        self.id = 0
        self.written = 0
        self.dropped = 0

    def full(self):
        return self.written >= MAX_EVENTS

    def write(self, ev):
        if self.full():
            self.dropped += 1
            return 0
        self.id += 1
        ev["id"] = self.id
        self.written += 1
        self.f.write(json.dumps(ev, separators=(",", ":")) + "\n")
        return self.id

    def meta(self, m):
        if self.f.closed:
            return
        m["type"] = "meta"
        m["dropped"] = self.dropped
        self.f.write(json.dumps(m, separators=(",", ":")) + "\n")
        self.f.close()


W = None
STACKS = {}  # thread -> [(enter id, start ns)]
WARNINGS = []


def clip(s):
    b = s.encode("utf-8", "replace")
    if len(b) <= MAX_VALUE:
        return s
    return b[:MAX_VALUE - 3].decode("utf-8", "ignore") + "..."


STRINGY = re.compile(r"&(mut )?str\b|alloc::string::String|std::(__cxx11::)?(basic_)?string|string_view|^(const )?char ?\*")


def render(v):
    """A value as the program's language prints it, bounded."""
    try:
        t = v.type.strip_typedefs()
        name = str(v.type)
        if name == "alloc::string::String" or name.startswith("alloc::string::String"):
            s = rust_string(v)
            if s is not None:
                return name, s
        if c_like():
            return name, clip(cpp(v, 0))
        if t.code == gdb.TYPE_CODE_PTR and t.target().strip_typedefs().code in (gdb.TYPE_CODE_INT,) and t.target().sizeof == 1:
            return name, clip(v.format_string(max_elements=MAX_VALUE))
        if t.code == gdb.TYPE_CODE_PTR:
            s = pointee(v, t)
            if s is not None:
                return name, s
        # max_elements bounds a string's characters too: strings get
        # MaxValue, everything else MaxItems.
        items = MAX_VALUE if STRINGY.search(name) else MAX_ITEMS
        s = v.format_string(max_depth=MAX_DEPTH, max_elements=items, repeat_threshold=MAX_ITEMS,
                            symbols=False, address=False, pretty_structs=False)
        s = s.replace("\n", " ")  # pretty printers' lines; strings keep theirs escaped
        if s.startswith(name + "::"):  # Rust enums: Ok(2), not Result<i64, String>::Ok(2)
            s = s[len(name) + 2:]
        return name, clip(s)
    except Exception as e:  # a printer's own error: this value is unavailable, the event stays
        return None, "!" + (str(e) or type(e).__name__)
    except KeyboardInterrupt:  # what an internal error of gdb's raises, once it does not quit
        return None, "!gdb cannot read this value (an internal error of gdb's)"


def c_like():
    """Whether the stopped frame is C or C++ (cargo's Rust keeps gdb's own
    Rust formatting)."""
    try:
        return gdb.current_language() in ("c", "c++")
    except (AttributeError, gdb.error, RuntimeError):
        return False


def cpp(v, depth):
    """A C or C++ value as gdb prints it, walked here rather than by
    format_string: gdb prints a pointer or a reference as an address,
    which address=False (kept so values do not change from run to run)
    turns into nothing at any depth (yaml-cpp's HandleNode(eventHandler=),
    a struct's next = ), and its max_elements bounds a string's characters
    as a collection's items, so a std::string inside a struct or a map was
    cut to MAX_ITEMS characters ("position"...). Here a reference is the
    value it refers to, a pointer & what it points to (null, or its address
    when unreadable), strings whole up to MAX_VALUE bytes anywhere,
    MAX_ITEMS per collection, MAX_DEPTH levels of structs and collections;
    the libstdc++ printers give the containers' heads and items."""
    t = v.type.strip_typedefs()
    c = t.code
    if c in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        return cpp(v.referenced_value(), depth)
    pp = gdb.default_visualizer(v)
    if pp is not None:
        return printed(pp, v, depth)
    if c == gdb.TYPE_CODE_PTR:
        target = t.target().strip_typedefs()
        addr = int(v)
        if addr == 0:
            return "null"
        if target.code == gdb.TYPE_CODE_INT and target.sizeof == 1:
            return v.format_string(address=False, max_elements=MAX_VALUE)  # char*: its text
        if target.code in (gdb.TYPE_CODE_VOID, gdb.TYPE_CODE_FUNC):
            return v.format_string(symbols=True)
        try:
            return "&" + cpp(v.dereference(), depth)
        except gdb.MemoryError:
            return "%#x" % addr
    if c in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        if depth >= MAX_DEPTH:
            return "{...}"
        parts, n = [], 0
        for f in t.fields():
            if f.artificial or not hasattr(f, "bitpos"):  # a vtable pointer, a static member
                continue
            if f.is_base_class:
                part = "<%s> = %s" % (f.name, cpp(v.cast(f.type), depth + 1))
            else:
                part = (f.name + " = " if f.name else "") + cpp(v[f], depth + 1)
            parts.append(part)
            n += len(part) + 2
            if n > MAX_VALUE:
                break
        return "{" + ", ".join(parts) + "}"
    if c == gdb.TYPE_CODE_ARRAY:
        elem = t.target().strip_typedefs()
        if elem.code == gdb.TYPE_CODE_INT and elem.sizeof == 1:
            return v.format_string(address=False, max_elements=MAX_VALUE)
        if depth >= MAX_DEPTH:
            return "{...}"
        lo, hi = t.range()
        items = [cpp(v[i], depth + 1) for i in range(lo, min(hi, lo + MAX_ITEMS - 1) + 1)]
        return "{" + ", ".join(items) + ("..." if hi - lo + 1 > MAX_ITEMS else "") + "}"
    return v.format_string(address=False, symbols=False, max_elements=MAX_VALUE)


def printed(pp, v, depth):
    """A value a pretty printer (libstdc++'s) shows: its head (to_string)
    and up to MAX_ITEMS children, each walked by cpp."""
    hint = pp.display_hint() if hasattr(pp, "display_hint") else None
    if hint == "string":
        return v.format_string(address=False, symbols=False, max_elements=MAX_VALUE)
    head = pp.to_string() if hasattr(pp, "to_string") else None
    if head is not None and not isinstance(head, (gdb.Value, str)) and hasattr(head, "value"):
        head = head.value()  # a lazy string
    if isinstance(head, gdb.Value):
        head = cpp(head, depth)
    head = "" if head is None else str(head)
    if not hasattr(pp, "children"):
        return head
    if depth >= MAX_DEPTH:
        items = "{...}"
    else:
        parts, n, key, more = [], 0, None, False
        for i, (cname, child) in enumerate(pp.children()):
            if (i // 2 if hint == "map" else i) >= MAX_ITEMS:
                more = True
                break
            s = cpp(child, depth + 1) if isinstance(child, gdb.Value) else (json.dumps(child) if isinstance(child, str) else str(child))
            if hint == "map":
                if i % 2 == 0:
                    key = s
                    continue
                s = "[%s] = %s" % (key, s)
            elif hint != "array":
                s = "%s = %s" % (cname, s)
            parts.append(s)
            n += len(s) + 2
            if n > MAX_VALUE:
                more = True
                break
        items = "{" + ", ".join(parts) + ("..." if more else "") + "}"
    return head + " = " + items if head else items


def pointee(v, t):
    """A pointer as &what it points to, or None to print it as gdb does.

    gdb prints a pointer as its address, and address=False (kept so values
    do not change from run to run) turns that into nothing: a Rust &T
    (which gdb reads as *mut T) or a C T* argument read as empty, as
    semver's matches_tilde(cmp=, ver=) did."""
    target = t.target().strip_typedefs()
    if target.code in (gdb.TYPE_CODE_VOID, gdb.TYPE_CODE_FUNC):
        return None
    if int(v) == 0:
        return "null"
    typ, s = render(v.dereference())
    return s if s.startswith("!") else "&" + s


def rust_string(v):
    """A Rust String's text (no pretty printers are loaded with -nx)."""
    try:
        vec = v["vec"]
        n = int(vec["len"])
        ptr = find_pointer(vec["buf"])
        if ptr is None:
            return None
        data = gdb.selected_inferior().read_memory(int(ptr), min(n, MAX_VALUE)).tobytes()
        return clip(json.dumps(data.decode("utf-8", "replace"), ensure_ascii=False) + ("..." if n > MAX_VALUE else ""))
    except (gdb.error, gdb.MemoryError, RuntimeError):
        return None


def find_pointer(v, depth=0):
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        return v
    if t.code != gdb.TYPE_CODE_STRUCT or depth > 6:
        return None
    for f in t.fields():
        if f.name is None:
            continue
        p = find_pointer(v[f.name], depth + 1)
        if p is not None:
            return p
    return None


def value(name, v):
    typ, s = render(v)
    if s.startswith("!"):
        return {"name": name, "unavailable": s[1:]}
    out = {"name": name, "value": s}
    if typ:
        out["type"] = typ
    return out


def arguments(frame):
    out = []
    try:
        block = frame.block()
    except RuntimeError:
        return out
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        return out
    for sym in block:
        if not sym.is_argument:
            continue
        try:
            out.append(value(sym.name, frame.read_var(sym)))
        except (gdb.error, ValueError, RuntimeError) as e:
            out.append({"name": sym.name, "unavailable": str(e)})
        if len(out) >= 16:
            break
    return out


def watches(fn):
    out = []
    for expr in fn.watches:
        try:
            out.append(value(expr, gdb.parse_and_eval(expr)))
        except (gdb.error, RuntimeError) as e:
            out.append({"name": expr, "unavailable": str(e)})
    return out


def thread_key():
    th = gdb.selected_thread()
    return th.num, th.ptid[0]


def now():
    return time.time_ns()


class Exit(gdb.FinishBreakpoint):
    """A call's return, where ret breakpoints cannot be set: one finish
    breakpoint per call, exact but costly (gdb checks every one at each stop)."""

    def __init__(self, frame, fn, entry, key):
        super().__init__(frame, internal=True)
        self.fn, self.entry, self.key = fn, entry, key

    def stop(self):
        try:
            rv = None
            try:
                rv = self.return_value
            except (gdb.error, RuntimeError):
                pass
            pop(self.key, self.entry, rv)
        except Exception as e:  # never stop the program for the tracer's sake
            warn("exit of %s: %s" % (self.fn.name, e))
        return False

    def out_of_scope(self):
        try:
            pop(self.key, self.entry, None, unwound=True)
        except Exception as e:
            warn("unwind of %s: %s" % (self.fn.name, e))


class Return(gdb.Breakpoint):
    """A ret instruction of a traced function (x86-64): one breakpoint for
    every call, which finds its call on the thread's stack by the frame's
    canonical frame address, and reads the return value as the ABI left it."""

    def __init__(self, var, addr):
        super().__init__("*%#x" % addr, internal=True)
        self.var, self.fn, self.addr = var, var.fn, addr

    def stop(self):
        try:
            key = thread_key()
            stack = STACKS.get(key)
            if stack:
                frame = gdb.newest_frame()
                cfa = int(frame.read_register("rsp")) + 8  # the return address is on top
                for i in range(len(stack) - 1, -1, -1):
                    if stack[i].cfa == cfa and stack[i].var is self.var:
                        unwind_below(key, stack, i)
                        pop(key, stack[i], x86_return(frame, self.var))
                        break
        except Exception as e:
            warn("exit of %s: %s" % (self.fn.name, e))
        return False


class Call:
    __slots__ = ("id", "t", "fn", "var", "cfa")

    def __init__(self, eid, t, var, cfa):
        self.id, self.t, self.var, self.fn, self.cfa = eid, t, var, var.fn, cfa


def unwind_below(key, stack, i):
    """Calls above i on the stack ended without returning (a panic or an
    exception went through them, or longjmp)."""
    while len(stack) > i + 1:
        pop(key, stack[-1], None, unwound=True)


def pop(key, call, rv, unwound=False):
    t = now()
    stack = STACKS.get(key, [])
    depth = 0
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is call:
            depth = i
            del stack[i:]
            break
    fn = call.fn
    if fn.rets:
        fn.pending -= 1
        if fn.pending <= 0 and fn.calls >= FULL:
            # Sampled from now on: a call not recorded costs one stop, not two.
            set_returns(fn, False)
    ev = {"type": "exit", "t": t, "pid": key[1], "thread": str(key[0]), "function": fn.name,
          "file": call.var.file, "line": call.var.line, "durationNs": t - call.t, "parent": call.id}
    if depth:
        ev["depth"] = depth
    if unwound:
        ev["error"] = True
        ev["return"] = [{"unavailable": "unwound: the call ended without returning (panic, exception or longjmp)"}]
    elif rv is not None:
        r = value("", rv)
        r.pop("name")
        ev["return"] = [r]
        if r.get("type", "").startswith("core::result::Result") and r.get("value", "").startswith("Err("):
            ev["error"] = True
    w = watches(fn) if not unwound else None  # its frame is gone
    if w:
        ev["watches"] = w
    W.write(ev)


def set_returns(fn, on):
    for r in fn.rets or ():
        if r.enabled != on:
            r.enabled = on


def x86_return(frame, fn):  # fn: the Variant
    """The return value at a ret instruction, by the System V x86-64 ABI
    (what rustc and g++ follow for the values gdb can show): scalars and
    small aggregates in rax:rdx and xmm0:xmm1, the rest in memory that rax
    points to. None for no value."""
    t = fn.rtype
    if t is None:
        return None
    rt = t.strip_typedefs()
    size = rt.sizeof
    if size == 0 or rt.code == gdb.TYPE_CODE_VOID:
        return None
    if size > 16 or rt.code in (gdb.TYPE_CODE_ARRAY,):
        addr = int(frame.read_register("rax"))
        return gdb.Value(addr).cast(t.pointer()).dereference()
    if fn.classes is None:
        fn.classes = (fn.file.endswith(".rs") and rust_pair(rt, size)) or \
            [(8 * i, 8, c) for i, c in enumerate(eightbytes(rt, size))]
    ints, sses = ["rax", "rdx"], ["xmm0", "xmm1"]
    buf = bytearray(max(size, 8 * len(fn.classes)))
    for off, n, c in fn.classes:  # registers read only as needed: each read costs
        if c == "sse":
            reg = int(frame.read_register(sses.pop(0))["v2_int64"][0])
        else:
            reg = int(frame.read_register(ints.pop(0)))
        buf[off:off + n] = (reg & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")[:n]
    buf = bytes(buf)
    if rt.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION) and not holds_pointer(rt, 0):
        # gdb 13 fails an internal assertion printing a Rust enum with data
        # (Some(59)) that is not in memory: put it below the stack pointer,
        # where the returning function's frame was. (One holding a pointer
        # would print it as nothing, Some(): gdb's failure says more.)
        try:
            addr = (int(frame.read_register("rsp")) - 256) & ~15
            gdb.selected_inferior().write_memory(addr, buf[:size])
            return gdb.Value(addr).cast(t.pointer()).dereference()
        except (gdb.error, gdb.MemoryError, RuntimeError):
            pass
    return gdb.Value(buf[:size], t)


def holds_pointer(t, depth):
    t = t.strip_typedefs()
    if t.code in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF) or depth >= 8:
        return True
    if t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ARRAY):
        try:
            if t.code == gdb.TYPE_CODE_ARRAY:
                return holds_pointer(t.target(), depth + 1)
            return any(holds_pointer(f.type, depth + 1) for f in t.fields() if f.type is not None)
        except (gdb.error, RuntimeError, TypeError):
            return True
    return False


def rust_pair(t, size):
    """Where rustc returns a value made of two scalars that share the first
    eightbyte (Option<u8>, (u32, u32), Result<u32, u32>): each in a
    register of its own, (tag in al, value in dl), not packed as C does.
    None for any other value, which C's rules read right."""
    at = {}

    def walk(t, off, depth):
        t = t.strip_typedefs()
        if t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION) and depth < 8:
            for f in t.fields():  # an enum: its discriminant, then each variant at 0
                if hasattr(f, "bitpos") and f.type is not None:
                    if not walk(f.type, off + f.bitpos // 8, depth + 1):
                        return False
            return True
        if t.code == gdb.TYPE_CODE_ARRAY or depth >= 8:
            return False
        if t.sizeof:
            at.setdefault(off, set()).add((t.sizeof, "sse" if t.code == gdb.TYPE_CODE_FLT else "int"))
        return True

    try:
        if not walk(t, 0, 0):
            return None
    except (gdb.error, RuntimeError, TypeError):
        return None
    offs = sorted(at)
    if len(offs) != 2 or offs[0] != 0 or offs[1] >= 8 or any(len(at[o]) != 1 for o in offs):
        return None
    return [(o,) + next(iter(at[o])) for o in offs]


def eightbytes(t, size):
    """The class of each eightbyte of a small value: sse when it holds
    floating point only, else integer."""
    n = (size + 7) // 8
    floats, others = [False] * n, [False] * n

    def walk(t, bit, depth):
        t = t.strip_typedefs()
        if t.code == gdb.TYPE_CODE_FLT:
            floats[min(bit // 64, n - 1)] = True
        elif t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION) and depth < 8:
            fs = t.fields()
            if not fs:
                others[min(bit // 64, n - 1)] = True
            for f in fs:
                if hasattr(f, "bitpos") and f.type is not None:
                    walk(f.type, bit + f.bitpos, depth + 1)
        else:
            others[min(bit // 64, n - 1)] = True

    try:
        walk(t, 0, 0)
    except (gdb.error, RuntimeError, TypeError):
        return ["int"] * n
    return ["sse" if floats[i] and not others[i] else "int" for i in range(n)]


class Enter(gdb.Breakpoint):
    def __init__(self, fn):
        # -qualified: "add" must not also stop in every Class::add
        super().__init__("-qualified -function " + fn.name, internal=True)
        self.fn = fn

    def stop(self):
        try:
            enter(self.fn)
        except Exception as e:
            warn("enter of %s: %s" % (self.fn.name, e))
        return False


X86 = None  # whether ret breakpoints work here (x86-64)


def returns(var, frame):
    """Set the ret breakpoints of a variant, once, at its first recorded
    call; False when this machine needs finish breakpoints instead."""
    global X86
    if X86 is None:
        X86 = frame.architecture().name().startswith("i386:x86-64")
    if not X86:
        return False
    fn = var.fn
    if fn.rets is None:
        fn.rets = []
    if var.rets is None:
        var.rets = []
        block = frame.block()
        while block is not None and block.function is None:
            block = block.superblock
        fsym = frame.function()
        var.rtype = fsym.type.target() if fsym is not None and fsym.type is not None else None
        if block is not None:
            for insn in frame.architecture().disassemble(block.start, block.end - 1):
                if insn["asm"].split()[0].startswith("ret"):
                    var.rets.append(Return(var, insn["addr"]))
        fn.rets.extend(var.rets)
        if not var.rets:
            warn("no return found in %s: its exits are read by finish breakpoints" % fn.name)
    return bool(var.rets)


def reentered(fn):
    """Whether this stop is a recorded call of fn coming back to its entry
    breakpoint: a body that starts with a loop jumps back there at each
    turn, in the same frame (a new call, recursive or not, has a frame of
    its own). The calls above it on the stack are gone."""
    key = thread_key()
    stack = STACKS.get(key)
    if not stack or not any(c.fn is fn for c in stack):
        return False
    older = gdb.newest_frame().older()
    if older is None:
        return False
    cfa = int(older.read_register("sp"))
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].fn is fn and stack[i].cfa == cfa:
            unwind_below(key, stack, i)
            return True
    return False


def enter(fn):
    if reentered(fn):
        return
    fn.calls += 1
    n = fn.calls
    if (n > FULL and (n - FULL) % EVERY != 0) or W.full():
        return  # counted: Meta.dropped is calls minus recorded ones, twice
    t = now()
    key = thread_key()
    stack = STACKS.setdefault(key, [])
    frame = gdb.newest_frame()
    cfa = 0
    older = frame.older()
    if older is not None:
        cfa = int(older.read_register("sp"))
    if cfa:
        # calls whose frames are gone ended without returning
        j = len(stack)
        while j > 0 and stack[j - 1].cfa and stack[j - 1].cfa <= cfa:
            j -= 1
        unwind_below(key, stack, j - 1)
    var = variant(fn, frame)
    ev = {"type": "enter", "t": t, "pid": key[1], "thread": str(key[0]), "function": fn.name,
          "file": var.file, "line": var.line}
    if stack:
        ev["depth"] = len(stack)
        ev["parent"] = stack[-1].id
    a = arguments(frame)
    if a:
        ev["args"] = a
    w = watches(fn)
    if w:
        ev["watches"] = w
    if n > FULL:
        ev["sampled"] = True
    ev["call"] = n
    eid = W.write(ev)
    if not eid:
        return
    fn.recorded += 1
    call = Call(eid, t, var, cfa)
    stack.append(call)
    armed = bool(var.rets) and all(r.enabled for r in var.rets)
    if cfa and returns(var, frame):
        fn.pending += 1
        if n > FULL:
            set_returns(fn, True)
        if not armed and any(r.addr == frame.pc() for r in var.rets):
            # A leaf without a prologue stops at its ret: a ret breakpoint
            # set or enabled only now does not stop for this call.
            pop(key, call, x86_return(frame, var))
        return
    try:
        Exit(frame, fn, call, key)
    except (ValueError, gdb.error, RuntimeError) as e:
        stack.pop()
        warn("no return value for %s: %s" % (fn.name, e))


def warn(msg):
    if msg not in WARNINGS and len(WARNINGS) < 20:
        WARNINGS.append(msg)


def rust_printers(fns):
    """Load Rust's own pretty printers (rust-gdb's) when the program is Rust."""
    if not any(fn.file.startswith("library/") or "/rustc/" in fn.file for fn in fns[:2000]):
        return
    try:
        root = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True, timeout=10).stdout.strip()
        etc = os.path.join(root, "lib", "rustlib", "etc")
        if os.path.isdir(etc):
            import sys
            sys.path.insert(0, etc)
            import gdb_lookup
            gdb_lookup.register_printers(gdb.current_progspace())
    except Exception:
        pass


def complete(meta, chosen):
    """Fill in the meta's counts at the end."""
    # Calls still on a stack never returned: their thread ended in a
    # panic or the program exited under them.
    for key, stack in list(STACKS.items()):
        unwind_below(key, stack, -1)
    W.dropped += sum(2 * (fn.calls - fn.recorded) for fn in chosen.values())
    calls = {fn.name: fn.calls for fn in chosen.values() if fn.calls}
    if calls:
        meta["calls"] = calls
    if WARNINGS:
        meta.setdefault("warnings", []).extend(WARNINGS)


def on_kill(meta, chosen):
    """gdb is quitting before the program ended (SIGTERM from strobe's
    timeout, a cancel or the stuck detector): end the file all the same."""
    if W is None or W.f.closed:
        return
    warn("stopped before the program ended: the run was killed (timeout, cancel or stuck)")
    complete(meta, chosen)
    W.meta(meta)


def finish(meta, code=None, sig=None):
    W.meta(meta)
    if sig:
        # die as the program died, without a core of gdb
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        time.sleep(1)
    os._exit(code if code is not None else 0)


T0 = time.time()


def mark(what):
    """Timings for STROBE_GDB_LOG."""
    print("strobe: %.3fs %s" % (time.time() - T0, what))


def rustdoc_doctest(path):
    """rustdoc builds a doctest (or a crate's merged doctests) as rust_out in
    a rustdoctest* temporary directory, which cargo runs through its runner.
    It compiles the example without debug info: the crate's functions it
    calls have theirs from the library, and an example that calls none (a
    generic, a macro, a constant) has none to miss."""
    return os.path.basename(path) == "rust_out" and os.path.basename(os.path.dirname(path)).startswith("rustdoctest")


def main():
    global W
    quiet()
    W = Writer()
    version = gdb.VERSION.split()[0] if gdb.VERSION else "?"
    meta = {"tracer": "gdb " + version}
    chosen = {}
    atexit.register(on_kill, meta, chosen)
    fns = list_functions()
    program = gdb.current_progspace().filename or "the program"
    if not any(is_project(fn) for fn in fns) and not rustdoc_doctest(program):
        # std's line tables are no debug info of the project's own code
        meta["warnings"] = ["no debug info: %s has none for the project's own functions, so nothing of it can be traced: "
                            "build the tests with debug info (cargo's test profile has it, --release does not; CMake: -DCMAKE_BUILD_TYPE=Debug; or -g)"
                            % os.path.basename(program)]
    mark("listed %d functions" % len(fns))
    rust_printers(fns)
    mark("printers")
    matchers = [Matcher(p) for p in SPEC.get("patterns") or []]
    matched, unmatched = [], []
    for m in matchers:
        hits = select(m, fns)
        if not hits:
            unmatched.append({"pattern": m.raw, "nearest": nearest(m.raw, fns) if m.kind == "name" else []})
        for fn in hits:
            chosen.setdefault(fn.name, fn)
    for w in SPEC.get("watches") or []:
        on = {}
        for p in w.get("on") or []:
            for fn in select(Matcher(p), fns):
                on[fn.name] = fn
        for fn in on.values():
            chosen.setdefault(fn.name, fn).watches.append(w["variable"])
    if len(chosen) > MAX_FUNCS:
        counts = sorted(((len(select(m, fns)), m.raw) for m in matchers), reverse=True)
        meta["refused"] = "the trace patterns match %d functions, more than %d: narrow %s (%d functions), e.g. name a module or a file" % (
            len(chosen), MAX_FUNCS, counts[0][1] if counts else "them", counts[0][0] if counts else len(chosen))
        say("trace refused: " + meta["refused"])
        finish(meta, code=125)
    for fn in chosen.values():
        try:
            Enter(fn)
            matched.append(fn.name)
        except (gdb.error, RuntimeError) as e:
            warn("cannot trace %s: %s" % (fn.name, e))
    meta["matched"] = matched
    if unmatched:
        meta["unmatched"] = unmatched
    mark("breakpoints")
    try:
        gdb.execute("run", to_string=True)
        while gdb.selected_inferior().pid:
            gdb.execute("continue", to_string=True)
    except gdb.error as e:
        warn("gdb: %s" % e)
    mark("ran")
    complete(meta, chosen)
    code = gdb.convenience_variable("_exitcode")
    sig = gdb.convenience_variable("_exitsignal")
    if sig is not None:
        finish(meta, sig=int(sig))
    finish(meta, code=int(code) if code is not None else 1)


if gdb.current_progspace().filename is None:
    redirect()  # -iex: nothing loaded yet
else:
    try:
        main()
    except Exception as e:  # a tracer that fails must not pass for a run that passed
        say("the gdb tracer failed: %s" % e)
        os._exit(125)
