// The class summary page (class_table.h): plain HTML with inline CSS and SVG, so it opens from
// a file, offline, and can be mailed or archived as it is.
#include <algorithm>
#include <map>

#include "class/class_findings.h"
#include "class/class_table.h"
#include "core/review_flags.h"
#include "text/html_text.h"
#include "text/joined_words.h"

namespace gpulab {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

constexpr int kBins = 10;

// Ten bars: scores as a fraction of the student's maximum, 0-10% ... 90-100% (a full score
// falls in the last bar).
std::string histogram_svg(const std::vector<double>& fractions) {
  int count[kBins] = {};
  for (double f : fractions) ++count[std::clamp(static_cast<int>(f * kBins), 0, kBins - 1)];
  const int top = std::max(1, *std::max_element(count, count + kBins));
  const int w = 440, h = 200, left = 30, bottom = 30, bar = (w - left) / kBins;
  std::string svg = "<svg class=\"hist\" width=\"" + std::to_string(w) + "\" height=\"" +
                    std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) + " " +
                    std::to_string(h) + "\" role=\"img\" aria-label=\"score histogram\">\n";
  const int plot_h = h - bottom - 20;
  for (int b = 0; b < kBins; ++b) {
    const int bh = count[b] * plot_h / top;
    const int x = left + b * bar, y = h - bottom - bh;
    const std::string range =
        std::to_string(b * 100 / kBins) + "-" + std::to_string((b + 1) * 100 / kBins) + "%";
    svg += "  <rect x=\"" + std::to_string(x + 2) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           std::to_string(bar - 4) + "\" height=\"" + std::to_string(bh) + "\"><title>" + range +
           ": " + std::to_string(count[b]) + " students</title></rect>\n";
    if (count[b] > 0)
      svg += "  <text x=\"" + std::to_string(x + bar / 2) + "\" y=\"" + std::to_string(y - 4) +
             "\" text-anchor=\"middle\">" + std::to_string(count[b]) + "</text>\n";
    svg += "  <text x=\"" + std::to_string(x + bar / 2) + "\" y=\"" + std::to_string(h - 12) +
           "\" text-anchor=\"middle\" class=\"axis\">" + std::to_string(b * 100 / kBins) +
           "</text>\n";
  }
  svg += "  <line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(h - bottom) +
         "\" x2=\"" + std::to_string(w) + "\" y2=\"" + std::to_string(h - bottom) +
         "\" class=\"axisline\"/>\n";
  svg += "  <text x=\"" + std::to_string(w) + "\" y=\"" + std::to_string(h - 1) +
         "\" text-anchor=\"end\" class=\"axis\">score, % of maximum</text>\n</svg>\n";
  return svg;
}

// The most common messages of a test, and the findings of a lab, shown; the rest are in
// class-findings.csv.
constexpr size_t kMessagesShown = 3;
constexpr size_t kClassFindingsShown = 10;

std::string students_of(int n, int of) {
  return std::to_string(n) + " of " + std::to_string(of);
}

// What the class got wrong in a lab (class_findings.h): the tests some student failed, each
// with its most common messages, and the CPU backend's findings.
std::string findings_html(const LabFindings& view) {
  std::string s = "<h3>What the class got wrong</h3>\n";
  std::string rows;
  for (const auto& t : view.tests) {
    if (!t.failed) continue;
    rows += "<tr><td>" + html_escape(t.test) + "</td><td class=\"num\">" +
            students_of(t.failed, t.of) + "</td><td><ul>";
    for (size_t i = 0; i < t.messages.size() && i < kMessagesShown; ++i)
      rows += "<li>" + std::to_string(t.messages[i].students) + ": <code>" +
              html_escape(t.messages[i].example) + "</code></li>";
    if (t.messages.size() > kMessagesShown)
      rows += "<li>and " + std::to_string(t.messages.size() - kMessagesShown) +
              " more messages (class-findings.csv)</li>";
    rows += "</ul></td></tr>\n";
  }
  if (rows.empty())
    s += "<p>No student with a score failed a test.</p>\n";
  else
    s += "<table>\n<tr><th>test</th><th>students who failed it</th><th>most common messages "
         "(students: one student's words; messages that differ only in numbers count as one)"
         "</th></tr>\n" +
         rows + "</table>\n";
  if (view.findings.empty()) return s;
  s += "<p>The CPU backend's findings, by kind and line of code:</p>\n<table>\n<tr><th>kind</th>"
       "<th>part</th><th>where (one student's)</th><th>students</th></tr>\n";
  for (size_t i = 0; i < view.findings.size() && i < kClassFindingsShown; ++i) {
    const FindingGroup& f = view.findings[i];
    s += "<tr><td>" + html_escape(f.kind) + "</td><td>" + html_escape(f.part) + "</td><td>" +
         html_escape(f.where) +
         (f.source.empty() ? std::string() : ": <code>" + html_escape(f.source) + "</code>") +
         "</td><td class=\"num\">" + students_of(f.students, view.graded) + "</td></tr>\n";
  }
  if (view.findings.size() > kClassFindingsShown)
    s += "<tr><td colspan=\"4\">and " + std::to_string(view.findings.size() - kClassFindingsShown) +
         " more (class-findings.csv)</td></tr>\n";
  return s + "</table>\n";
}

std::string lab_section(const ClassTable& table, const std::string& lab) {
  // Every student with a score counts, zeros included (class_table.h); flagged ones are named
  // by how many there are of each status.
  std::vector<double> scores, fractions;
  std::map<std::string, std::pair<int, bool>> flagged;  // status: how many, counted or not
  for (const auto& student : table.students()) {
    const LabResult r = table.result(student, lab);
    if (r.flagged()) flagged[r.status] = {flagged[r.status].first + 1, r.score.has_value()};
    if (!r.score) continue;
    scores.push_back(*r.score);
    fractions.push_back(r.max > 0 ? *r.score / r.max : 0);
  }
  std::string s = "<section>\n<h2>" + html_escape(lab) + "</h2>\n<p>";
  s += std::to_string(scores.size()) + " counted";
  for (const auto& [status, n] : flagged)
    s += ", <strong>" + std::to_string(n.first) + " " + html_escape(status) + "</strong> (" +
         (n.second ? "counted with zeros" : "no score: not counted") + ")";
  if (!scores.empty()) {
    double sum = 0;
    for (double v : scores) sum += v;
    s += ". Score: mean " + format_points(sum / static_cast<double>(scores.size()));
    s += ", median " + format_points(median_of(scores)) + ", lowest " +
         format_points(*std::min_element(scores.begin(), scores.end())) + ", highest " +
         format_points(*std::max_element(scores.begin(), scores.end()));
  }
  s += ".</p>\n" + histogram_svg(fractions);
  s += "<table>\n<tr><th>test</th><th>max</th><th>full points</th><th>mean</th></tr>\n";
  for (const auto& part : table.parts(lab))
    for (const auto& test : table.test_names(lab, part)) {
      int full = 0, with = 0;
      double sum = 0;
      const double max = table.test_max(lab, test);
      for (const auto& student : table.students()) {
        const auto points = table.test_points(student, lab, test);
        if (!points) continue;
        ++with;
        sum += *points;
        full += *points >= max;
      }
      s += "<tr><td>" + html_escape(test) + "</td><td>" + format_points(max) + "</td><td>" +
           std::to_string(full) + " of " + std::to_string(with) + "</td><td>" +
           (with ? format_points(sum / with) : std::string("-")) + "</td></tr>\n";
    }
  return s + "</table>\n" + findings_html(lab_findings(table, lab)) + "</section>\n";
}

// What to review in a student's files (review_flags.h), per lab: how many flags and which,
// opening to a line per site; empty where nothing was flagged.
std::string review_cell(const ClassTable& table, const std::string& student) {
  std::string cell;
  for (const auto& lab : table.labs()) {
    const std::vector<ReviewFlagSite> sites = table.to_review(student, lab);
    if (sites.empty()) continue;
    const std::vector<std::string> names = review_flag_names(sites);
    cell += "<details><summary>" +
            html_escape(lab + ": " + std::to_string(names.size()) + " (" + joined(names) + ")") +
            "</summary><ul>";
    for (const auto& site : sites)
      cell += "<li>" + html_escape(review_site_heading(site)) +
              (site.source.empty() ? std::string()
                                   : "<br><code>" + html_escape(site.source) + "</code>") +
              "</li>";
    cell += "</ul></details>";
  }
  return cell;
}

constexpr const char* kStyle =
    R"(body { font: 15px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
td.num { text-align: right; }
.failed { color: #b00; }
td ul { margin: 0; padding-left: 1.2em; }
code { white-space: pre-wrap; }
details summary { cursor: pointer; }
svg.hist rect { fill: #4a7ab5; }
svg.hist text { font-size: 12px; }
svg.hist .axis { fill: #666; }
svg.hist .axisline { stroke: #666; }
)";

}  // namespace

std::string class_html(const ClassTable& table, const std::string& title) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                  html_escape(title) + "</title>\n<style>\n" + kStyle +
                  "</style>\n</head>\n<body>\n";
  s += "<h1>" + html_escape(title) + "</h1>\n<p>" + std::to_string(table.students().size()) +
       " students.</p>\n";
  for (const auto& lab : table.labs()) s += lab_section(table, lab);
  s += "<section>\n<h2>Students</h2>\n<table>\n<tr><th>student</th>";
  for (const auto& lab : table.labs()) s += "<th>" + html_escape(lab) + "</th>";
  // Last, for the instructor's eyes: nothing there is a score (review_flags.h).
  s += "<th>total</th><th>to review</th></tr>\n";
  for (const auto& student : table.students()) {
    s += "<tr><td>" + html_escape(student) + "</td>";
    double total = 0, max = 0;
    for (const auto& lab : table.labs()) {
      const LabResult r = table.result(student, lab);
      s += std::string("<td") + (r.flagged() ? " class=\"failed\"" : " class=\"num\"") + ">";
      if (r.score) {
        s += format_points(*r.score) + " / " + format_points(r.max);
        total += *r.score;
        max += r.max;
      }
      if (r.flagged()) s += std::string(r.score ? " " : "") + "(" + html_escape(r.status) + ")";
      s += "</td>";
    }
    s += "<td class=\"num\">" + format_points(total) + " / " + format_points(max) + "</td><td>" +
         review_cell(table, student) + "</td></tr>\n";
  }
  s += "</table>\n</section>\n</body>\n</html>\n";
  return s;
}

}  // namespace gpulab
