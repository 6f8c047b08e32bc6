#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

static std::mutex a, b;

__attribute__((noinline)) void lock_a_then_b() {
  std::lock_guard<std::mutex> first(a);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard<std::mutex> second(b);
}

__attribute__((noinline)) void lock_b_then_a() {
  std::lock_guard<std::mutex> first(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard<std::mutex> second(a);
}

TEST(Bank, Opens) { EXPECT_TRUE(true); }

TEST(Bank, TransfersBetweenAccounts) {
  std::thread t1(lock_a_then_b), t2(lock_b_then_a);
  t1.join();
  t2.join();
}

// Never runs: the run is stopped at the deadlock above, and its hint gives
// the command for the rest.
TEST(Bank, ClosesAfter) { EXPECT_TRUE(true); }
