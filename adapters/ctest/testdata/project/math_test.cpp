#include <gtest/gtest.h>

int add(int a, int b) { return a + b; }

TEST(Math, Adds) { EXPECT_EQ(add(2, 2), 4); }

TEST(Math, AddsWrongly) {
  int sum = add(2, 2);
  EXPECT_EQ(sum, 5);
  EXPECT_GT(sum, 10) << "sum is " << sum;
}

TEST(Math, SkipsOnPurpose) { GTEST_SKIP() << "not on this platform"; }

TEST(Math, PrintsOutput) {
  std::cout << "hello from the test" << std::endl;
  EXPECT_TRUE(true);
}
