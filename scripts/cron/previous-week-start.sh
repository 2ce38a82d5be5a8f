#!/usr/bin/env bash
# Prints the Monday (YYYY-MM-DD, UTC) that starts the last complete Monday-to-Sunday week.
set -euo pipefail
since_monday=$(( ($(date -u +%u) + 6) % 7 ))
date -u -d "$(date -u +%F) -$(( since_monday + 7 )) days" +%F
