"""strobe's Python stack dumps: importing this module registers faulthandler
so that SIGUSR2 dumps every thread's Python stack into
$STROBE_STACKS_DIR/py-<pid>.txt. strobe's stuck detector signals a process
only when that file exists and the process catches SIGUSR2. A forked child
registers its own file (the parent's would mix two processes' dumps).
Without the variable, or when the program has its own SIGUSR2 handler, it
does nothing (strobe then reads the stacks with py-spy)."""

def _strobe_register_stacks():
    import faulthandler
    import os
    import signal

    directory = os.environ.get("STROBE_STACKS_DIR")
    if not directory or not hasattr(signal, "SIGUSR2"):
        return
    if signal.getsignal(signal.SIGUSR2) not in (signal.SIG_DFL, None):
        return  # the program's own handler: strobe reads the stacks with py-spy
    try:
        f = open(os.path.join(directory, "py-%d.txt" % os.getpid()), "a")
    except OSError:
        return
    faulthandler.register(signal.SIGUSR2, file=f, all_threads=True, chain=False)
    # faulthandler writes to the descriptor: the file must stay open.
    global _strobe_stacks_file
    _strobe_stacks_file = f


_strobe_register_stacks()
try:
    import os as _strobe_os

    _strobe_os.register_at_fork(after_in_child=_strobe_register_stacks)
except (AttributeError, ImportError):
    pass
