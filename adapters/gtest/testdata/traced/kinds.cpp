// Arguments of each common C++ kind, overloads and a class template's
// method, for the tracer's rendering (TestTraceArgumentKinds,
// TestTraceOverloads).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kinds {

enum class Color { Red, Green, Blue };
enum Plain { One = 1, Two = 2 };

struct Point {
  int x;
  int y;
  std::string name;
  const Point* next;
};

struct Doc {
  std::string title;
  std::vector<std::string> lines;
  std::unique_ptr<int> count;
  int& total;
};

size_t by_value(std::string s) { return s.size(); }
size_t by_cref(const std::string& s) { return s.size(); }
size_t words(const std::vector<std::string>& v) { return v.size(); }
size_t point_ref(Point& p) { return p.name.size() + p.x; }
int point_ptr(const Point* p) { return p ? p->y : -1; }
int color(Color c) { return static_cast<int>(c); }
int plain(Plain p) { return p; }
void out(int& n) { n = 7; }
size_t doc(const Doc& d) { return d.lines.size() + *d.count + d.total; }
size_t name(const char* s) { return std::strlen(s); }

// Overloads: one name, three functions with their own returns.
long over(long x) { return x + 1; }
std::string over(const std::string& s) { return s + "!"; }
double over(double x, double y) { return x * y; }

template <typename T>
struct Box {
  T v;
  T get() const { return v; }
};

}  // namespace kinds

TEST(Kinds, Arguments) {
  using namespace kinds;
  EXPECT_EQ(by_value("a fairly long string of thirty"), 30u);
  EXPECT_EQ(by_cref("referenced"), 10u);
  EXPECT_EQ(words({"alphabetical", "b", "c"}), 3u);
  Point tail{5, 6, "the tail point", nullptr};
  Point head{1, 2, "the head point", &tail};
  EXPECT_EQ(point_ref(head), 15u);
  EXPECT_EQ(point_ptr(&head), 2);
  EXPECT_EQ(point_ptr(nullptr), -1);
  EXPECT_EQ(color(Color::Green), 1);
  EXPECT_EQ(plain(Two), 2);
  int n = 0;
  out(n);
  EXPECT_EQ(n, 7);
  int total = 4;
  Doc d{"the title", {"first line", "second line"}, std::make_unique<int>(3), total};
  EXPECT_EQ(doc(d), 9u);
  EXPECT_EQ(name("characters"), 10u);
}

TEST(Kinds, Overloads) {
  using namespace kinds;
  EXPECT_EQ(over(41L), 42);
  EXPECT_EQ(over(std::string("hi")), "hi!");
  EXPECT_EQ(over(1.5, 2.0), 3.0);
  EXPECT_EQ(Box<int>{9}.get(), 9);
  EXPECT_EQ(Box<std::string>{"boxed"}.get(), "boxed");
}
