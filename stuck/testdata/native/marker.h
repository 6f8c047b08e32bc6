// marker prints a timestamped line when a fixture reaches the point where it
// blocks or starts spinning (to $STROBE_MARK_FILE when set, else stdout), so
// benchmarks can time the verdict from there.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <ctime>
static inline void marker(const char* what) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  const char* path = std::getenv("STROBE_MARK_FILE");
  FILE* f = path ? std::fopen(path, "a") : stdout;
  if (!f) return;
  std::fprintf(f, "STROBE-MARK %s %lld.%09ld\n", what, (long long)ts.tv_sec, ts.tv_nsec);
  std::fflush(f);
  if (f != stdout) std::fclose(f);
}
