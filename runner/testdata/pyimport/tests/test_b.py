# Deadlocks as it is imported: before any of its tests can run.
import threading

lock = threading.Lock()
lock.acquire()
lock.acquire()  # line 6


def test_never():
    pass
