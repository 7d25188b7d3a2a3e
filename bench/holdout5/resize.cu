// resize: bilinear resize of an interleaved RGB float image (half-pixel centers, edges clamped,
// as image libraries do), one thread per output pixel, all three channels in that thread.
// C++ host: a small Image class owning its pixels.
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>

#ifndef SRC_H
#define SRC_H 300
#endif
#ifndef SRC_W
#define SRC_W 400
#endif
#ifndef DST_H
#define DST_H 512
#endif
#ifndef DST_W
#define DST_W 640
#endif
#define CHANNELS 3

class Image {
public:
    int width, height;
    float *pixels;
    Image(int w, int h) : width(w), height(h) { pixels = new float[(size_t)w * h * CHANNELS]; }
    ~Image() { delete[] pixels; }
    size_t bytes() const { return (size_t)width * height * CHANNELS * sizeof(float); }
    float &at(int x, int y, int c) { return pixels[((size_t)y * width + x) * CHANNELS + c]; }
};

__device__ __forceinline__ float lerp1(float a, float b, float t)
{
    return a + (b - a) * t;
}

__global__ void resize_bilinear(const float *src, int sw, int sh, float *dst, int dw, int dh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh)
        return;

    float sx = ((float)x + 0.5f) * ((float)sw / (float)dw) - 0.5f;
    float sy = ((float)y + 0.5f) * ((float)sh / (float)dh) - 0.5f;
    if (sx < 0.0f)
        sx = 0.0f;
    if (sy < 0.0f)
        sy = 0.0f;
    int x0 = (int)sx;
    int y0 = (int)sy;
    if (x0 > sw - 1)
        x0 = sw - 1;
    if (y0 > sh - 1)
        y0 = sh - 1;
    int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
    int y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
    float fx = sx - x0;
    float fy = sy - y0;

    for (int c = 0; c < CHANNELS; c++) {
        float top = lerp1(src[(y0 * sw + x0) * CHANNELS + c], src[(y0 * sw + x1) * CHANNELS + c], fx);
        float bot = lerp1(src[(y1 * sw + x0) * CHANNELS + c], src[(y1 * sw + x1) * CHANNELS + c], fx);
        dst[(y * dw + x) * CHANNELS + c] = lerp1(top, bot, fy);
    }
}

static float host_sample(Image &img, float sx, float sy, int c)
{
    if (sx < 0.0f)
        sx = 0.0f;
    if (sy < 0.0f)
        sy = 0.0f;
    int x0 = (int)sx, y0 = (int)sy;
    if (x0 > img.width - 1)
        x0 = img.width - 1;
    if (y0 > img.height - 1)
        y0 = img.height - 1;
    int x1 = x0 + 1 < img.width ? x0 + 1 : img.width - 1;
    int y1 = y0 + 1 < img.height ? y0 + 1 : img.height - 1;
    float fx = sx - x0, fy = sy - y0;
    float top = img.at(x0, y0, c) + (img.at(x1, y0, c) - img.at(x0, y0, c)) * fx;
    float bot = img.at(x0, y1, c) + (img.at(x1, y1, c) - img.at(x0, y1, c)) * fx;
    return top + (bot - top) * fy;
}

int main()
{
    Image src(SRC_W, SRC_H), out(DST_W, DST_H);
    for (int y = 0; y < src.height; y++)
        for (int x = 0; x < src.width; x++)
            for (int c = 0; c < CHANNELS; c++)
                src.at(x, y, c) = std::sin(0.05f * x + 0.3f * c) * std::cos(0.07f * y) + 0.01f * ((x * y) % 13);

    float *d_src, *d_dst;
    cudaMalloc(&d_src, src.bytes());
    cudaMalloc(&d_dst, out.bytes());
    cudaMemcpy(d_src, src.pixels, src.bytes(), cudaMemcpyHostToDevice);
    dim3 block(32, 8);
    dim3 grid((out.width + block.x - 1) / block.x, (out.height + block.y - 1) / block.y);
    resize_bilinear<<<grid, block>>>(d_src, src.width, src.height, d_dst, out.width, out.height);
    cudaMemcpy(out.pixels, d_dst, out.bytes(), cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int y = 0; y < out.height; y++)
        for (int x = 0; x < out.width; x++) {
            float sx = ((float)x + 0.5f) * ((float)src.width / (float)out.width) - 0.5f;
            float sy = ((float)y + 0.5f) * ((float)src.height / (float)out.height) - 0.5f;
            for (int c = 0; c < CHANNELS; c++) {
                float want = host_sample(src, sx, sy, c);
                float got = out.at(x, y, c);
                if (std::fabs(got - want) > 1e-4f * std::fmax(std::fabs(want), 1.0f)) {
                    if (bad < 5)
                        std::printf("(%d,%d,%d): %f vs %f\n", x, y, c, got, want);
                    bad++;
                }
            }
        }
    cudaFree(d_src);
    cudaFree(d_dst);
    std::printf("resize: %s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
