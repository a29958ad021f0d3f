// The labs' figure drawers by lab id (figures.h: GPULAB_FIGURES), filled by static initializers
// before main, so the map is built on first use whatever the order of their files.
#include <map>
#include <stdexcept>

#include "figures/figures.h"

namespace gpulab {

namespace {

std::map<std::string, FigureDrawer>& drawers() {
  static std::map<std::string, FigureDrawer> all;
  return all;
}

}  // namespace

bool register_figures(const std::string& lab, FigureDrawer draw) {
  if (!drawers().emplace(lab, draw).second)
    throw std::logic_error("two figure drawers for the lab \"" + lab + "\"");
  return true;
}

FigureDrawer find_figures(const std::string& lab) {
  const auto it = drawers().find(lab);
  return it == drawers().end() ? nullptr : it->second;
}

}  // namespace gpulab
