# Print NVRTC's log for a carve-printed kernel with the options carve uses (resources.c), to see
# what the ptxas report looks like on a given machine (how the compute-cache effect was found,
# docs/results.md). usage: ./carve print K.cu -o k.cu && python3 bench/probe/nvrtc_log.py k.cu
import ctypes, sys, glob
names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"] + glob.glob("/usr/local/cuda*/lib64/libnvrtc.so*")
lib = None
for n in names:
    try: lib = ctypes.CDLL(n); print("loaded", n); break
    except OSError: pass
src = open(sys.argv[1], "rb").read()
prog = ctypes.c_void_p()
print("create", lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"carve.cu", 0, None, None))
opts = (ctypes.c_char_p * 3)(b"--gpu-architecture=sm_90", b"--ptxas-options=-v", b"-default-device")
print("compile", lib.nvrtcCompileProgram(prog, 3, opts))
n = ctypes.c_size_t()
lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
buf = ctypes.create_string_buffer(n.value + 1)
lib.nvrtcGetProgramLog(prog, buf)
print("log (%d bytes):" % n.value)
print(buf.value.decode(errors="replace"))
v1, v2 = ctypes.c_int(), ctypes.c_int()
lib.nvrtcVersion(ctypes.byref(v1), ctypes.byref(v2)); print("nvrtc version", v1.value, v2.value)
