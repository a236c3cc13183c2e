#!/usr/bin/env bash
# Builds the five DocC catalogs with the toolchain's docc and fails on any warning.
#
#   1. `swift build` (nothing to do when CI's build step ran just before), then symbol graphs of the
#      built modules with swift-symbolgraph-extract (public symbols). PushSim's graph includes the
#      layers it re-exports (`@_exported import`), so its catalog documents what `import PushSim`
#      gives and can link to `Simulation`, `Device`, `World`, …; a graph made while compiling
#      (`swift build -Xswiftc -emit-symbol-graph`) leaves them out, and needs a build of its own.
#   2. `docc convert --warnings-as-errors` for each catalog with its module's graphs, into
#      <scratch>/docc/<Module>.doccarchive. Any warning (an article's link that does not resolve, a
#      doc comment's ``Symbol`` that is not public, a topic that names nothing) fails the script.
#
#   bash tools/docc-check.sh                          # build folder .build
#   PUSHSIM_SCRATCH=.build-x bash tools/docc-check.sh  # another build folder
#
# Needs only the Swift toolchain (docc and swift-symbolgraph-extract ship with it). 35-45 s wall
# once the debug build exists (2 cores shared with other builds; 7 s of CPU).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${PUSHSIM_SCRATCH:-.build}"
docc="$(command -v docc || true)"
if [ -z "$docc" ]; then docc="$(dirname "$(command -v swift)")/docc"; fi
extract="$(dirname "$(command -v swift)")/swift-symbolgraph-extract"

swift build --scratch-path "$scratch" >/dev/null
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
out="$scratch/docc"
rm -rf "$out"
mkdir -p "$out"

# The modules PushSim re-exports, read from its own source so the list cannot fall behind.
reexported="$(sed -n 's/^@_exported import \([A-Za-z]*\).*/\1/p' Sources/PushSim/*.swift | sort -u | paste -sd, -)"

failed=0
for module in PushSim PushSimServer PushSimServices PushSimHub PushSimCrypto; do
  graphs="$out/symbol-graphs/$module"
  mkdir -p "$graphs"
  extra=()
  if [ "$module" = PushSim ]; then extra=("-experimental-allowed-reexported-modules=$reexported"); fi
  "$extract" -module-name "$module" -target "$triple" -module-cache-path "$bin/ModuleCache" -I "$bin/Modules" \
    -minimum-access-level public "${extra[@]}" -output-dir "$graphs"
  log="$out/$module.log"
  if "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
       --output-dir "$out/$module.doccarchive" --fallback-display-name "$module" \
       --fallback-bundle-identifier "$module" --warnings-as-errors >"$log" 2>&1 \
     && ! grep -qE '(warning|error):' "$log"; then
    echo "ok    $module.docc -> $out/$module.doccarchive"
  else
    echo "FAIL  $module.docc:"
    grep -E '(warning|error):' "$log" | sed 's/^/      /' || tail -20 "$log" | sed 's/^/      /'
    failed=1
  fi
done
# The public API of `import PushSim`, from the same symbol graphs, against the recorded listing:
# the surface changes only on purpose (then: python3 tools/api-listing.py <graphs> --update tools/api/PushSim.api).
if ! python3 tools/api-listing.py "$out/symbol-graphs/PushSim" --check tools/api/PushSim.api; then failed=1; fi
exit "$failed"
