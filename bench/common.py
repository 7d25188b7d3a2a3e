"""What the validation scripts share (bench/families/rank.py, bench/validate_estimate.py,
bench/model_terms.py, bench/holdout/compare.py): running `carve estimate` and rank statistics."""
import json, os, subprocess

def estimate(file, kernel=None, calibration=None, arch="h200"):
    """`./carve estimate FILE --format json` as a dict (None when it fails), with the given
    calibration file ($CARVE_CALIBRATION) and machine"""
    env = dict(os.environ)
    if calibration: env["CARVE_CALIBRATION"] = calibration
    cmd = ["./carve", "estimate", file, "--arch", arch, "--format", "json"] + (["--kernel", kernel] if kernel else [])
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    try: return json.loads(out.stdout)
    except ValueError: return None

def ranks(v):
    """ranks 1..n, ties sharing their mean rank"""
    order = sorted(range(len(v)), key=lambda i: v[i]); rk = [0.0] * len(v); i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]: j += 1
        for k in range(i, j + 1): rk[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return rk

def spearman(a, b):
    """Spearman's rank correlation of two equally long lists"""
    ra, rb = ranks(a), ranks(b); n = len(a); ma = sum(ra) / n; mb = sum(rb) / n
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else 0.0
