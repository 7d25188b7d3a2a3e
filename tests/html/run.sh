#!/bin/bash
# carve report in a real browser: headless Chromium (Debian's package, installed when missing and
# possible) loads each bundled example's report and must log no console error; a screenshot
# must not be blank; the page must be well-formed with the expected sections and non-empty SVG
# paths. Without Chromium the browser checks print "skipped (no Chromium)" and the structural
# checks still run. Usage: tests/html/run.sh [CARVE]   (make test runs it)
carve=$(realpath "${1:-./carve}")
pass=0; fail=0; skipped=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "html: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
chrome=$(find_chromium)
if [ -z "$chrome" ] && [ -z "$CARVE_NO_INSTALL" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && sudo="sudo -n"; }
  if [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; then
    echo "html: installing Debian's chromium (apt-get install -y chromium)"
    ($sudo apt-get install -y chromium >"$tmp/apt.log" 2>&1 || { $sudo apt-get update >>"$tmp/apt.log" 2>&1 && $sudo apt-get install -y chromium >>"$tmp/apt.log" 2>&1; }) \
      || tail -3 "$tmp/apt.log"
    chrome=$(find_chromium)
  fi
fi
[ -z "$chrome" ] && echo "html: browser checks skipped (no Chromium)"
# the examples with the sizes examples/sizes.txt gives them (small enough to interpret quickly)
for f in examples/*.cu; do
  name=$(basename "$f" .cu)
  defs=$(sed -n "s/^$name\.cu[[:space:]]\+\([^|]*\)|.*/\1/p" examples/sizes.txt 2>/dev/null | head -1 | sed 's/\([A-Za-z_][A-Za-z0-9_]*=\)/-D \1/g')
  out="$tmp/$name.html"
  "$carve" report "$f" $defs -o "$out" >/dev/null 2>"$tmp/$name.err"; rc=$?
  [ $rc = 0 ] && [ -s "$out" ]; check $? "$name: carve report exit $rc: $(head -3 "$tmp/$name.err")"
  [ -s "$out" ] || continue
  python3 - "$out" <<'PY'; check $? "$name: well-formed, self-contained, the sections and plots there"
import re, sys, xml.etree.ElementTree as ET
s = open(sys.argv[1], encoding="utf-8").read()
assert s.startswith("<!DOCTYPE html>")
root = ET.fromstring(s[len("<!DOCTYPE html>"):])           # well-formed
assert not re.search(r'<script|\bsrc="http|href="http|url\(', s), "no script, nothing fetched"
for h in ["Where the time goes", "Roofline", "Findings, ranked by what they cost", "Source, line by line", "optimizer's plan", "Predicted against measured"]:
    assert h in s, h
ns = "{http://www.w3.org/2000/svg}"
svgs = root.iter(ns + "svg")
paths = [p.get("d") for p in root.iter(ns + "path")]
assert all(p and len(p) > 4 for p in paths), "non-empty SVG paths"
kernel = [p for p in root.iter(ns + "path") if p.get("class") == "kernel"]
ceiling = [p for p in root.iter(ns + "path") if p.get("class") == "ceiling"]
assert (len(kernel) == 1 and len(ceiling) == 1) or "No FP32 work" in s, "a roofline with the kernel's point and its ceiling, or the bandwidth bars"
rects = [r for r in root.iter(ns + "rect") if r.get("class", "").startswith("bar")]
assert len(rects) >= 8, "the limits' bars"
assert any("instruction issue" in (t.text or "") for t in root.iter(ns + "text")), "limit labels"
PY
  [ -n "$chrome" ] || continue
  timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --virtual-time-budget=2000 \
    --screenshot="$tmp/$name.png" --window-size=1200,1600 "file://$out" >"$tmp/$name.log" 2>&1
  grep -E "CONSOLE|Uncaught|console" "$tmp/$name.log" | grep -v "^$" > "$tmp/$name.console"
  [ ! -s "$tmp/$name.console" ]; check $? "$name: console messages in Chromium: $(head -3 "$tmp/$name.console")"
  python3 - "$tmp/$name.png" <<'PY'; check $? "$name: the screenshot is a non-blank PNG"
import sys, zlib, struct
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
# decode enough to see several colours: collect IDAT, inflate, look at the raw bytes
idat = b""; i = 8
while i < len(d):
    n, t = struct.unpack(">I4s", d[i:i+8]); 
    if t == b"IDAT": idat += d[i+8:i+8+n]
    i += 12 + n
raw = zlib.decompress(idat)
assert len(set(raw[::97])) > 8, "more than a blank page"
PY
done
[ -z "$chrome" ] && skipped=1
echo "html: $pass passed, $fail failed$([ $skipped = 1 ] && echo ', browser checks skipped (no Chromium)')"
[ $fail = 0 ]
