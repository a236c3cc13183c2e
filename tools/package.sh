#!/usr/bin/env bash
# Packages pushsim for machines without a Swift toolchain: a release build with the Swift standard
# library and Foundation linked statically (`--static-swift-stdlib`), in
# .build/pushsim-<version>-linux-<arch>.tar.gz with the licence and a short README.
#
#   bash tools/package.sh            # build and package
#   bash tools/package.sh --check    # also unpack it in an empty folder and run it with `env -i`
#                                    # and a PATH without Swift: ldd lists only system libraries,
#                                    # and `pushsim serve` answers a real send (an APNs push to a
#                                    # phone made through the control API, read back).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-pkg
# Foundation's networking half (the PushSim library's URLProtocol links it) calls libcurl, which
# stays a shared system library (libcurl4). Debian ships only its versioned name without the -dev
# package: a link-time alias for it, in the scratch folder.
mkdir -p "$scratch/link"
curl_so=$(ls /usr/lib/*/libcurl.so.4 /usr/lib/libcurl.so.4 2>/dev/null | head -1 || true)
[ -n "$curl_so" ] || { echo "package: libcurl.so.4 not found (Debian's libcurl4)"; exit 1; }
ln -sf "$curl_so" "$scratch/link/libcurl.so"
swift build -c release --static-swift-stdlib --product pushsim --scratch-path "$scratch" -Xlinker -L"$scratch/link" >/dev/null
binary="$scratch/release/pushsim"
version=$("$binary" --version | awk '{print $2}')
arch=$(uname -m)
name="pushsim-$version-linux-$arch"
stage=$(mktemp -d)
mkdir -p "$stage/$name" .build
cp "$binary" "$stage/$name/pushsim"
strip "$stage/$name/pushsim" 2>/dev/null || true
cp LICENSE "$stage/$name/LICENSE"
cat > "$stage/$name/README.md" <<README
# pushsim $version for Linux ($arch)

A deterministic simulator of the push-notification ecosystem: fake APNs, FCM, WNS and Azure
Notification Hubs, simulated phones, on virtual time. This build needs no Swift toolchain: the
Swift runtime and Foundation are linked in; it needs glibc and libstdc++ (any current Linux).

    ./pushsim serve --port 8080             # the fakes and the control API on 127.0.0.1:8080
    ./pushsim run path/to/scenarios         # run scenario files
    ./pushsim --help

The guide, the scenario language and the control API are in the project's repository: its
README.md and the DocC articles under Sources/.
README
tarball=".build/$name.tar.gz"
tar -C "$stage" -czf "$tarball" "$name"
rm -rf "$stage"
echo "package: $tarball ($(du -h "$tarball" | cut -f1))"

[ "${1:-}" = "--check" ] || exit 0

# The check: an empty folder, no Swift on PATH, no environment.
here=$(pwd)
empty=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$empty"' EXIT
tar -C "$empty" -xzf "$tarball"
bin="$empty/$name/pushsim"
echo "== ldd: only system libraries"
ldd "$bin" | sed 's/^/  /'
if ldd "$bin" | grep -q -i swift; then echo "package: the binary still needs a Swift library" >&2; exit 1; fi
cd "$empty"
env -i PATH=/usr/bin:/bin "$bin" --version
log="$empty/serve.log"
env -i PATH=/usr/bin:/bin HOME="$empty" "$bin" serve --port 0 --clock manual > "$log" 2>&1 &
server=$!
for _ in $(seq 1 50); do grep -q "listening on" "$log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$log" | head -1)
[ -n "$port" ] || { echo "package: pushsim serve did not start"; cat "$log"; exit 1; }
echo "== pushsim serve from the package, on port $port: an APNs push to a phone made through the control API"
python3 "$here/tools/package-check.py" "$port"
kill -TERM $server; wait $server || true
echo "package: checked"
