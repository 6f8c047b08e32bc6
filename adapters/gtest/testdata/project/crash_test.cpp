#include <gtest/gtest.h>

int* nowhere() { return nullptr; }

TEST(Crash, PassesFirst) { EXPECT_EQ(1 + 1, 2); }

TEST(Crash, DereferencesNull) {
  EXPECT_EQ(1, 1);
  *nowhere() = 42;
}

TEST(Crash, NeverRuns) { EXPECT_EQ(1, 1); }
