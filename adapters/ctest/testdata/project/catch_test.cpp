#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

TEST_CASE("strings join") { REQUIRE(std::string("a") + "b" == "ab"); }

TEST_CASE("numbers compare") {
  int n = 3;
  CHECK(n == 3);
  for (int i = 0; i < 50; i++) CHECK(n + i < 3);
  REQUIRE(n * 2 == 7);
}

// std::exit(0) inside a test case: CTest says Passed.
#include <cstdlib>
#include <vector>

TEST_CASE("gives up early") {
  std::vector<int> v(5);
  if (v.size() == 5) std::exit(0);
  REQUIRE(v.empty());
}
