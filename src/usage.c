/* usage: the help texts of carve and its commands (declared in usage.h). */
#include "usage.h"
#include "opt/opt.h"
#include <string.h>

const char usage_main[] =
  "usage: carve COMMAND [OPTIONS] FILE.cu\n"
  "\n"
  "carve reads CUDA C kernels, runs them on the CPU with CUDA's semantics, and says why they are slow.\n"
  "\n"
  "commands:\n"
  "  check   parse a file; list its kernels, their signatures and launch specifications\n"
  "  print   print the kernels back as CUDA source that nvcc compiles\n"
  "  run     execute one kernel launch in the SIMT interpreter; check memory accesses,\n"
  "          shared-memory races and barriers; write output buffers\n"
  "  arch    show the machine descriptions (H100, H200, and the papers' G80, GT200, C1060)\n"
  "          with the source of every number, and the calibration file if there is one\n"
  "  calibrate  measure the present GPU once (bandwidths, FP32 rate, latencies, launch and\n"
  "          barrier cost) and write the calibration file carve bench and the model read\n"
  "  analyze every global/shared access, branch and launch limit of a kernel: sectors per\n"
  "          request, bank conflicts, divergence, reuse, occupancy; findings with remedies\n"
  "  estimate resources (registers, shared memory, spills via NVRTC), exact occupancy and its\n"
  "          limiting resource, waves over the SMs\n"
  "  bench   run a launch on the GPU: generated harness, proper timing, verification\n"
  "          against the interpreter (--verify), Nsight Compute counters (--ncu)\n"
  "  optimize  rewrite a kernel into faster CUDA (scalar replacement, warp-split reductions,\n"
  "          staging through shared memory, thread merging with vector stores, unrolling,\n"
  "          diagonal block order), each step verified by execution\n"
  "  report  one self-contained HTML page: where the kernel loses its time (limits, roofline,\n"
  "          findings ranked by cost, the source with a heat bar per line) and what carve did\n"
  "          about it (the optimizer's plan as a diff), predicted against measured\n"
  "  space   the optimization space of a kernel (passes, parameters, launch shape), its\n"
  "          constraints and every variant's static metrics (Efficiency, Utilization, estimate)\n"
  "  tune    search that space: optimization carving, the model's top k, exhaustive or random;\n"
  "          survivors verified and timed on the GPU; resumable results, T4 export, Slurm arrays\n"
  "\n"
  "common options:\n"
  "  -D NAME[=VALUE]   define a macro (problem sizes are usually macros)\n"
  "  -I DIR            add a directory to the #include \"...\" and <...> search path\n"
  "  nvcc's flags      -arch=sm_XX, --use_fast_math, -O3, -std=..., -lineinfo, -Xcompiler ... are accepted\n"
  "                    (-arch is --arch; the ones that change nothing carve computes get one note)\n"
  "  --help            help for a command (carve COMMAND --help); each command takes only its own options\n"
  "  --version         print the version\n"
  "\n"
  "exit status: 0 success, 1 a kernel fault was found, 2 usage or input error (or a failed write),\n"
  "3 no GPU or no CUDA toolkit (bench, calibrate)\n"
  "See docs/launch-spec.md for '#pragma carve' launch specifications and 'man ./docs/carve.1'.\n";

const char usage_optimize[] =
  "usage: carve optimize FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                      [--arg ...] [--arch MACHINE|sm_XX] [-o OUT.cu] [--passes A,B | --skip A]\n"
  "                      [--set PASS.PARAM=VALUE] [--explain] [--format text|json] [--no-verify]\n"
  "                      [--no-estimate] [--regs N] [--calibration FILE] [--max-steps N] [--max-seconds S]\n"
  "                      [--route nvcc|interp|auto] [--engine native|interp|auto] [--check sample|all|none]\n"
  "                      [--whole-seconds S]\n"
  "\n"
  "First canon (canonical forms, verified, not gated by the estimate: counted loops, one guard,\n"
  "pointer rows folded, tile constants as blockDim, accumulations in global memory kept in a\n"
  "register; --skip canon leaves the kernel as written). Then the passes listed at the end, in\n"
  "Yang et al.'s order; a parameter marked there as the estimate's is chosen by the model. Each\n"
  "pass says whether it is legal, and why not; the estimate before and after decides whether it pays (--no-estimate keeps\n"
  "every legal step); every kept step is run against the original in the interpreter on random\n"
  "inputs at a reduced size (64), a ragged size (61) and sampled blocks of the given size, and\n"
  "rejected on any difference, fault, race or divergent barrier (--no-verify skips this and the\n"
  "output says so). The output is readable CUDA with '#pragma carve' lines (a reshaped launch\n"
  "included), so run, analyze, estimate and bench take it as it is; a header comment lists the\n"
  "passes, their parameters and assumptions. The plan goes to standard error (--explain: every\n"
  "size verified and every estimate), or as JSON to standard output with --format json.\n"
  "  --set stage.tile=16   a pass parameter (values: docs/optimize.md); --passes scalar,unroll runs\n"
  "                        only those, --skip camping all but those; launch (the block shape) runs\n"
  "                        only when named there or in a --set launch.x=N\n"
  "A file with a main and no launch specification: every kernel the program launched, each at its\n"
  "first launch (--kernel K or --launch N: one), with the buffers as the program filled them; the\n"
  "output is then ONE program, every optimized kernel and its launches replaced (a launch that\n"
  "meets what the kernel was verified for runs it, on the reshaped grid where a step reshaped the\n"
  "launch; any other the original), kernels with nothing kept as written; a kernel that cannot be\n"
  "written in safely stays as written, with a warning (the program is always written whole).\n"
  "Then the whole program is checked: the output and the original run the same way (same\n"
  "arguments and sizes, every launch on the native engine; host code built by nvcc where the\n"
  "interpreted program had to be stopped), and their exit status, standard output (timing lines\n"
  "left out, numbers within 1e-4) and device-to-host copies (floats within 1e-4, the rest exactly)\n"
  "compared; where they differ, steps that reassociate a sum are dropped first, then each\n"
  "kernel's steps, and the plan says so. --whole-seconds S: each run's limit of host code\n"
  "(default 300; 0: no check); a program that cannot be run in it is said not checked.\n"
  "-o DIR/ (or an existing directory): every source edited, kernels in included files among them.\n"
  "A kernel launched by --grid/--block: the output ends with its launch (as reshaped) as\n"
  "'#pragma carve launch', so 'carve run OUT' takes the same --arg flags.\n"
  "The host program runs until it ends or for at most --max-seconds S of wall-clock time (default\n"
  "60) of host code (launches do not count); --max-steps N gives an exact step limit instead.\n"
  "Stopped after a launch, the launches recorded until then are used, and that is said (JSON:\n"
  "\"host_program\"); stopped before any, the program runs again built by nvcc (host code native)\n"
  "where nvcc is installed (--route interp: never). Launches of at least 65536 threads run on the\n"
  "native engine, 4 sampled blocks checked in the interpreter (--engine native|interp|auto,\n"
  "--check sample|all|none, as carve run takes them); --route nvcc|interp|auto as carve run.\n"
  "Exit 0 with the output written (also when no pass applied), 2 on an error.\n";

const char usage_check[] =
  "usage: carve check FILE.cu [-D NAME[=VALUE]] [-I DIR] [--format text|json]\n"
  "\n"
  "Parse FILE.cu and list each kernel with its signature, resources declared, and launch\n"
  "specification, or where the host code launches it (host code that does not parse is skipped\n"
  "here; 'carve run' reports it). Exit 0 when the file loads with no\n"
  "error, 2 with diagnostics otherwise.\n";

const char usage_print[] =
  "usage: carve print FILE.cu [-D NAME[=VALUE]] [-I DIR] [--kernel NAME] [-o OUT.cu]\n"
  "\n"
  "Print the device code of FILE.cu (types, constants, device functions, kernels, launch specs)\n"
  "as CUDA source, macros expanded. Printing the printed file gives the same text. -o writes OUT.cu\n"
  "whole or not at all (a temporary renamed over it; a device or FIFO is written in place).\n";

const char usage_bench[] =
  "usage: carve bench FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                   [--shared BYTES] [--arg ...] [--reps N] [--flush-l2] [--verify] [--verify-blocks N]\n"
  "                   [--ncu] [--baseline | --no-baseline] [--arch sm_XX|MACHINE] [--timeout SECONDS]\n"
  "                   [--calibration FILE] [--format text|json] [--emit DIR] [--max-steps N] [--max-seconds S]\n"
  "                   [--route nvcc|interp|auto] [--engine native|interp|auto] [--check sample|all|none]\n"
  "\n"
  "Generate a standalone CUDA harness for the launch (inputs made by exactly the generators\n"
  "'carve run' uses), build it with nvcc and time it: 2 warm-up launches, then the median, min and\n"
  "max of N launches with CUDA events, every CUDA call and each launch's error checked.\n"
  "  --verify      compare the first launch's outputs with the interpreter (integers exactly; floats\n"
  "                within the spec's tol, default relative L2 1e-5; NaN never passes); large grids\n"
  "                are checked on --verify-blocks sampled blocks (default 64), and say so\n"
  "  --ncu         Nsight Compute counters: sectors and requests, shared wavefronts and bank\n"
  "                conflicts, threads per instruction, achieved occupancy, DRAM bytes, duration;\n"
  "                each counter carve predicts beside its measurement with the error, flagged\n"
  "                beyond its stated tolerance (docs/analyze-json.md)\n"
  "  --baseline    time the spec's '#pragma carve baseline' library call (cuBLAS FP32, no TF32);\n"
  "                on by default when the spec names one (--no-baseline to skip)\n"
  "  --emit DIR    write DIR/harness.cu and DIR/build.sh; do not build or run\n"
  "A file with a main and no launch specification: the launches the program made (as analyze takes\n"
  "them: --launch N, --kernel K, --host FUNC), their buffers given to the harness as files\n"
  "(--emit DIR: DIR/launch-N/ each); the program runs for at most --max-seconds S (default 60) of\n"
  "host code or exactly --max-steps N steps, as analyze runs it (--route, --engine, --check).\n"
  "Exit: 0 ok, 1 verification failed or the kernel faulted/hung, 2 error, 3 no GPU or no CUDA toolkit.\n";

const char usage_run[] =
  "usage: carve run FILE.cu [MORE.cu|.cpp ...] [--route nvcc|interp|auto] [--host FUNC] [--arch h100|h200|g80|gt200|c1060]\n"
  "                 [nvcc's flags] [-- PROGRAM ARGUMENTS]\n"
  "       carve run FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR]\n"
  "                 [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]\n"
  "                 [--arg NAME=VALUE | --arg NAME=TYPE[COUNT]:INIT] [--out NAME=PATH]\n"
  "                 [--max-steps N] [--no-race-check] [--dump-inputs DIR] [--format text|json]\n"
  "                 [--engine native|interp|auto] [--check sample|all|none]\n"
  "\n"
  "A file with a main (or --host FUNC) runs as a whole program: the host code in the interpreter\n"
  "with carve's C library and CUDA runtime (docs/host-programs.md), every <<<...>>> launch checked\n"
  "as below, faults located in the kernel and at the launch; the program's output and exit status\n"
  "are its own, and carve lists the distinct launches it made on standard error. --arch: the machine\n"
  "cudaGetDeviceProperties describes and whose limits the launches meet. Several files are the\n"
  "sources of one program, read in order as one unit (static names must differ between them).\n"
  "Where carve cannot read the whole host program (C++: classes, new, std::vector, helper headers;\n"
  ".cpp sources) and nvcc is installed, the program is built by nvcc (-cudart none, your flags) against\n"
  "carve's CUDA runtime library (build/libcarve_cudart.so) and runs natively; each launch runs in the\n"
  "interpreter, every access checked; misused runtime calls are reported and counted, and the run ends\n"
  "with '========= ERROR SUMMARY: N errors' as compute-sanitizer's (exit 1 after a kernel fault).\n"
  "  --route nvcc|interp|auto  nvcc: build with nvcc; interp: interpret the host code; auto (default):\n"
  "                  nvcc where carve cannot read the host program. analyze, estimate, optimize and\n"
  "                  bench take it too. On the nvcc route, legacy calls CUDA 13 removed\n"
  "                  (cudaThreadSynchronize, ...) are declared by carve's compat header (-include).\n"
  "                  auto also moves a program whose host code runs 60 s in the interpreter (launches\n"
  "                  not counted; its output held back until then) to the nvcc route, and says so.\n"
  "\n"
  "With --kernel, --grid or --arg (or without a main), execute one launch of a kernel on the CPU,\n"
  "warp by warp, with CUDA's semantics. The launch\n"
  "comes from the file's '#pragma carve' lines; flags override them. Reports out-of-bounds and\n"
  "misaligned accesses, integer division by zero, shared-memory races between warps within one\n"
  "barrier interval and __syncthreads reached by part of a block, each with its source location,\n"
  "block and thread (exit 1). On success prints a summary: time, lane-operations executed and a\n"
  "checksum (FNV-1a 64 of the bytes) of each output buffer; --out writes a buffer as raw\n"
  "little-endian bytes, only when the launch succeeds, and all the --out files or none.\n"
  "\n"
  "  --arg n=1024                    scalar parameter\n"
  "  --arg 'A=float[4096]:random(7)' buffer: zeros | fill(V) | iota[(S[,STEP])] | random(SEED[,LO,HI]) | file(\"PATH\")\n"
  "  --max-steps N                   stop after N warp-steps, status 2 (default: 2e9 or 10^6 per warp of\n"
  "                                  the launch, whichever is larger; a host program 10^11); a run over\n"
  "                                  a second shows its progress on a terminal\n"
  "  --dump-inputs DIR               write each buffer's initial bytes to DIR/NAME.bin before running\n"
  "  --engine native|interp|auto     native: the kernel compiled to C with the system's cc ($CC), cached,\n"
  "                                  run over the cores, bit-identical to the interpreter (what it cannot\n"
  "                                  translate runs in the interpreter, named); auto (default): native\n"
  "                                  from 65536 threads, and a smaller launch with loops still\n"
  "                                  running after 2 s in the interpreter; each launch of a whole\n"
  "                                  program too (both routes); the summary says which engines ran\n"
  "  --check sample|all|none         native: the interpreter checks 4 sampled blocks (sample), every\n"
  "                                  block (all) or none, on a copy; they must agree byte for byte\n";

const char usage_analyze[] =
  "usage: carve analyze FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                     [--shared BYTES] [--arg ...] [--arch MACHINE|sm_XX] [--blocks N]\n"
  "                     [--format text|json|sarif] [--fail-on warning|error] [--max-steps N] [--max-seconds S]\n"
  "                     [--route nvcc|interp|auto] [--engine native|interp|auto] [--check sample|all|none]\n"
  "\n"
  "Run N sampled blocks (default 16: first, last and evenly spread; all when the grid is smaller)\n"
  "in the interpreter and report, for every global and shared memory instruction: its index as an\n"
  "affine form when it is one, its class (warp-uniform, unit stride, stride s, indirect), 32-byte\n"
  "sectors per warp request (sm_90 rule) or shared wavefronts per request (bank conflicts), bytes\n"
  "moved against bytes used, and reuse within a block; for every branch, how often warps diverge;\n"
  "and launch limits (block size, occupancy bound, idle SMs). Each finding names the line, the cost\n"
  "and the remedy. 'exact' means an affine index with the same cost in every sampled request;\n"
  "otherwise the figure is 'sampled'.\n"
  "A file with a main and no launch specification is run first (its output discarded): each kernel's\n"
  "first distinct launch is analyzed with the buffers as the program filled them (--launch N: the Nth\n"
  "distinct launch, --kernel K: K's first; flags override the recorded grid, block and arguments;\n"
  "JSON: an array when there are several).\n"
  "The host program runs until it ends or for at most --max-seconds S of wall-clock time (default\n"
  "60) of host code (launches do not count); --max-steps N gives an exact step limit instead.\n"
  "Stopped after a launch, the launches recorded until then are used, and that is said (JSON:\n"
  "\"host_program\"); stopped before any, the program runs again built by nvcc (host code native)\n"
  "where nvcc is installed (--route interp: never). Launches of at least 65536 threads run on the\n"
  "native engine, 4 sampled blocks checked in the interpreter (--engine native|interp|auto,\n"
  "--check sample|all|none, as carve run takes them); --route nvcc|interp|auto as carve run.\n"
  "A small launch (every block run, at most 64 warps) runs every warp; JSON's sampled is true when\n"
  "any block, warp or step was skipped.\n"
  "A program carve cannot read whole (C++ host code, .cpp sources: give them all) is built by nvcc with\n"
  "carve's CUDA runtime and run natively first (--route nvcc|interp|auto, as carve run takes it).\n"
  "Exit: 0, or 1 when --fail-on's level is reached or the kernel faults; 2 on input errors.\n";

const char usage_estimate[] =
  "usage: carve estimate FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                      [--shared BYTES] [--arg ...] [--arch MACHINE|sm_XX] [--regs N]\n"
  "                      [--calibration FILE] [--format text|json] [--max-steps N] [--max-seconds S]\n"
  "                      [--route nvcc|interp|auto] [--engine native|interp|auto] [--check sample|all|none]\n"
  "       carve estimate --rank A.cu B.cu ... [-D ...] [--arch ...] [--regs N] [--format text|json]\n"
  "\n"
  "Registers per thread, static shared memory, stack and spills as ptxas reports them (NVRTC loaded\n"
  "in-process, cached by source; 'unknown' without the CUDA toolkit, or give --regs), the exact\n"
  "occupancy for the launch on the machine (the rule of cuda_occupancy.h for sm_90, the per-block\n"
  "register allocation of cc 1.x) with the limiting resource, and the waves of blocks over the SMs.\n"
  "Then the dynamic instruction mix per thread, counted on sampled blocks and rewritten as nvcc\n"
  "compiles it (unrolling, hoisting, strength reduction, predication, 128-bit merging), the measured\n"
  "loop trip counts, Ryoo's Instr/Regions/LongRegions/Efficiency/Utilization (eqs. 5.1, 5.2, 6.1),\n"
  "CuMAPz's memory factors, and a time estimate from limits (issue, SFU, DRAM, L2, the L1/shared\n"
  "data pipe, one warp's latency path, block dispatch, launch) against the ceilings of 'carve\n"
  "calibrate'; the largest names the bottleneck, the roofline shows the headroom. Validation:\n"
  "docs/validation.md; JSON fields: docs/estimate-json.md.\n"
  "A file with a main and no launch specification: the launches the program made, as analyze takes\n"
  "them (--launch N, --kernel K, --host FUNC); its sources with C++ host code are built by nvcc with\n"
  "carve's CUDA runtime first (--route nvcc|interp|auto, as carve run takes it).\n"
  "The host program runs until it ends or for at most --max-seconds S of wall-clock time (default\n"
  "60) of host code (launches do not count); --max-steps N gives an exact step limit instead.\n"
  "Stopped after a launch, the launches recorded until then are used, and that is said (JSON:\n"
  "\"host_program\"); stopped before any, the program runs again built by nvcc (host code native)\n"
  "where nvcc is installed (--route interp: never). Launches of at least 65536 threads run on the\n"
  "native engine, 4 sampled blocks checked in the interpreter (--engine native|interp|auto,\n"
  "--check sample|all|none, as carve run takes them); --route nvcc|interp|auto as carve run.\n"
  "  --rank A.cu B.cu ...   rank variants by estimated time and say why each is slower than the best\n"
  "                         (each file's kernel is the one its launch specification names)\n"
  "  --calibration FILE     the ceilings (default $CARVE_CALIBRATION, else ~/.cache/carve/calibration.json\n"
  "                         when it exists); a named file that is missing or not a calibration is an error\n";

const char usage_report[] =
  "usage: carve report FILE.cu [BENCH.json] [TUNE.jsonl] [-o REPORT.html] [--kernel NAME] [-D NAME[=VALUE]] [-I DIR]\n"
  "                    [--grid ...] [--block ...] [--shared BYTES] [--arg ...] [--arch h100|h200|g80|gt200|c1060]\n"
  "                    [--blocks N] [--no-estimate] [--launch N] [--host FUNC] [--max-seconds S]\n"
  "                    [--route nvcc|interp|auto] [-- PROGRAM ARGS]\n"
  "\n"
  "Write one self-contained HTML file (inline CSS and SVG: no script, nothing fetched) that shows\n"
  "where the launch loses its time: the estimate's limits with the bottleneck, a roofline with the\n"
  "kernel's point and the machine's ceilings, the analyzer's findings ranked by their estimated cost,\n"
  "the source with what was measured on each line and a heat bar of its estimated time; and what\n"
  "carve did about it: the optimizer's plan (each pass, its verification and the estimate before and\n"
  "after) with the kernel before and after as a diff (--no-estimate: skip the optimizer). BENCH.json,\n"
  "the output of 'carve bench FILE.cu --ncu --format json' on the GPU, adds the measured time and\n"
  "each predicted counter against its measurement; TUNE.jsonl, the results of 'carve tune', adds the\n"
  "tuning space (Efficiency x Utilization of every valid variant, the Pareto front, measured times).\n"
  "-o names the file (default: FILE.html in the\n"
  "current directory; '-' for standard output), written whole or not at all.\n"
  "A whole program (a main, no launch specification): the program runs as for 'carve analyze' and\n"
  "each kernel's first recorded launch gets a report, STEM.KERNEL.html (STEM from -o or the file);\n"
  "--kernel K or --launch N picks one launch, written to -o or FILE.html.\n"
  "Exit: 0 written (also when the kernel has findings), 1 the kernel faulted, 2 error.\n";

const char usage_arch[] =
  "usage: carve arch [NAME] [--format text|json]\n"
  "\n"
  "List the machine descriptions, or show one (h100, h200, g80, gt200, c1060) field by field with\n"
  "the source of each number, followed by the calibration measured on this GPU if present\n"
  "($CARVE_CALIBRATION or ~/.cache/carve/calibration.json).\n";

const char usage_calibrate[] =
  "usage: carve calibrate [--out FILE] [--arch sm_XX|MACHINE]\n"
  "\n"
  "Build and run carve's GPU microbenchmarks (device-to-device copy, streaming read, FP32 FMA rate,\n"
  "shared-memory and L2 bandwidth, global and L2 latency by pointer chase, launch overhead,\n"
  "__syncthreads cost) and write the result as JSON to FILE (default $CARVE_CALIBRATION or\n"
  "~/.cache/carve/calibration.json). Exit 3 without a GPU or CUDA toolkit.\n";

/* words after indent, wrapped at 100 columns, each line continued at `indent` spaces */
static void wrap(FILE *out, const char *text, int col, int indent) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, " ");
    if (col > indent && col + 1 + (int)n > 100) {
      fprintf(out, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', out);
      col++;
    }
    fwrite(p, 1, n, out);
    col += (int)n;
    p += n;
    while (*p == ' ') p++;
  }
  fputc('\n', out);
}

/* optimize's passes, from the pass table (src/opt/optimize.c) in the order they run: canon, then
 * each pass's name and summary, with the parameters the estimate chooses and whether it runs
 * only when named */
void usage_passes(FILE *out) {
  int n;
  const Pass *const *passes = opt_passes(&n);
  fprintf(out, "\npasses, in the order they run (--passes, --skip, --set NAME.PARAM=V):\n");
  for (int i = -1; i < n; i++) {
    const Pass *p = i < 0 ? opt_find_pass("canon") : passes[i];
    if (!p) continue;
    const char *text = p->summary;
    if (p->model_chooses && p->nparams) {
      int k = p->model_params > 1 ? p->model_params : 1;
      text = fmt("%s; the estimate chooses its %s", text, p->params[0].name);
      for (int j = 1; j < k && j < p->nparams; j++)
        text = fmt("%s%s%s", text, j + 1 == k ? " and " : ", ", p->params[j].name);
    }
    if (p->opt_in) text = fmt("%s (only when named in --passes or --set)", text);
    fprintf(out, "  %-9s", p->name);
    wrap(out, text, 11, 11);
  }
}
