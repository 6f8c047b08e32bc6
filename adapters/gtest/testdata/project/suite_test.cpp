// Failures outside any test: a suite's SetUpTestSuite and TearDownTestSuite
// and a global environment's TearDown. GoogleTest counts no failed test for
// them ("0 FAILED TESTS", "2 FAILED TEST SUITES") and exits 1.
#include <gtest/gtest.h>

class SuiteSetUp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { FAIL() << "no database"; }
};

TEST_F(SuiteSetUp, First) { EXPECT_EQ(1, 1); }
TEST_F(SuiteSetUp, Second) { EXPECT_EQ(2, 2); }

class SuiteTearDown : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { ADD_FAILURE() << "left files behind"; }
};

TEST_F(SuiteTearDown, Only) { EXPECT_EQ(1, 1); }

class Env : public ::testing::Environment {
 public:
  void TearDown() override { ADD_FAILURE() << "global teardown failed"; }
};

static ::testing::Environment* const env = ::testing::AddGlobalTestEnvironment(new Env);
