#!/usr/bin/env bash
# Key writing against OpenSSL: the keys PushSim writes must be ones OpenSSL reads, checks and
# writes back byte for byte.
#
# Checks the RSA keys kept already made in Sources/PushSimCrypto/DerivedKeyMemo.swift (the sample
# Google service account's and the "wrong" one): `openssl pkey -check`, `openssl rsa -check` (the
# primes, d and the CRT values agree), 2048 bits, and `openssl pkey` writes the same PKCS#8 text.
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

[ "$failed" -eq 0 ] || { echo "key-writing-check: FAILED"; exit 1; }
echo "key-writing-check: every key OpenSSL read agrees"
