#include "grade/review_scan.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <system_error>

#include "core/review_flags.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// The longest text kept of what raised a flag (a number, a string literal), in bytes.
constexpr size_t kMatchedLimit = 40;

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// A byte that may start a name: GCC takes $ and, as UTF-8, any character beyond ASCII.
bool word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool word_char(char c) {
  return word_start(c) || digit(c);
}

// The file as the preprocessor reads it: every line splice (a backslash, the blanks GCC allows
// after it, a newline) taken out, with the file's offset of each byte that is left.
struct Spliced {
  std::string text;
  std::vector<size_t> origin;
};

Spliced spliced(std::string_view bytes) {
  Spliced s;
  s.text.reserve(bytes.size());
  s.origin.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    if (bytes[i] == '\\') {
      size_t j = i + 1;
      while (j < bytes.size() && blank(bytes[j])) ++j;
      if (j < bytes.size() && bytes[j] == '\n') {
        i = j + 1;
        continue;
      }
    }
    s.text.push_back(bytes[i]);
    s.origin.push_back(i);
    ++i;
  }
  return s;
}

enum class TokenKind { kWord, kNumber, kPunct, kText, kChar };

struct Token {
  TokenKind kind = TokenKind::kPunct;
  std::string text;         // the word, number or punctuator; a literal's or <header>'s content
  size_t at = 0;            // where it starts in the spliced text
  size_t content_at = 0;    // a literal's or <header>'s: where its content starts
  bool line_start = false;  // the first token of its line: a directive's #
};

bool raw_prefix(const std::string& word) {
  return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
}

bool literal_prefix(const std::string& word) {
  return word == "u8" || word == "u" || word == "U" || word == "L" || raw_prefix(word);
}

// The tokens of preprocessed-to-be text: names, numbers (a pp-number, 0x1F'00 whole),
// punctuators (:: ## # and otherwise one character each; the digraphs %: and %:%: as # and ##),
// string and character literals with their prefixes (raw strings whole), and an #include's
// <header>; comments and blanks skipped. Never reads past the text's end.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : t_(text) {}

  // The next token; false at the end.
  bool next(Token& token) {
    skip_blanks_and_comments();
    if (i_ >= t_.size()) return false;
    token = Token{};
    token.at = i_;
    token.line_start = line_start_;
    line_start_ = false;
    const char c = t_[i_];
    if (directive_ == Directive::kInclude && c == '<')
      header(token);
    else if (word_start(c))
      word_or_literal(token);
    else if (digit(c) || (c == '.' && digit(at(i_ + 1))))
      number(token);
    else if (c == '"' || c == '\'')
      quoted(token, c);
    else
      punctuator(token);
    const bool hash = token.kind == TokenKind::kPunct && token.text == "#" && token.line_start;
    const bool include =
        directive_ == Directive::kHash && token.kind == TokenKind::kWord &&
        (token.text == "include" || token.text == "include_next" || token.text == "import");
    directive_ = hash ? Directive::kHash : include ? Directive::kInclude : Directive::kNone;
    return true;
  }

 private:
  enum class Directive { kNone, kHash, kInclude };  // after a line's #, after # include

  char at(size_t i) const { return i < t_.size() ? t_[i] : '\0'; }

  void skip_blanks_and_comments() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') {
        line_start_ = true;
        directive_ = Directive::kNone;
        ++i_;
      } else if (blank(c)) {
        ++i_;
      } else if (c == '/' && at(i_ + 1) == '/') {
        i_ = std::min(t_.find('\n', i_), t_.size());
      } else if (c == '/' && at(i_ + 1) == '*') {
        // A comment is one blank, even across lines: a directive goes on after it.
        const size_t end = t_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? t_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  void word_or_literal(Token& token) {
    size_t end = i_ + 1;
    while (end < t_.size() && word_char(t_[end])) ++end;
    std::string word(t_.substr(i_, end - i_));
    const char after = at(end);
    if (after == '"' && literal_prefix(word)) {
      i_ = end;
      return raw_prefix(word) ? raw(token) : quoted(token, '"');
    }
    if (after == '\'' && literal_prefix(word) && !raw_prefix(word)) {
      i_ = end;
      return quoted(token, '\'');
    }
    token.kind = TokenKind::kWord;
    token.text = std::move(word);
    i_ = end;
  }

  void number(Token& token) {
    size_t end = i_ + 1;
    while (end < t_.size()) {
      const char c = t_[end], before = t_[end - 1];
      if (word_char(c) || c == '.')
        ++end;
      else if (c == '\'' && word_char(at(end + 1)))
        end += 2;
      else if ((c == '+' || c == '-') &&
               (before == 'e' || before == 'E' || before == 'p' || before == 'P'))
        ++end;
      else
        break;
    }
    token.kind = TokenKind::kNumber;
    token.text = std::string(t_.substr(i_, end - i_));
    i_ = end;
  }

  // A literal from its opening quote at i_ to its closing one, or to the line's end where it
  // has none.
  void quoted(Token& token, char quote) {
    size_t end = i_ + 1;
    while (end < t_.size() && t_[end] != quote && t_[end] != '\n')
      end += (t_[end] == '\\' && end + 1 < t_.size() && t_[end + 1] != '\n') ? 2 : 1;
    token.kind = quote == '"' ? TokenKind::kText : TokenKind::kChar;
    token.content_at = i_ + 1;
    token.text = std::string(t_.substr(i_ + 1, end - i_ - 1));
    i_ = end < t_.size() && t_[end] == quote ? end + 1 : end;
  }

  // R"delimiter( ... )delimiter" from its quote at i_; a malformed one as a plain literal.
  void raw(Token& token) {
    // The delimiter: at most 16 characters, none of them a blank, a parenthesis or a backslash.
    size_t open = i_ + 1;
    while (open < t_.size() && open - i_ <= 17 && t_[open] != '(' &&
           std::string_view(" )\\\t\v\f\n\"").find(t_[open]) == std::string_view::npos)
      ++open;
    if (at(open) != '(' || open - i_ > 17) return quoted(token, '"');
    const std::string close = ")" + std::string(t_.substr(i_ + 1, open - i_ - 1)) + "\"";
    const size_t end = t_.find(close, open + 1);
    const size_t content_end = end == std::string_view::npos ? t_.size() : end;
    token.kind = TokenKind::kText;
    token.content_at = open + 1;
    token.text = std::string(t_.substr(open + 1, content_end - open - 1));
    i_ = end == std::string_view::npos ? t_.size() : end + close.size();
  }

  // An #include's <header>, to its > or the line's end.
  void header(Token& token) {
    size_t end = i_ + 1;
    while (end < t_.size() && t_[end] != '>' && t_[end] != '\n') ++end;
    token.kind = TokenKind::kText;
    token.content_at = i_ + 1;
    token.text = std::string(t_.substr(i_ + 1, end - i_ - 1));
    i_ = end < t_.size() && t_[end] == '>' ? end + 1 : end;
  }

  void punctuator(Token& token) {
    const char c = t_[i_];
    size_t length = 1;
    std::string text(1, c);
    if (c == ':' && at(i_ + 1) == ':') {
      text = "::";
      length = 2;
    } else if (c == '#' && at(i_ + 1) == '#') {
      text = "##";
      length = 2;
    } else if (c == '%' && at(i_ + 1) == ':' && at(i_ + 2) == '%' && at(i_ + 3) == ':') {
      text = "##";
      length = 4;
    } else if (c == '%' && at(i_ + 1) == ':') {
      text = "#";
      length = 2;
    }
    token.kind = TokenKind::kPunct;
    token.text = std::move(text);
    i_ += length;
  }

  std::string_view t_;
  size_t i_ = 0;
  bool line_start_ = true;
  Directive directive_ = Directive::kNone;
};

std::vector<Token> tokens_of(std::string_view text) {
  std::vector<Token> tokens;
  Lexer lexer(text);
  for (Token t; lexer.next(t);) tokens.push_back(std::move(t));
  return tokens;
}

// The table's patterns, ready to match: each code pattern as tokens, found by its last token
// (a number's key is the kind alone: any number matches), each text pattern as text, and the
// names a #define may not take.
struct Patterns {
  struct Code {
    size_t flag;  // its place in review_flags()
    std::vector<Token> tokens;
  };
  std::map<std::string, std::vector<Code>> code_by_last;
  std::vector<std::pair<size_t, std::string>> text;
  std::set<std::string> flagged_names;
  size_t define_flag = 0;
  bool has_define = false;
  size_t longest = 1;  // tokens in the longest code pattern
};

std::string key_of(const Token& t) {
  return t.kind == TokenKind::kNumber ? std::string("\x01number") : t.text;
}

const Patterns& patterns() {
  static const Patterns compiled = [] {
    Patterns p;
    const auto& flags = review_flags();
    for (size_t f = 0; f < flags.size(); ++f) {
      if (flags[f].where == ReviewWhere::kDefine) {
        p.define_flag = f;
        p.has_define = true;
      }
      std::string_view all = flags[f].patterns;
      while (!all.empty()) {
        const size_t space = std::min(all.find(' '), all.size());
        const std::string_view one = all.substr(0, space);
        all.remove_prefix(std::min(space + 1, all.size()));
        if (one.empty()) continue;
        if (flags[f].where == ReviewWhere::kText) {
          p.text.emplace_back(f, std::string(one));
          continue;
        }
        std::vector<Token> tokens = tokens_of(one);
        for (const auto& t : tokens)
          if (t.kind == TokenKind::kWord) p.flagged_names.insert(t.text);
        p.longest = std::max(p.longest, tokens.size());
        const std::string key = key_of(tokens.back());
        p.code_by_last[key].push_back({f, std::move(tokens)});
      }
    }
    return p;
  }();
  return compiled;
}

bool same(const Token& code, const Token& pattern) {
  return code.kind == pattern.kind &&
         (code.kind == TokenKind::kNumber || code.text == pattern.text);
}

// The line (from 1) that holds each offset of a file, and that line's text for a site.
class Lines {
 public:
  explicit Lines(std::string_view bytes) : bytes_(bytes) {
    starts_.push_back(0);
    for (size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i] == '\n') starts_.push_back(i + 1);
  }
  int line_of(size_t offset) const {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                            starts_.begin());
  }
  // Line `line`, trimmed, cut to kReviewLineLimit, as safe text; a carriage return in it (a
  // file of old Mac lines) a blank rather than the new line safe text would make of it.
  std::string text_of(int line) const {
    const size_t start = starts_[static_cast<size_t>(line) - 1];
    const size_t end = static_cast<size_t>(line) < starts_.size()
                           ? starts_[static_cast<size_t>(line)] - 1
                           : bytes_.size();
    std::string_view text = bytes_.substr(start, end - start);
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    std::string head(text.substr(0, kReviewLineLimit + 1));
    std::replace(head.begin(), head.end(), '\r', ' ');
    return quote_head(head, kReviewLineLimit);
  }

 private:
  std::string_view bytes_;
  std::vector<size_t> starts_;
};

// The sites of one file, a flag each, as places are found.
class Sites {
 public:
  Sites(const std::string& file, std::string_view bytes, const Spliced& spliced)
      : file_(safe_text(file)), lines_(bytes), spliced_(spliced) {}

  // A place of flag `flag` at `at` in the spliced text; `matched`: what raised it, safe text.
  void add(size_t flag, size_t at, const std::string& matched) {
    const auto [it, first] = by_flag_.emplace(flag, sites_.size());
    if (!first) {
      ++sites_[it->second].count;
      return;
    }
    const size_t offset = at < spliced_.origin.size() ? spliced_.origin[at] : 0;
    ReviewFlagSite s;
    s.flag = review_flags()[flag].id;
    s.file = file_;
    s.line = lines_.line_of(offset);
    s.count = 1;
    s.matched = matched;
    s.source = lines_.text_of(s.line);
    sites_.push_back(std::move(s));
  }

  // The sites in the order of their first places.
  std::vector<ReviewFlagSite> sorted() {
    std::stable_sort(
        sites_.begin(), sites_.end(),
        [](const ReviewFlagSite& a, const ReviewFlagSite& b) { return a.line < b.line; });
    return std::move(sites_);
  }

 private:
  std::string file_;
  Lines lines_;
  const Spliced& spliced_;
  std::map<size_t, size_t> by_flag_;  // a flag's place in review_flags(): its site
  std::vector<ReviewFlagSite> sites_;
};

// Text patterns in string literals: adjacent literals are one ("/pr" "oc"), so their contents
// are gathered until a token of another kind ends them.
class Literals {
 public:
  void add(const Token& t) {
    pieces_.push_back({joined_.size(), t.content_at});
    joined_ += t.text;
  }
  void flush(Sites& sites) {
    if (pieces_.empty()) return;
    for (const auto& [flag, text] : patterns().text)
      for (size_t at = joined_.find(text); at != std::string::npos;
           at = joined_.find(text, at + text.size()))
        sites.add(flag, spliced_at(at), shown());
    joined_.clear();
    pieces_.clear();
  }

 private:
  // What a site shows of the literal: its start, on one line, quoted ("/dev/null").
  std::string shown() const {
    std::string head(utf8_head(joined_, kMatchedLimit));
    std::replace_if(
        head.begin(), head.end(), [](char c) { return c == '\n' || blank(c); }, ' ');
    return "\"" + safe_text(head) + (joined_.size() > head.size() ? "...\"" : "\"");
  }

  // Where the joined text's offset `at` stands in the spliced text.
  size_t spliced_at(size_t at) const {
    auto piece = std::upper_bound(pieces_.begin(), pieces_.end(), at,
                                  [](size_t a, const Piece& p) { return a < p.joined_at; });
    --piece;  // the first piece starts at 0, so there is one at or before `at`
    return piece->content_at + (at - piece->joined_at);
  }
  struct Piece {
    size_t joined_at, content_at;
  };
  std::string joined_;
  std::vector<Piece> pieces_;
};

}  // namespace

std::vector<ReviewFlagSite> review_sites(const std::string& file, std::string_view bytes) {
  const Patterns& p = patterns();
  const Spliced text = spliced(bytes);
  Sites sites(file, bytes, text);
  Literals literals;
  // The last few tokens, enough for the longest pattern and for "# define NAME".
  std::deque<Token> window;
  const size_t kept = std::max<size_t>(p.longest, 3);
  Lexer lexer(text.text);
  for (Token t; lexer.next(t);) {
    if (t.kind == TokenKind::kText) {
      literals.add(t);
    } else {
      literals.flush(sites);
    }
    window.push_back(std::move(t));
    if (window.size() > kept) window.pop_front();
    const Token& last = window.back();
    const size_t n = window.size();
    if (p.has_define && last.kind == TokenKind::kWord && n >= 3 &&
        window[n - 3].kind == TokenKind::kPunct && window[n - 3].text == "#" &&
        window[n - 3].line_start && window[n - 2].kind == TokenKind::kWord &&
        window[n - 2].text == "define" && p.flagged_names.count(last.text))
      sites.add(p.define_flag, last.at, "#define " + last.text);
    if (last.kind == TokenKind::kText || last.kind == TokenKind::kChar) continue;
    const auto candidates = p.code_by_last.find(key_of(last));
    if (candidates == p.code_by_last.end()) continue;
    for (const auto& pattern : candidates->second) {
      const size_t k = pattern.tokens.size();
      if (k > n) continue;
      bool match = true;
      for (size_t m = 0; m < k && match; ++m) match = same(window[n - k + m], pattern.tokens[m]);
      if (!match) continue;
      std::string matched;
      for (size_t m = 0; m < k; ++m) matched += window[n - k + m].text;
      sites.add(pattern.flag, window[n - k].at, quote_head(matched, kMatchedLimit));
    }
  }
  literals.flush(sites);
  return sites.sorted();
}

std::vector<ReviewFlagSite> review_submission(const fs::path& folder,
                                              const std::vector<std::string>& student_files) {
  std::vector<ReviewFlagSite> all;
  for (const auto& name : student_files) {
    const fs::path path = folder / name;
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(path, ec))) continue;
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::vector<ReviewFlagSite> sites = review_sites(name, bytes);
    all.insert(all.end(), std::make_move_iterator(sites.begin()),
               std::make_move_iterator(sites.end()));
  }
  return all;
}

}  // namespace gpulab
