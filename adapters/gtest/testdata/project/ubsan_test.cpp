// Built with -fsanitize=undefined: a signed overflow in add (line 9).
// ubsan_test is built with -fno-sanitize-recover (the report ends the
// binary), ubsan_recover_test without (the report is printed and the test
// goes on, and passes as far as GoogleTest knows).
#include <gtest/gtest.h>
#include <climits>

int add(int a, int b) {
  return a + b;
}

TEST(Ubsan, PassesFirst) { EXPECT_EQ(add(1, 1), 2); }

TEST(Ubsan, Overflows) {
  volatile int big = INT_MAX;
  EXPECT_NE(add(big, 1), 0);
}

TEST(Ubsan, RunsAfter) { EXPECT_EQ(add(2, 2), 4); }
