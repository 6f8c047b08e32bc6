#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

static int twice(int n) { return n * 2 + (n > 2 ? 1 : 0); }

TEST_CASE("twice doubles small numbers") {
  CHECK(twice(1) == 2);
  CHECK(twice(2) == 4);
}

TEST_CASE("twice doubles every number") {
  INFO("n is ", 3);
  CHECK(twice(3) == 6);
  CHECK(twice(4) == 8);
}

TEST_CASE("vector grows") {
  std::vector<int> v;
  SUBCASE("push") {
    v.push_back(1);
    REQUIRE(v.size() == 2);
    CHECK(v[0] == 1);
  }
  SUBCASE("empty") { CHECK(v.empty()); }
}

static int parse(const char* s) {
  if (*s == 'x') throw std::invalid_argument("not a number: x");
  return *s - '0';
}

TEST_CASE("parse throws") { CHECK(parse("x") == 0); }

TEST_CASE("parse escapes") { parse("x"); }

TEST_CASE("parse a digit") { CHECK_EQ(parse("7"), 7); }

TEST_CASE("no throw expected") { CHECK_THROWS(parse("1")); }
