// Tests that fail several times before they end: the answer names every
// failure after the first, a few of them, and counts the rest.
#include <gtest/gtest.h>

TEST(Many, Expects) {
  EXPECT_EQ(1 + 1, 3);
  EXPECT_TRUE(false) << "second";
  EXPECT_STREQ("a", "b");
}

TEST(Many, ExpectThenAssert) {
  EXPECT_EQ(1, 2) << "first";
  ASSERT_EQ(3, 4) << "stops here";
  EXPECT_EQ(5, 6) << "never reached";
}

TEST(Many, Loop) {
  for (int i = 0; i < 50; i++) EXPECT_LT(i, 0) << "i=" << i;
}
