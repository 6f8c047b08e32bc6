#include <catch2/catch_test_macros.hpp>
#include <mutex>
#include <thread>
#include <chrono>

TEST_CASE("quick one") { REQUIRE(true); }

static std::mutex a, b;
TEST_CASE("transfers between accounts", "[deadlock]") {
    std::thread t([] {
        std::lock_guard<std::mutex> lb(b);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::lock_guard<std::mutex> la(a);
    });
    {
        std::lock_guard<std::mutex> la(a);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::lock_guard<std::mutex> lb(b);
    }
    t.join();
}

static volatile bool stop = false;
TEST_CASE("spins for ever", "[loop]") {
    unsigned long n = 0;
    while (!stop) n++;
    REQUIRE(n > 0);
}
