#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

TEST_CASE("before the crash") { CHECK(1 + 1 == 2); }

TEST_CASE("null write") {
  int* volatile p = nullptr;
  *p = 1;
  CHECK(true);
}

TEST_CASE("after the crash") { CHECK(true); }
