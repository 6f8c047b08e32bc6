#include <catch2/catch.hpp>

TEST_CASE("parses the header") {
  REQUIRE(true);
}
