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


def project_frame(tb, root):
    """The innermost frame of tb in the project's code, as (relative path,
    line); (None, 0) when every frame is elsewhere."""
    found = (None, 0)
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if in_project(fn, root):
            found = (os.path.relpath(fn, root), tb.tb_lineno)
        tb = tb.tb_next
    return found


def exception_type(exc):
    t = type(exc)
    if t.__module__ in ("builtins", "exceptions"):
        return t.__qualname__
    return t.__module__ + "." + t.__qualname__


def describe(exc, tb, root):
    """The failure fields of an exception: type, message and the project
    frame it came from."""
    file, line = project_frame(tb, root)
    try:
        msg = str(exc)
    except Exception:
        msg = "<unprintable %s>" % type(exc).__name__
    return {"type": exception_type(exc), "msg": clip(msg), "file": file, "line": line}
