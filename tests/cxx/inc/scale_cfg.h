/* reached only through a macro: tests/cxx/include_macro.cu */
#define CFG_SCALE 3.0f
