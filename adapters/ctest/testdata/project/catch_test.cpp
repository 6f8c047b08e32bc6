#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

TEST_CASE("strings join") { REQUIRE(std::string("a") + "b" == "ab"); }

TEST_CASE("numbers compare") {
  int n = 3;
  CHECK(n == 3);
  for (int i = 0; i < 50; i++) CHECK(n + i < 3);
  REQUIRE(n * 2 == 7);
}
