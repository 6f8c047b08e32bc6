#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

TEST(Abort, PassesFirst) { EXPECT_EQ(1 + 1, 2); }

// What glibc says before it aborts on a bad free().
TEST(Abort, CallsAbort) { std::fputs("free(): invalid size\n", stderr); std::abort(); }

TEST(Abort, NeverRuns) { EXPECT_EQ(1, 1); }
