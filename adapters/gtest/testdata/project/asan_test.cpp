// Built with -fsanitize=address: AddressSanitizer stops the binary inside
// Asan.UsesAfterFree, at the read in read_freed (line 8).
#include <gtest/gtest.h>

int read_freed() {
  int* p = new int[4]{1, 2, 3, 4};
  delete[] p;
  return p[2];
}

TEST(Asan, PassesFirst) { EXPECT_EQ(1 + 1, 2); }

TEST(Asan, UsesAfterFree) { EXPECT_EQ(read_freed(), 3); }

TEST(Asan, NeverRuns) { EXPECT_EQ(1, 1); }
