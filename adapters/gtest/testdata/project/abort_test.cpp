#include <gtest/gtest.h>

#include <cstdlib>

TEST(Abort, PassesFirst) { EXPECT_EQ(1 + 1, 2); }

TEST(Abort, CallsAbort) { std::abort(); }

TEST(Abort, NeverRuns) { EXPECT_EQ(1, 1); }
