#!/bin/sh
# Installs what the integration tests need to run a real MediaWiki on loopback (SPEC section 10):
# Debian's mediawiki package with the PHP CLI and SQLite. Idempotent: when everything is present
# it only says so, without touching apt, so CI and developers can call it on every run.
set -eu

packages="mediawiki php-cli php-sqlite3 php-mbstring php-xml php-intl"

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  echo "mediawiki: already installed ($(dpkg-query -W -f='${Version}' mediawiki)), nothing to do"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "mediawiki: missing packages:$missing; run this script as root (sudo $0)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "mediawiki: missing packages:$missing"
echo "mediawiki: apt-get update"
apt-get update -q
echo "mediawiki: apt-get install -y --no-install-recommends$missing"
# shellcheck disable=SC2086 # the package list is meant to split into words
apt-get install -y -q --no-install-recommends $missing
echo "mediawiki: installed $(dpkg-query -W -f='${Version}' mediawiki)"
