#include <gtest/gtest.h>

// SetUpTestSuite fails: GoogleTest skips the suite's test and exits 1,
// which gtest_discover_tests' skip regex turns into a CTest skip.
class BadSuite : public ::testing::Test {
 public:
  static void SetUpTestSuite() { FAIL() << "suite setup broke"; }
};

TEST_F(BadSuite, Skipped) {}
