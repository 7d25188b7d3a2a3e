# carve: make builds ./carve; make test; make run; make bench; make install PREFIX=...
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter
LDLIBS = -lm -ldl
PREFIX ?= /usr/local

SRC_LIB = src/base.c src/json.c src/options.c src/usage.c src/rt/route.c $(wildcard src/front/*.c) $(wildcard src/interp/*.c) $(wildcard src/gpu/*.c) $(wildcard src/arch/*.c) $(wildcard src/analysis/*.c) $(wildcard src/report/*.c) $(wildcard src/model/*.c) $(wildcard src/opt/*.c) $(wildcard src/search/*.c)
OBJ_LIB = $(SRC_LIB:%.c=build/%.o)
SAN_OBJ_LIB = $(SRC_LIB:%.c=build-san/%.o)
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

CUDA_INC ?= /usr/local/cuda/include
CUDART_SO = $(if $(wildcard $(CUDA_INC)/cuda_runtime_api.h),build/libcarve_cudart.so)
all: carve $(CUDART_SO)

build/gen/calibrate_src.h: bench/calibrate.cu tools/embed.c
	@mkdir -p build/gen
	$(CC) -O1 -o build/gen/embed tools/embed.c
	build/gen/embed calibrate_cu bench/calibrate.cu $@

build/src/gpu/calibrate.o build-san/src/gpu/calibrate.o: build/gen/calibrate_src.h
WARN += -Ibuild/gen

build/%.o: %.c $(wildcard src/*.h src/*/*.h src/*/*.def src/*/*.inc)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -c $< -o $@

build-san/%.o: %.c $(wildcard src/*.h src/*/*.h src/*/*.def src/*/*.inc)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SANFLAGS) -c $< -o $@

build/libcarve.a: $(OBJ_LIB)
	ar rcs $@ $^

build-san/libcarve.a: $(SAN_OBJ_LIB)
	ar rcs $@ $^

SRC_CLI = src/main.c src/main_host.c src/main_json.c src/main_optimize.c src/main_report.c src/main_whole.c
carve: $(SRC_CLI:%.c=build/%.o) build/libcarve.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build-san/carve: $(SRC_CLI:%.c=build-san/%.o) build-san/libcarve.a
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# carve's substitute CUDA runtime (src/rt/cudart.c, docs/host-programs.md): a shared library a
# program built by nvcc with -cudart none links, so its launches run in the interpreter. Built
# with the CUDA toolkit's headers (its types and signatures are checked against them) and the
# front end and interpreter compiled position-independent; only its cuda* names are exported.
SRC_PIC = src/base.c src/json.c $(wildcard src/front/*.c) $(wildcard src/interp/*.c) $(wildcard src/arch/*.c)
OBJ_PIC = $(SRC_PIC:%.c=build/pic/%.o)
build/pic/%.o: %.c $(wildcard src/*.h src/*/*.h src/*/*.def src/*/*.inc)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
CUDART_OBJ = build/pic/src/rt/cudart.o build/pic/src/rt/cudart_device.o
build/pic/src/rt/%.o: src/rt/%.c src/rt/rt.h src/rt/cudart.h $(wildcard src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-deprecated-declarations -I$(CUDA_INC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
build/libcarve_cudart.so: $(CUDART_OBJ) $(OBJ_PIC)
	$(CC) -shared -Wl,-Bsymbolic -o $@ $^ $(LDLIBS)
cudart: build/libcarve_cudart.so
.PHONY: cudart

clean:
	rm -rf build build-san carve

.PHONY: all clean

# ---- tests ----
TEST_PROGS = test_kernels test_interp test_front test_analyze test_model test_limits test_opt test_split test_search test_reduce test_async test_align test_half test_symbols test_launch test_json test_options
TEST_BINS = $(TEST_PROGS:%=build/tests/%)
SAN_TEST_BINS = $(TEST_PROGS:%=build-san/tests/%)

build/tests/test_kernels: build/tests/test_kernels.o build/tests/ref/refs.o build/libcarve.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
build-san/tests/test_kernels: build-san/tests/test_kernels.o build-san/tests/ref/refs.o build-san/libcarve.a
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

test: carve $(CUDART_SO) $(TEST_BINS)
	@sh tests/run_all.sh build ./carve

test-san: build-san/carve $(CUDART_SO) $(SAN_TEST_BINS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run_all.sh build-san build-san/carve

check: test

.PHONY: test test-san check
build/tests/test_%: build/tests/test_%.o build/libcarve.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
build-san/tests/test_%: build-san/tests/test_%.o build-san/libcarve.a
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# ---- running, benchmarks, fuzzing, install ----
run: carve
	@sh examples/run-all.sh ./carve

bench: carve build/bench/bench_front build/bench/bench_nvrtc build/bench/bench_variants
	@sh bench/run.sh

build/bench/bench_variants: build/bench/bench_variants.o build/libcarve.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/bench/bench_front: build/bench/bench_front.o build/libcarve.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# Fuzzing (docs/fuzzing.md). The front-end fuzzer needs clang's libFuzzer and only the front
# end; it is built with lower limits (FUZZ_LIMITS) so that reaching one fits libFuzzer's time and
# memory budget per input. The command-line fuzzer is plain C and drives a carve binary, by
# default the ASan+UBSan one.
FUZZ_CC ?= clang
FUZZ_LIMITS ?= -DLIMIT_TOKENS='(1LL<<20)'
FUZZ_SRC = src/base.c src/json.c $(wildcard src/front/*.c)
build/fuzz/fuzz_front: tests/fuzz/fuzz_front.c tests/fuzz/hostile.h $(FUZZ_SRC) $(wildcard src/*.h src/front/*.h src/front/*.def)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_LIMITS) -g -O1 -fsanitize=fuzzer,address,undefined -o $@ tests/fuzz/fuzz_front.c $(FUZZ_SRC) $(LDLIBS)

build/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c tests/fuzz/hostile.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O2 -g -o $@ tests/fuzz/fuzz_cli.c

FUZZ_SECONDS ?= 600
FUZZ_MAX_LEN ?= 65536
FUZZ_FLAGS ?=
fuzz: build/fuzz/fuzz_front
	@mkdir -p fuzz-out/corpus
	@cp -n examples/*.cu tests/fuzz/seeds/* tests/host/*.cu tests/cxx/*.cu tests/fuzz/regress/* fuzz-out/corpus/ 2>/dev/null || true
	build/fuzz/fuzz_front -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/cuda.dict -artifact_prefix=fuzz-out/ $(FUZZ_FLAGS) fuzz-out/corpus

FUZZ_CARVE ?= build-san/carve
fuzz-cli: build/fuzz/fuzz_cli $(FUZZ_CARVE)
	build/fuzz/fuzz_cli -carve $(FUZZ_CARVE) -seconds $(FUZZ_SECONDS) -out fuzz-out/cli $(FUZZ_CLI_FLAGS) \
	  examples/*.cu tests/diag/*.cu tests/fuzz/seeds/* tests/host/*.cu tests/cxx/*.cu

install: carve
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 carve $(DESTDIR)$(PREFIX)/bin/carve
	install -m 644 docs/carve.1 $(DESTDIR)$(PREFIX)/share/man/man1/carve.1

.PHONY: run bench fuzz fuzz-cli install

# GPU tests: run on a machine with a GPU and the CUDA toolkit (skipped elsewhere)
gpu-test: carve
	@bash tests/gpu/run.sh ./carve

.PHONY: gpu-test
build/tests/test_model.o: WARN += -I/usr/local/cuda/include
build-san/tests/test_model.o: WARN += -I/usr/local/cuda/include
build/bench/bench_nvrtc: build/bench/bench_nvrtc.o build/libcarve.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
