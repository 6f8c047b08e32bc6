"""strobe's Python stack dumps: importing this module makes SIGUSR2 dump
every thread's Python stack into $STROBE_STACKS_DIR/py-<pid>.txt (the
directory made if need be), in faulthandler's format. strobe's stuck detector signals a process only when
that file exists and the process catches SIGUSR2. A forked child registers
its own file (the parent's would mix two processes' dumps). Without the
variable, or when the program has its own SIGUSR2 handler, it does nothing
(strobe then reads the stacks with py-spy).

The dump is written by a Python signal handler, which runs in the main
thread between two bytecodes, holding the GIL (a blocked lock, sleep,
wait or read is interrupted for it and then resumed, PEP 475), not by
faulthandler.register: faulthandler's handler reads every thread's frames
from inside the C signal handler while the other threads run, and a test
whose threads were busy (idna's concurrency test, eight threads) died of
SIGSEGV under strobe's samples, three times in six. Where a handler cannot
be set (a child forked from a thread other than the main one, which then
has that thread alone), faulthandler does it."""


def _strobe_high_fd(fd):
    """fd moved to a high descriptor number. In a forked child this runs
    after the program's own fork hooks that were registered first, and the
    lowest free number is often a descriptor one of them just closed
    (filelock closes its lock's in the child, and its test checks that
    the number is closed: strobe's file took it, and the test failed
    under strobe alone)."""
    try:
        import fcntl

        high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 900)
    except (ImportError, OSError):
        return fd  # fewer descriptors allowed: the number stays
    import os

    os.close(fd)
    return high


def _strobe_register_stacks():
    import os
    import signal

    directory = os.environ.get("STROBE_STACKS_DIR")
    if not directory or not hasattr(signal, "SIGUSR2"):
        return
    current = signal.getsignal(signal.SIGUSR2)
    if current not in (signal.SIG_DFL, None) and not getattr(current, "_strobe", False):
        return  # the program's own handler: strobe reads the stacks with py-spy
    try:
        # strobe names the run's directory; the first process to register
        # makes it (its parent is strobe's own, closed to others).
        os.makedirs(directory, 0o700, exist_ok=True)
        fd = _strobe_high_fd(os.open(os.path.join(directory, "py-%d.txt" % os.getpid()), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644))
    except OSError:
        return
    dumping = [False]

    def handler(signum, frame):
        # Not within a dump: Python runs a handler between any two
        # bytecodes, a weakref callback's too, and one ran inside the
        # dump's own sys._current_frames(), whose runtime lock the nested
        # dump then waited for, for ever (signals every 5 ms, eight busy
        # threads). The dump asked for meanwhile is skipped. The write
        # comes after: a request sent once the dump is in the file finds
        # the handler free, even when it runs as the write returns.
        if dumping[0]:
            return
        dumping[0] = True
        try:
            text = _strobe_dump(frame)
        finally:
            dumping[0] = False
        if text:
            try:
                os.write(fd, text)
            except OSError:
                pass

    handler._strobe = True  # a forked child's, inherited: replaced with its own
    try:
        signal.signal(signal.SIGUSR2, handler)
        _strobe_ignore_at_exit(signal)
    except (ValueError, OSError):  # not the main thread
        import faulthandler

        f = os.fdopen(fd, "a")
        faulthandler.register(signal.SIGUSR2, file=f, all_threads=True, chain=False)
        # faulthandler writes to the descriptor: the file must stay open.
        global _strobe_stacks_file
        _strobe_stacks_file = f


def _strobe_ignore_at_exit(signal):
    """Ignore SIGUSR2 once the interpreter exits, after its threads are
    joined (a hang there still dumps): Python's finalization gives a
    handled signal back to its default action, which kills, and a dump
    asked for as a test process ended killed it (its run read as a crash).
    An ignored signal is left ignored, and strobe asks no dump of a
    process that does not catch it. atexit runs the first registered
    last."""
    import atexit

    def ignore():
        try:
            signal.signal(signal.SIGUSR2, signal.SIG_IGN)
        except (ValueError, OSError):
            pass

    atexit.register(ignore)


# faulthandler's bound on a thread's frames.
_STROBE_MAX_FRAMES = 100


def _strobe_dump(frame):
    """Every thread's stack as faulthandler writes it, for one write: the
    other threads first, then the main one (the signal's, "Current
    thread"), innermost frame first; None when it fails. frame is where
    the main thread was when the handler ran."""
    try:
        import os
        import sys
        import threading

        main = threading.main_thread().ident
        # The kernel's thread ids, which faulthandler does not say:
        # strobe tells the threads pytest or a plugin started (a socket
        # server waiting in accept) from the test's. Read without
        # threading's lock, which the interrupted code may hold.
        active = getattr(threading, "_active", {})
        frames = sys._current_frames()
        tids = {ident: getattr(active.get(ident), "native_id", None) for ident in frames if ident != main}
        _strobe_lone_tid(os, tids)
        out = []
        for ident, top in frames.items():
            if ident != main:
                out.append(_strobe_thread("Thread", ident, top, tids[ident]))
        out.append(_strobe_thread("Current thread", main, frame, os.getpid()))
        out.extend(_strobe_tasks(sys))
        return "\n".join(out).encode("utf-8", "replace")
    except Exception:
        return None


def _strobe_lone_tid(os, tids):
    """A thread started with _thread, not threading (execnet's reader in
    a pytest-xdist worker), has no native id in threading's table: when
    one thread alone lacks it and the kernel lists one thread alone that
    no other has, that one is its."""
    unknown = [ident for ident, tid in tids.items() if not tid]
    if len(unknown) != 1:
        return
    try:
        spare = set(int(t) for t in os.listdir("/proc/self/task")) - set(tids.values()) - {os.getpid()}
    except (OSError, ValueError):
        return
    if len(spare) == 1:
        tids[unknown[0]] = spare.pop()


# At most this many asyncio tasks are dumped.
_STROBE_MAX_TASKS = 20


def _strobe_tasks(sys):
    """Every pending asyncio task's await chain, innermost first, when
    asyncio is loaded: a coroutine that awaits is on no thread's stack
    (its thread sits in the event loop's select), so without it a hung
    async test shows only the loop."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return []
    tasks = []
    for _ in range(3):  # the interrupted code may be changing a task set
        try:
            tasks = []
            for name in ("_scheduled_tasks", "_all_tasks", "_eager_tasks"):
                found = getattr(asyncio.tasks, name, None)
                if found is not None:
                    tasks.extend(list(found))
            if not tasks:  # Python 3.14 keeps them in C: the running loop's
                loop = asyncio.events._get_running_loop()
                if loop is not None:
                    tasks = list(asyncio.all_tasks(loop))
            break
        except RuntimeError:
            continue
        except Exception:
            return []
    out = []
    for task in tasks:
        if len(out) == _STROBE_MAX_TASKS:
            break
        try:
            if task.done():
                continue
            out.append(_strobe_task(task))
        except Exception:
            continue
    return out


def _strobe_task(task):
    """A task's header, in faulthandler's shape with "Task" for "Thread"
    and its name in brackets, then the frames of the coroutines it awaits
    through, innermost first."""
    chain = []
    coro = task.get_coro()
    while coro is not None and len(chain) <= _STROBE_MAX_FRAMES:
        f = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if f is None:
            break
        chain.append(f)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or getattr(coro, "ag_await", None)
    name = str(task.get_name()).replace("]", ")").replace("\n", " ")
    lines = ["Task 0x%016x [%s] (most recent call first):" % (id(task), name)]
    for n, f in enumerate(reversed(chain)):
        if n == _STROBE_MAX_FRAMES:
            lines.append("  ...")
            break
        code = f.f_code
        lines.append('  File "%s", line %d in %s' % (code.co_filename, f.f_lineno or 0, code.co_name))
    return "\n".join(lines) + "\n"


def _strobe_thread(header, ident, frame, tid):
    """A thread's header in faulthandler's shape, with "tid N" when its
    kernel thread id is known, then its frames, innermost first."""
    tid = " tid %d" % tid if tid else ""
    lines = ["%s 0x%016x%s (most recent call first):" % (header, ident or 0, tid)]
    n = 0
    while frame is not None:
        if n == _STROBE_MAX_FRAMES:
            lines.append("  ...")
            break
        code = frame.f_code
        lines.append('  File "%s", line %d in %s' % (code.co_filename, frame.f_lineno or 0, code.co_name))
        frame = frame.f_back
        n += 1
    return "\n".join(lines) + "\n"


_strobe_register_stacks()
try:
    import os as _strobe_os

    _strobe_os.register_at_fork(after_in_child=_strobe_register_stacks)
except (AttributeError, ImportError):
    pass
