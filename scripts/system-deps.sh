#!/usr/bin/env bash
# Installs the Debian packages wikidelta's tests and benchmarks need on a fresh machine (as root):
# bzip2 and xz for compressed dumps, python3-onnx to write the tiny test models, and MediaWiki with
# PHP and SQLite for the integration tests.
# Fast no-op when everything is there.
set -euo pipefail
missing=()
for pkg in bzip2 xz-utils python3-onnx; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
bash "$(dirname "$0")/mediawiki/install.sh"
