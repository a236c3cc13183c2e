#!/usr/bin/env bash
# Opens every defect scenario's teaching page (pushsim run --html) in headless Chromium, takes a
# screenshot of each, and fails when a page
#   - is blank: its script did not run (the step counter is empty) or its screenshot is tiny;
#   - logs anything to the console (a script error, or a request the page's CSP refused);
#   - makes any request that leaves the file (Chromium's network log, requests made for the page);
#   - cuts a lane off: in a 1600x900 window, the right edge of some run's diagram (its rightmost
#     lane) or that lane's heading lies past the window or past the diagram's box, or the page
#     itself scrolls sideways (measured by a script added to a copy of the page, see lanes_probe).
# First it checks itself on a page built to do all four wrong, and fails if it misses one.
#
# Installs Debian's `chromium` with apt-get when it is missing; when that is impossible (no
# apt-get, or not root and no sudo) it says so and exits 0 without checking anything.
#
#   bash tools/browser-check.sh                 # pages, screenshots and logs in .build/browser-check/
#   PUSHSIM_SCRATCH=.build-x bash tools/browser-check.sh   # with another build folder
#   bash tools/browser-check.sh --docc          # also refresh the screenshots in the DocC catalog
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${PUSHSIM_SCRATCH:-.build}"          # swift build --scratch-path (CI: the default .build)
out="$PWD/$scratch/browser-check"
docc="Sources/PushSim/PushSim.docc/Resources"

if ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then as_root=""
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root="sudo"
  else
    echo "browser-check: SKIPPED: chromium is not installed and apt-get cannot install it here (no apt-get, or neither root nor sudo)"
    exit 0
  fi
  echo "== browser-check: installing Debian's chromium"
  $as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
chromium --version

rm -rf "$out" && mkdir -p "$out/pages"
swift build --scratch-path "$scratch" --product pushsim >/dev/null
pushsim="$(swift build --scratch-path "$scratch" --show-bin-path)/pushsim"
"$pushsim" run Scenarios/defects --html "$out/pages" --only-failures

# Chromium without its own background traffic, so that every request in the log is the page's.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --disable-background-networking --disable-component-update --disable-sync --disable-default-apps
       --disable-client-side-phishing-detection --disable-domain-reliability --no-pings
       --disable-features=Translate,OptimizationHints,MediaRouter,SpellCheck
       --user-data-dir="$out/profile" --enable-logging=stderr --v=0 --virtual-time-budget=3000)

# A copy of a page with this script added measures, after layout, whether every lane is in view and
# writes what it found into the DOM (<pre id="lanes-fit">, read from --dump-dom): per run, the
# diagram's left and right edges against the visible part of its box and of the window, and the
# rightmost lane's heading.
lanes_probe='<script>(function(){var de=document.documentElement,vw=de.clientWidth,bad=de.scrollWidth>vw,out=[];
out.push("window "+vw+" px, page "+de.scrollWidth+" px wide");
document.querySelectorAll("section.run").forEach(function(sec){var box=sec.querySelector(".diagram"),svg=box&&box.querySelector("svg.lanes");if(!svg)return;
var b=box.getBoundingClientRect(),right=Math.min(vw,b.left+box.clientLeft+box.clientWidth),s=svg.getBoundingClientRect();
var lt=svg.querySelectorAll("text.lt"),last=lt.length?lt[lt.length-1].getBoundingClientRect():s,w=+svg.getAttribute("width");
var ok=s.left>=b.left-0.5&&s.right<=right+0.5&&last.right<=right+0.5;if(!ok)bad=true;
out.push(sec.id+": "+lt.length+" lanes, diagram "+Math.round(s.left)+".."+Math.round(s.right)+" px (drawn "+w+" px wide, scale "+(s.width/w).toFixed(2)+"), rightmost lane heading ends at "+Math.round(last.right)+", visible to "+Math.round(right)+(ok?": ok":": CUT"));});
var pre=document.createElement("pre");pre.id="lanes-fit";pre.textContent=(bad?"LANES-CUT":"LANES-FIT")+"\n"+out.join("\n");document.body.appendChild(pre);})();</script>'

# lanes_copy PAGE: the page with lanes_probe just before its </body>.
lanes_copy() {
  PROBE="$lanes_probe" python3 -c 'import os,sys; t=open(sys.argv[1],encoding="utf-8").read(); i=t.rfind("</body>"); i=len(t) if i<0 else i; sys.stdout.write(t[:i]+os.environ["PROBE"]+t[i:])' "$1"
}

# check PAGE: renders it twice (DOM after scripts, then a screenshot); prints why it fails, if it does.
check() {
  local page="$1" name problems=""
  name="$(basename "$page" .html)"
  chromium "${flags[@]}" --log-net-log="$out/$name.netlog.json" --dump-dom "file://$page" \
    >"$out/$name.dom" 2>"$out/$name.log" || problems+=" chromium failed (see $out/$name.log);"
  chromium "${flags[@]}" --window-size=1600,1400 --screenshot="$out/$name.png" "file://$page" \
    >/dev/null 2>>"$out/$name.log" || problems+=" no screenshot;"
  if ! grep -q 'class="pos">step 1 of [0-9]' "$out/$name.dom"; then problems+=" blank: the step-through did not start;"; fi
  # Stepped to the end (#s=<huge> opens each run at its last step): every step's changes applied.
  chromium "${flags[@]}" --dump-dom "file://$page#s=999999,999999" >"$out/$name.end.dom" 2>>"$out/$name.log" || true
  if grep -q 'class="run"' "$out/$name.end.dom" && ! grep -Eq 'class="pos">step ([0-9]+) of \1<' "$out/$name.end.dom"; then
    problems+=" the step-through did not reach its last step;"
  fi
  if [ ! -s "$out/$name.png" ] || [ "$(wc -c <"$out/$name.png")" -lt 20000 ]; then problems+=" blank screenshot;"; fi
  # Every lane in view at 1600x900 (the screenshot above is 1600 wide too): measured in a copy of
  # the page with lanes_probe added.
  lanes_copy "$page" >"$out/$name.lanes.html"
  chromium "${flags[@]}" --window-size=1600,900 --dump-dom "file://$out/$name.lanes.html" >"$out/$name.lanes.dom" 2>>"$out/$name.lanes.log" || true
  if ! grep -q 'id="lanes-fit">LANES-FIT' "$out/$name.lanes.dom"; then
    problems+=" lanes cut off at 1600x900: $(grep -A6 'id="lanes-fit"' "$out/$name.lanes.dom" | grep -oE '(window [0-9]+ px, page [0-9]+ px wide|r[0-9]+: [^<]*CUT)' | paste -sd ';' - || echo 'not measured');"
  fi
  if grep -q 'CONSOLE' "$out/$name.log"; then
    problems+=" console: $(grep 'CONSOLE' "$out/$name.log" | head -3 | sed 's/.*CONSOLE[^]]*] //' | tr '\n' ' ');"
  fi
  # Requests made for the page carry its file:// isolation key; any that is not file: left the file.
  local leaving
  leaving="$(grep '"network_isolation_key":"file://' "$out/$name.netlog.json" 2>/dev/null \
             | grep -o '"url":"[^"]*"' | grep -v '"url":"file:' | sort -u | head -3 | tr '\n' ' ' || true)"
  if [ -n "$leaving" ]; then problems+=" requests leaving the file: $leaving;"; fi
  printf '%s' "$problems"
}

echo "== browser-check: self-test on a page that does everything wrong"
cat >"$out/bad.html" <<'EOF'
<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"><script>undefinedFunction();</script>
<section class="run" id="r0"><div class="diagram"><svg class="lanes" width="2400" height="40"><text class="lt" x="2300" y="14">hub</text></svg></div></section></body></html>
EOF
found="$(check "$out/bad.html")"
for expected in "blank" "console" "leaving the file" "lanes cut off"; do
  case "$found" in *"$expected"*) ;; *) echo "browser-check: the self-test missed '$expected' (found:$found)" >&2; exit 1 ;; esac
done
echo "   caught:$found"

echo "== browser-check: every defect scenario's page"
failed=0
for page in "$out"/pages/*.html; do
  problems="$(check "$page")"
  if [ -n "$problems" ]; then echo "FAIL $(basename "$page"):$problems"; failed=$((failed + 1))
  else echo "ok   $(basename "$page") ($(wc -c <"$page") bytes, screenshot $(basename "$page" .html).png; at 1600x900:" \
            "$(grep -A6 'id="lanes-fit"' "$out/$(basename "$page" .html).lanes.dom" | grep -oE '[0-9]+ lanes, diagram [0-9]+\.\.[0-9]+ px' | paste -sd ';' -))"; fi
done

if [ "${1:-}" = "--docc" ]; then
  mkdir -p "$docc"
  # Each opened at its first failure (#s=fail), or its first step when nothing failed.
  for name in defects-g-sender-tag-or defects-i-tag-injection defects-a-retry-reuses-dead-id; do
    chromium "${flags[@]}" --window-size=1500,1100 --screenshot="$docc/teaching-${name#defects-}.png" \
      "file://$out/pages/$name.html#s=fail" >/dev/null 2>&1
  done
  echo "screenshots copied to $docc"
fi
[ "$failed" = 0 ] || { echo "browser-check: $failed page(s) failed; pages, logs and screenshots in $out" >&2; exit 1; }
echo "browser-check: all pages rendered, no console messages, no request left the file, every lane in view at 1600x900"
