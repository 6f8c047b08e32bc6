// marker prints a timestamped line when a fixture reaches the point where it
// blocks or starts spinning, so benchmarks can time the verdict from there.
#pragma once
#include <cstdio>
#include <ctime>
static inline void marker(const char* what) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  std::printf("STROBE-MARK %s %lld.%09ld\n", what, (long long)ts.tv_sec, ts.tv_nsec);
  std::fflush(stdout);
}
