#include <cstdlib>
#include <gtest/gtest.h>

int* nowhere() { return nullptr; }

TEST(Crash, DereferencesNull) {
  EXPECT_EQ(1, 1);
  *nowhere() = 42;
}

TEST(Crash, Aborts) {
  std::abort();
}

TEST(Crash, Survives) { EXPECT_EQ(1, 1); }

// Ends the binary with code 0 inside the test: CTest says Passed.
TEST(Crash, ExitsZero) {
  std::exit(0);
}
