// For --gtest_repeat and --gtest_shuffle: a test that fails on its second
// run only, one that always passes, a skip with a message, and a death
// test whose child dies with other words than it expects.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

static int runs = 0;
TEST(Flaky, FailsOnSecondRun) {
  ++runs;
  EXPECT_NE(runs, 2) << "run " << runs;
}

TEST(Stable, Passes) { EXPECT_EQ(1 + 1, 2); }

TEST(Skip, WithMessage) { GTEST_SKIP() << "needs a GPU"; }

static void outOfMemory() {
  std::fprintf(stderr, "fatal: out of memory\n");
  std::abort();
}
TEST(Death, WrongRegex) { EXPECT_DEATH(outOfMemory(), "segmentation fault"); }
