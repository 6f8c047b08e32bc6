// hang misbehaves on request, for the stuck detector's tests: hang MODE [SECONDS].
// Each stuck mode blocks or spins in a function named for what it does, and
// prints a timestamped marker (marker.h) at the moment it starts to.
//
//   deadlock     two threads take two mutexes in opposite order (lock_a_then_b, lock_b_then_a)
//   busy         one thread spins forever (spin_forever)
//   pipe         reads a pipe nobody writes (read_forever)
//   child        waits for a child `sleep 1000` (wait_for_child)
//   sleep N      sleeps N silent seconds, then passes
//   work N       N seconds of CPU work across changing functions, then passes
//   workchild N  waits for a child that works N seconds, then passes
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "marker.h"

static std::mutex a, b;

__attribute__((noinline)) void lock_a_then_b() {
  std::lock_guard<std::mutex> first(a);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  marker("blocked");
  std::lock_guard<std::mutex> second(b);
}

__attribute__((noinline)) void lock_b_then_a() {
  std::lock_guard<std::mutex> first(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard<std::mutex> second(a);
}

volatile unsigned long sink;

__attribute__((noinline)) void spin_forever() {
  marker("spinning");
  unsigned long n = 1;
  for (;;) {
    n = n * 6364136223846793005UL + 1442695040888963407UL;
    sink = n;
  }
}

__attribute__((noinline)) void read_forever() {
  int fds[2];
  if (pipe(fds) != 0) std::exit(3);
  char buf[16];
  marker("blocked");
  ssize_t n = read(fds[0], buf, sizeof buf);  // the write end stays open: never returns
  std::printf("read %zd\n", n);
}

__attribute__((noinline)) void wait_for_child() {
  pid_t pid = fork();
  if (pid == 0) {
    execlp("sleep", "sleep", "1000", (char*)nullptr);
    _exit(127);
  }
  marker("blocked");
  int status;
  waitpid(pid, &status, 0);
}

// Changing work: each phase calls different functions, so no two stack
// samples agree for long.
__attribute__((noinline)) unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) unsigned long sort_some(unsigned seed) {
  std::vector<unsigned> v(200000);
  for (auto& x : v) x = seed = seed * 1103515245 + 12345;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
__attribute__((noinline)) unsigned long hash_some(unsigned seed) {
  std::string s(1 << 16, 'x');
  unsigned long h = seed;
  for (int r = 0; r < 50; r++)
    for (char c : s) h = h * 31 + c;
  return h;
}

__attribute__((noinline)) void work(double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  unsigned i = 0;
  while (std::chrono::steady_clock::now() < end) {
    switch (i++ % 3) {
      case 0: sink = fib(24 + i % 5); break;
      case 1: sink = sort_some(i); break;
      case 2: sink = hash_some(i); break;
    }
  }
}

// Work in one tight loop that fills fresh memory (a big buffer's copy or
// encode): every stack sample is the same, and the memory grows all along.
__attribute__((noinline)) void fill(double seconds) {
  const size_t size = 320UL << 20;  // 40 MiB a second for 8 s
  char* mem = static_cast<char*>(std::malloc(size));
  if (mem == nullptr) std::exit(3);
  auto start = std::chrono::steady_clock::now();
  unsigned long n = 1;
  for (size_t off = 0; off < size; off += 4096) {
    // Each page is written once its share of the time has passed.
    auto due = start + std::chrono::duration<double>(seconds * off / size);
    while (std::chrono::steady_clock::now() < due) {
      for (int i = 0; i < 1000; i++) n = n * 6364136223846793005UL + 1442695040888963407UL;
    }
    mem[off] = static_cast<char>(n);
  }
  sink = n + mem[size / 2];
  std::free(mem);
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  double secs = argc > 2 ? std::atof(argv[2]) : 0;
  std::printf("1..1\n# %s started\n", mode.c_str());
  std::fflush(stdout);
  if (mode == "deadlock") {
    std::thread t1(lock_a_then_b), t2(lock_b_then_a);
    t1.join();
    t2.join();
  } else if (mode == "busy") {
    spin_forever();
  } else if (mode == "pipe") {
    read_forever();
  } else if (mode == "child") {
    wait_for_child();
  } else if (mode == "sleep") {
    std::this_thread::sleep_for(std::chrono::duration<double>(secs));
  } else if (mode == "work") {
    work(secs);
  } else if (mode == "fill") {
    fill(secs);
  } else if (mode == "workchild") {
    pid_t pid = fork();
    if (pid == 0) {
      work(secs);
      _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  std::printf("ok 1 - %s\n", mode.c_str());
}
