#include <catch2/catch.hpp>

TEST_CASE("parses the body") {
  REQUIRE(true);
}

// Copied from header_test.cpp and not renamed.
TEST_CASE("parses the header") {
  REQUIRE(1 + 1 == 2);
}
