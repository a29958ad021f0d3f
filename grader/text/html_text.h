// Text put into HTML safely: a class page's names, a PrairieLearn question's lab title.
#pragma once

#include <string>

namespace gpulab {

// `text` with & < > " ' as character references, fit for an element's content or a quoted
// attribute value.
std::string html_escape(const std::string& text);

}  // namespace gpulab
