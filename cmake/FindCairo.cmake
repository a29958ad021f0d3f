# Cairo (Debian's libcairo2-dev) as the imported target Cairo::Cairo, with Cairo_VERSION: CMake
# brings no find module for it. pkg-config's cairo.pc only gives hints, as `pkg-config cairo`
# fails wherever a package that cairo.pc names privately is missing (glib, pixman, xcb... -dev),
# which a GPU machine's prefix of unpacked debs (scripts/gpu-prefix.sh) lacks: the header and the
# library are found by name either way, under CMAKE_PREFIX_PATH too.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_Cairo QUIET cairo)
endif()
find_path(Cairo_INCLUDE_DIR cairo.h HINTS ${PC_Cairo_INCLUDEDIR} ${PC_Cairo_INCLUDE_DIRS}
          PATH_SUFFIXES cairo)
find_library(Cairo_LIBRARY NAMES cairo HINTS ${PC_Cairo_LIBDIR} ${PC_Cairo_LIBRARY_DIRS})
mark_as_advanced(Cairo_INCLUDE_DIR Cairo_LIBRARY)

if(Cairo_INCLUDE_DIR AND EXISTS "${Cairo_INCLUDE_DIR}/cairo-version.h")
  file(STRINGS "${Cairo_INCLUDE_DIR}/cairo-version.h" _cairo_version_lines
       REGEX "^#define CAIRO_VERSION_(MAJOR|MINOR|MICRO) ")
  foreach(_part MAJOR MINOR MICRO)
    string(REGEX REPLACE ".*#define CAIRO_VERSION_${_part} ([0-9]+).*" "\\1" _cairo_${_part}
           "${_cairo_version_lines}")
  endforeach()
  set(Cairo_VERSION "${_cairo_MAJOR}.${_cairo_MINOR}.${_cairo_MICRO}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cairo REQUIRED_VARS Cairo_LIBRARY Cairo_INCLUDE_DIR
                                  VERSION_VAR Cairo_VERSION)

if(Cairo_FOUND AND NOT TARGET Cairo::Cairo)
  add_library(Cairo::Cairo UNKNOWN IMPORTED)
  set_target_properties(Cairo::Cairo PROPERTIES IMPORTED_LOCATION "${Cairo_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${Cairo_INCLUDE_DIR}")
endif()
