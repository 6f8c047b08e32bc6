// Catch2 v3 features, by hand.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/benchmark/catch_benchmark.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

static int add(int a, int b) { return a + b; }

TEST_CASE("adds small numbers", "[unit]") {
    REQUIRE(add(2, 2) == 4);
}

TEST_CASE("adds wrongly", "[unit]") {
    int base = 2;
    INFO("base is " << base);
    CAPTURE(base);
    REQUIRE(add(base, 2) == 5);
}

TEST_CASE("checks twice", "[unit]") {
    CHECK(add(1, 1) == 3);
    CHECK(add(2, 2) == 5);
}

TEST_CASE("vector sections", "[integration]") {
    std::vector<int> v{1, 2, 3};
    SECTION("push") {
        v.push_back(4);
        SECTION("size grows") {
            std::cout << "size is " << v.size() << "\n";
            CHECK(v.size() == 5);
        }
        SECTION("size stays") {
            CHECK(v.size() == 4);
        }
    }
    SECTION("clear") {
        v.clear();
        CHECK(v.empty());
    }
}

TEST_CASE("generated values", "[unit]") {
    int x = GENERATE(1, 2, 3, 4);
    CHECK(x % 3 != 0);
}

TEMPLATE_TEST_CASE("templated sizes", "[unit][template]", int, long, char) {
    TestType v{};
    CHECK(sizeof(v) < 8);
}

TEST_CASE("skips itself", "[unit]") {
    SKIP("no database here");
    REQUIRE(false);
}

TEST_CASE("skips in a section", "[unit]") {
    SECTION("runs") { CHECK(true); }
    SECTION("skipped") { SKIP("not on this platform"); }
}

TEST_CASE("skips one generated value", "[unit]") {
    int x = GENERATE(1, 2);
    if (x == 2) SKIP("two is not supported");
    CHECK(x == 1);
}

TEST_CASE("string matcher", "[unit]") {
    using Catch::Matchers::ContainsSubstring;
    REQUIRE_THAT(std::string("hello world"), ContainsSubstring("planet"));
}

TEST_CASE("throws unexpectedly", "[integration]") {
    throw std::runtime_error("connection refused");
}

TEST_CASE("fails explicitly", "[integration]") {
    FAIL("not implemented: " << 42);
}

TEST_CASE("hidden test", "[.][unit]") {
    REQUIRE(1 == 2);
}

TEST_CASE("end to end warns", "[e2e]") {
    WARN("slow path taken");
    SUCCEED();
}

TEST_CASE("a, b [c] \"d\" ~e \\f *g") {
    REQUIRE(true);
}

TEST_CASE("should fail and does", "[!shouldfail]") {
    REQUIRE(1 == 2);
}

TEST_CASE("benchmarks adding", "[benchmark]") {
    BENCHMARK("add") { return add(3, 4); };
}

TEST_CASE("writes to stderr", "[integration]") {
    fprintf(stderr, "stderr from the test\n");
    std::cerr << "cerr from the test\n";
    CHECK(1 == 1);
}

TEST_CASE("benchmark throws", "[benchmark]") {
    BENCHMARK("throws") { throw std::runtime_error("no clock"); return 1; };
}
