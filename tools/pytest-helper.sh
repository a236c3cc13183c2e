#!/usr/bin/env bash
# The pytest helper (Examples/pushsim-pytest): installs it with pinned pytest, firebase-admin and
# azure-notification-hub-unofficial into a throwaway venv (.build/pytest-helper-venv), then runs its
# own suite against `pushsim serve` (started by the plugin, --clock manual). If PyPI cannot be
# reached, it says so and skips (exit 0). pytest's "no tests ran" (exit 5) fails the script.
# PUSHSIM_BIN: a pushsim binary to use instead of building one (swift build -c release).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/pytest-helper-venv
pkg=Examples/pushsim-pytest
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! "$venv/bin/pip" install -q "pytest==8.3.4" "firebase-admin==6.5.0" "azure-notification-hub-unofficial==0.1.0" \
     "setuptools>=70.1" 2>/tmp/pushsim-pytest-helper-pip.log; then
  echo "pytest-helper: SKIPPED, PyPI could not be reached (pip: $(tail -1 /tmp/pushsim-pytest-helper-pip.log))"
  exit 0
fi
# The helper itself, from its folder, built with the venv's setuptools (no network needed here): a
# failure is the helper's own. The build's leftovers are removed from the source tree.
"$venv/bin/pip" install -q --no-deps --no-build-isolation --force-reinstall "./$pkg"
rm -rf "$pkg/build" "$pkg"/src/*.egg-info

if [ -z "${PUSHSIM_BIN:-}" ]; then
  swift build -c release --product pushsim >/dev/null
  PUSHSIM_BIN="$(swift build -c release --show-bin-path)/pushsim"
fi
export PUSHSIM_BIN

reports=.build/pytest-helper-reports
rm -rf "$reports"
start=$(date +%s.%N)
set +e
# --opt=value: pytest takes a separate argument naming an existing folder as a hint for its rootdir.
(cd "$pkg" && PYTHONDONTWRITEBYTECODE=1 "../../$venv/bin/python" -m pytest -p no:cacheprovider --rootdir=. \
   --pushsim-reports="../../$reports" "$@")
status=$?
set -e
echo "pytest-helper: suite took $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"
if [ "$status" -eq 5 ]; then echo "pytest-helper: FAILED, pytest collected no tests" >&2; exit 1; fi
[ "$status" -eq 0 ] || echo "pytest-helper: FAILED (pytest exit $status); journals of failed tests in $reports" >&2
exit "$status"
