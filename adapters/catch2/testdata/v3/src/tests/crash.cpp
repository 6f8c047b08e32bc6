#include <catch2/catch_test_macros.hpp>
#include <cstdlib>

TEST_CASE("passes first") { REQUIRE(1 == 1); }

TEST_CASE("dereferences null", "[crash]") {
    int* p = nullptr;
    REQUIRE(p == nullptr);
    volatile int x = *p;
    (void)x;
}

TEST_CASE("aborts", "[abort]") {
    CHECK(true);
    std::abort();
}

TEST_CASE("never runs") { REQUIRE(true); }
