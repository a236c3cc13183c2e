#!/usr/bin/env bash
# Teaching pages: size and render time of the page of a ~10,000-event run and of a 200,000-event
# run (the ten-thousand-fans story with 500 devices, and as written).
#
# Render time is headless Chromium's wall time to a screenshot of the page minus its time for an
# empty page, the median of five runs each, so Chromium's own start-up is left out. A benchmark,
# not a test: the figures go in the dated log, Sources/PushSim/PushSim.docc/Benchmarks.md.
#
#   bash tools/page-bench.sh          # needs chromium (tools/browser-check.sh installs it)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "page-bench: chromium is not installed (bash tools/browser-check.sh installs it)"; exit 1; }
out=.build/page-bench
rm -rf "$out" && mkdir -p "$out"
swift build -c release --product pushsim >/dev/null
pushsim=$(swift build -c release --show-bin-path)/pushsim

sed -e 's/devices fans 10000/devices fans 500/' -e 's/expect 10000 of fans/expect 500 of fans/' \
    -e 's/fans-9999/fans-499/' -e 's/hub has 10000/hub has 500/' \
    Scenarios/scale/ten-thousand-fans.scenario >"$out/five-hundred-fans.scenario"
cp Scenarios/scale/ten-thousand-fans.scenario "$out/"
echo '<!doctype html><title>empty</title>' >"$out/empty.html"

flags=(--headless --disable-gpu --no-sandbox --hide-scrollbars --window-size=1600,1400)
# median of five wall times, in milliseconds, to a screenshot of $1
render_ms() {
  local times=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    chromium "${flags[@]}" --screenshot="$out/shot.png" "file://$PWD/$1" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

empty=$(render_ms "$out/empty.html")
echo "empty page: ${empty} ms (subtracted below)"
printf '%-28s %10s %10s %12s\n' "run" "events" "page" "render"
for name in five-hundred-fans ten-thousand-fans; do
  "$pushsim" run "$out/$name.scenario" --html "$out/$name.html" --format json >"$out/$name.json"
  events=$(grep -o '"events" *: *[0-9]*' "$out/$name.json" | head -1 | grep -o '[0-9]*$')
  bytes=$(wc -c <"$out/$name.html")
  ms=$(render_ms "$out/$name.html")
  printf '%-28s %10s %9s KB %9s ms\n' "$name" "$events" "$((bytes / 1024))" "$((ms - empty))"
done
