#include <catch2/catch_session.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
    std::printf("custom main setting up\n");
    int result = Catch::Session().run(argc, argv);
    return result;
}

TEST_CASE("custom passes") { REQUIRE(2 + 2 == 4); }
TEST_CASE("custom fails") { CHECK(2 + 2 == 5); }
