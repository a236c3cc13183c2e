#!/usr/bin/env bash
# Key writing against OpenSSL: the keys PushSim writes must be ones OpenSSL reads, checks and
# writes back byte for byte.
#
# Checks the RSA keys kept already made in Sources/PushSimCrypto/DerivedKeyMemo.swift (the sample
# Google service account's and the "wrong" one): `openssl pkey -check`, `openssl rsa -check` (the
# primes, d and the CRT values agree), 2048 bits, and `openssl pkey` writes the same PKCS#8 text.
# With --serve, also the files `pushsim serve` writes for clients (a debug build; PUSHSIM_BIN picks
# another binary): the APNs .p8 (a P-256 key) and the service-account file's private_key pass the
# same checks, and the public keys OpenSSL derives from them (`openssl pkey -pubout`) are the ones
# GET /_pushsim/keys says the fakes verify with.
#
# OpenSSL is test tooling only; swift test does not run it. Without `openssl` on PATH it says
# SKIPPED and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v openssl >/dev/null || { echo "key-writing-check: SKIPPED, no openssl on PATH"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
check() { if eval "$2" >/dev/null 2>&1; then echo "ok    $1"; else echo "FAIL  $1"; failed=1; fi; }

# The PEM blocks of DerivedKeyMemo.swift, one file each.
awk -v dir="$dir" '/-----BEGIN PRIVATE KEY-----/ { n++; out = dir "/memo-" n ".pem" }
     out { sub(/^ +/, ""); print > out } /-----END PRIVATE KEY-----/ { out = "" }' Sources/PushSimCrypto/DerivedKeyMemo.swift
count=$(ls "$dir"/memo-*.pem | wc -l)
[ "$count" -ge 2 ] || { echo "FAIL  found $count kept keys in DerivedKeyMemo.swift"; exit 1; }
for key in "$dir"/memo-*.pem; do
  name="kept RSA key $(basename "$key" .pem)"
  check "$name: openssl pkey -check" "openssl pkey -in '$key' -check -noout"
  check "$name: openssl rsa -check (primes, d, CRT values)" "openssl rsa -in '$key' -check -noout"
  check "$name: 2048 bits" "openssl rsa -in '$key' -text -noout | grep -q 'Private-Key: (2048 bit, 2 primes)'"
  check "$name: openssl pkey writes the same PKCS#8 bytes" "openssl pkey -in '$key' | cmp -s - '$key'"
done

if [ "${1:-}" = "--serve" ]; then
  if [ -z "${PUSHSIM_BIN:-}" ]; then swift build --product pushsim >/dev/null; PUSHSIM_BIN=.build/debug/pushsim; fi
  "$PUSHSIM_BIN" serve --port 0 --clock manual --keys "$dir/keys" > "$dir/serve.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true; rm -rf "$dir"' EXIT
  for _ in $(seq 1 100); do grep -q "listening on" "$dir/serve.log" && break; sleep 0.1; done
  base=$(sed -n 's/.*listening on \(http:\/\/127.0.0.1:[0-9]*\).*/\1/p' "$dir/serve.log" | head -1)
  [ -n "$base" ] || { echo "FAIL  pushsim serve did not start"; cat "$dir/serve.log"; exit 1; }
  p8="$dir/keys/AuthKey_PSIMKEY001.p8"
  python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["private_key"])' "$dir/keys/service-account.json" > "$dir/sa.pem"
  python3 - "$base" "$dir" <<'PY'
import json, sys, urllib.request
keys = json.load(urllib.request.urlopen(sys.argv[1] + "/_pushsim/keys"))
open(sys.argv[2] + "/apns-pub.pem", "w").write(keys["apns"][0]["publicKey"])
open(sys.argv[2] + "/sa-pub.pem", "w").write(keys["fcm"][0]["publicKeys"][0])
PY
  check "served .p8: openssl pkey -check" "openssl pkey -in '$p8' -check -noout"
  check "served .p8: a P-256 key" "openssl pkey -in '$p8' -text -noout | grep -q 'NIST CURVE: P-256'"
  check "served .p8: openssl pkey writes the same PKCS#8 bytes" "openssl pkey -in '$p8' | cmp -s - '$p8'"
  check "served .p8: its public key is the one APNs verifies with" "openssl pkey -in '$p8' -pubout | cmp -s - '$dir/apns-pub.pem'"
  check "served service account: openssl rsa -check" "openssl rsa -in '$dir/sa.pem' -check -noout"
  check "served service account: openssl pkey writes the same PKCS#8 bytes" "openssl pkey -in '$dir/sa.pem' | cmp -s - '$dir/sa.pem'"
  check "served service account: its public key is the one Google verifies with" "openssl pkey -in '$dir/sa.pem' -pubout | cmp -s - '$dir/sa-pub.pem'"
fi

[ "$failed" -eq 0 ] || { echo "key-writing-check: FAILED"; exit 1; }
echo "key-writing-check: every key OpenSSL read agrees"
