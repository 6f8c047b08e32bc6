"""Python hangs and honest slow work for the stuck detector's tests.

Usage: python3 hang.py MODE [SECONDS]

With STROBE_PY_REGISTER set to a file, that file (strobe's faulthandler
registration, stuck.PythonStacksSnippet) runs first, as strobe's pytest
plugin or unittest runner would run it.
"""

import os
import sys
import threading
import time

def marker(what):
    """Timestamps the moment the fixture blocks or starts spinning, in
    $STROBE_MARK_FILE when set (the benchmarks time verdicts from it)."""
    path = os.environ.get("STROBE_MARK_FILE")
    if path:
        with open(path, "a") as f:
            f.write("STROBE-MARK %s %.9f\n" % (what, time.time()))


lock_a = threading.Lock()
lock_b = threading.Lock()


def lock_a_then_b(ready):
    with lock_a:
        ready.wait()
        with lock_b:
            pass


def lock_b_then_a(ready):
    with lock_b:
        ready.wait()
        marker("deadlock")
        with lock_a:
            pass


def deadlock():
    # Lock order: each thread holds one lock and waits for the other.
    ready = threading.Barrier(2)
    t = threading.Thread(target=lock_a_then_b, args=(ready,), name="worker-ab")
    t.start()
    lock_b_then_a(ready)
    t.join()


def spin_forever():
    marker("busy")
    done = False
    while not done:
        pass


def sleep(seconds):
    time.sleep(seconds)


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def compute_fib(seconds):
    # Honest recursive work: bounded by time, silent throughout.
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        fib(22)
        n += 1
    return n


def sieve(limit):
    marks = bytearray([1]) * (limit + 1)
    marks[0:2] = b"\x00\x00"
    for i in range(2, limit + 1):
        if marks[i]:
            for j in range(i * i, limit + 1, i):
                marks[j] = 0
    return sum(marks)


def compute_sieve(seconds):
    end = time.monotonic() + seconds
    limit = 200_000
    while time.monotonic() < end:
        sieve(limit)
        limit += 1
    return limit


def main():
    register = os.environ.get("STROBE_PY_REGISTER")
    if register:
        with open(register) as f:
            exec(compile(f.read(), register, "exec"), {})
    mode = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 9
    print("start", mode, flush=True)
    if mode == "deadlock":
        deadlock()
    elif mode == "busy":
        spin_forever()
    elif mode == "sleep":
        sleep(seconds)
    elif mode == "async":
        import asyncio

        asyncio.run(handshake())
    elif mode == "fib":
        compute_fib(seconds)
    elif mode == "sieve":
        compute_sieve(seconds)
    elif mode == "peer":
        ask_peer(int(sys.argv[2]))
    else:
        sys.exit("unknown mode " + mode)
    print("done", mode, flush=True)


async def wait_for_reply(ready):
    marker("blocked")
    await ready.wait()


async def handshake():
    # An event nobody sets: the coroutine waits on no thread's stack, and
    # the main thread sits in the event loop's select without a timeout.
    import asyncio

    await wait_for_reply(asyncio.Event())


def ask_peer(port):
    """Joins a worker thread that asks 127.0.0.1:PORT and reads the reply:
    a slow peer (the test's own server) keeps the join waiting, not stuck."""
    import socket

    reply = []

    def fetch():
        with socket.create_connection(("127.0.0.1", port)) as c:
            c.sendall(b"ping")
            reply.append(c.recv(100))

    worker = threading.Thread(target=fetch)
    worker.start()
    worker.join()  # a lock wait beside the worker's read without a timeout
    print("reply", reply[0].decode(), flush=True)


if __name__ == "__main__":
    main()
