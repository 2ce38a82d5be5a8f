#!/usr/bin/env bash
# The Debian packages wikidelta's tests and benchmarks need, in one list: bzip2, xz-utils and
# p7zip-full for compressed dumps, python3-onnx to write the tiny test models, and MediaWiki with
# PHP and SQLite for the integration tests' real wiki, redis-server for the work queue's tests, chromium for the audit pages' browser tests (driven by playwright-core, which downloads no browser). `npm test` installs them through this script
# when run as root; `--missing` only lists the absent ones, one a line.
# Idempotent: when everything is present it says so without touching apt.
set -euo pipefail

packages=(bzip2 xz-utils p7zip-full python3-onnx mediawiki php-cli php-sqlite3 php-mbstring php-xml php-intl redis-server chromium)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done

if [ "${1:-}" = --missing ]; then
  [ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
  exit 0
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all ${#packages[@]} installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "system packages: missing ${missing[*]}: run sudo bash $0" >&2
  exit 1
fi

echo "system packages: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "system packages: installed ${missing[*]}"
