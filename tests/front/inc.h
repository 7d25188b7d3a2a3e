#define INC_SCALE 3
typedef float scalar_t;
