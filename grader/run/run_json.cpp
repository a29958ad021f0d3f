#include "run/run_json.h"

#include <array>
#include <cmath>
#include <limits>

#include "files/disk_usage.h"

namespace gpulab {

namespace {

using nlohmann::json;

// The first of two passes over a run's JSON: its shape alone, nothing built, stopped at the
// level past the limit or at the first error. (nlohmann's parser callback, the other way to stop
// at a depth, takes time that grows with the square of an array's objects.) The second pass
// builds the value only where the first found nothing wrong.
class ShapeCheck final : public json::json_sax_t {
 public:
  bool too_deep = false;
  int error_id = 0;       // nlohmann's exception id, 0 for none
  size_t error_byte = 0;  // where the parser stopped, from 1

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool key(string_t&) override { return true; }
  bool start_object(std::size_t) override { return deeper(); }
  bool start_array(std::size_t) override { return deeper(); }
  bool end_object() override { return shallower(); }
  bool end_array() override { return shallower(); }
  bool parse_error(std::size_t byte, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_id = e.id;
    error_byte = byte;
    return false;
  }

 private:
  int depth_ = 0;
  bool deeper() {
    too_deep = ++depth_ > kRunJsonDepthLimit;
    return !too_deep;
  }
  bool shallower() {
    --depth_;
    return true;
  }
};

// nlohmann's id of a number past a double's range (out_of_range.406).
constexpr int kNumberOverflow = 406;

// What is wrong with `text` as a run's JSON, for the student; "" where nothing is.
std::string shape_problem(std::string_view text, const std::string& what) {
  // nlohmann reads a NUL byte as the end of the text, and JSON holds none.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    return what + " is not JSON (at byte " + std::to_string(nul + 1) + ")";
  ShapeCheck check;
  json::sax_parse(text.data(), text.data() + text.size(), &check);
  if (check.too_deep)
    return what + " is nested deeper than " + std::to_string(kRunJsonDepthLimit) + " levels";
  if (check.error_id == kNumberOverflow) return what + " holds a number beyond a double's range";
  if (check.error_id != 0)  // the parser's own message quotes the text; the byte says as much
    return check.error_byte > text.size()
               ? what + " ends before its JSON does"
               : what + " is not JSON (at byte " + std::to_string(check.error_byte) + ")";
  return {};
}

// A value in words, for a problem: a string, an array or an object by its kind (its content is
// the run's), anything else by its JSON text, which is short and gpulab's own rendering.
std::string described(const json& v) {
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return v.dump();
}

// The field `key` of `object`, taken by `take` where it has the type `wanted` names.
template <class T, class Take>
RunField<T> field_as(const json& object, const std::string& key, const char* wanted,
                     Take take) noexcept {
  RunField<T> f;
  try {
    if (!object.is_object()) {
      f.problem =
          "the record is " + described(object) + ", not an object with a field \"" + key + "\"";
      return f;
    }
    const auto it = object.find(key);
    if (it == object.end()) return f;
    f.value = take(*it);
    if (!f.value) f.problem = "field \"" + key + "\" is " + described(*it) + ", not " + wanted;
  } catch (...) {  // out of memory for the words
    f.value.reset();
  }
  return f;
}

}  // namespace

RunJson parse_run_json(std::string_view text, size_t byte_limit, const std::string& what) noexcept {
  RunJson r;
  try {
    if (text.size() > byte_limit)
      r.problem = what + " is larger than " + human_bytes(byte_limit) + ", the most gpulab reads";
    else
      r.problem = shape_problem(text, what);
    if (r.problem.empty()) r.value = json::parse(text.data(), text.data() + text.size());
  } catch (const std::bad_alloc&) {
    r.problem = what + " is too large to read";
  } catch (...) {  // the shape was checked: nothing else is expected
    r.problem = what + " could not be read";
  }
  if (!r.problem.empty()) r.value = nullptr;
  return r;
}

RunJson read_run_json(std::istream& in, size_t byte_limit, const std::string& what) noexcept {
  try {
    // One byte past the limit is enough to know the document is larger.
    std::string text;
    std::array<char, 64 * 1024> chunk{};
    while (text.size() <= byte_limit) {
      const size_t room = byte_limit - text.size();
      const size_t wanted = room < chunk.size() ? room + 1 : chunk.size();
      in.read(chunk.data(), static_cast<std::streamsize>(wanted));
      const auto got = static_cast<size_t>(in.gcount());
      text.append(chunk.data(), got);
      if (got < wanted) break;
    }
    if (in.bad()) return {nullptr, what + " could not be read"};
    return parse_run_json(text, byte_limit, what);
  } catch (...) {  // out of memory, or a stream set to throw
    RunJson r;
    r.problem = what + " could not be read";
    return r;
  }
}

RunField<std::string> string_field(const json& object, const std::string& key) noexcept {
  return field_as<std::string>(object, key, "a string", [](const json& v) {
    return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
  });
}

RunField<double> number_field(const json& object, const std::string& key) noexcept {
  return field_as<double>(object, key, "a number", [](const json& v) {
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
  });
}

RunField<long long> int_field(const json& object, const std::string& key) noexcept {
  return field_as<long long>(object, key, "a whole number", [](const json& v) {
    using Limits = std::numeric_limits<long long>;
    std::optional<long long> n;
    if (v.is_number_unsigned()) {
      if (v.get<unsigned long long>() <= static_cast<unsigned long long>(Limits::max()))
        n = v.get<long long>();
    } else if (v.is_number_integer()) {
      n = v.get<long long>();
    } else if (v.is_number_float()) {
      // 2^63 is a double exactly; every whole double below it in size fits.
      const double d = v.get<double>();
      if (d == std::trunc(d) && std::fabs(d) < 0x1p63) n = static_cast<long long>(d);
    }
    return n;
  });
}

RunField<bool> bool_field(const json& object, const std::string& key) noexcept {
  return field_as<bool>(object, key, "true or false", [](const json& v) {
    return v.is_boolean() ? std::optional<bool>(v.get<bool>()) : std::nullopt;
  });
}

RunField<const json*> object_field(const json& object, const std::string& key) noexcept {
  return field_as<const json*>(object, key, "an object", [](const json& v) {
    return v.is_object() ? std::optional<const json*>(&v) : std::nullopt;
  });
}

RunField<const json*> array_field(const json& object, const std::string& key) noexcept {
  return field_as<const json*>(object, key, "an array", [](const json& v) {
    return v.is_array() ? std::optional<const json*>(&v) : std::nullopt;
  });
}

}  // namespace gpulab
