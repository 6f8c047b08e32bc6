#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

int add(int a, int b) { return a + b; }

TEST(UnitMath, Adds) { EXPECT_EQ(add(2, 2), 4); }

TEST(UnitMath, AddsWrongly) {
  int sum = add(2, 2);
  EXPECT_EQ(sum, 5);
  EXPECT_TRUE(sum > 10) << "sum is " << sum;
}

TEST(UnitMath, Throws) { throw std::runtime_error("boom"); }

TEST(UnitMath, SkipsOnPurpose) { GTEST_SKIP() << "not on this platform"; }

TEST(UnitMath, DISABLED_NotYet) { FAIL() << "disabled tests do not run"; }

class IntegrationParam : public ::testing::TestWithParam<int> {};
TEST_P(IntegrationParam, IsEven) { EXPECT_EQ(GetParam() % 2, 0) << "odd: " << GetParam(); }
INSTANTIATE_TEST_SUITE_P(Small, IntegrationParam, ::testing::Values(2, 3, 4));

template <typename T>
class UnitTyped : public ::testing::Test {};
using Widths = ::testing::Types<int, long>;
TYPED_TEST_SUITE(UnitTyped, Widths);
TYPED_TEST(UnitTyped, DefaultIsZero) { EXPECT_EQ(TypeParam(), 0); }

TEST(E2EDeath, ExitsWithOne) { EXPECT_EXIT(std::exit(1), ::testing::ExitedWithCode(1), ""); }
TEST(E2EDeath, DoesNotDie) { EXPECT_DEATH(std::cerr << "alive", "never printed"); }

TEST(Other, PrintsOutput) { std::cout << "hello from the test" << std::endl; }
