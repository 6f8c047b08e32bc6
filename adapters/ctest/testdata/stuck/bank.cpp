#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

std::mutex a, b;

void lock_a_then_b() {
  std::lock_guard<std::mutex> la(a);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard<std::mutex> lb(b);
}

void lock_b_then_a() {
  std::lock_guard<std::mutex> lb(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard<std::mutex> la(a);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "transfers") == 0) {
    std::thread t1(lock_a_then_b), t2(lock_b_then_a);
    t1.join();
    t2.join();
  }
  return 0;
}
