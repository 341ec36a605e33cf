#!/usr/bin/env sh
# Renders a backtest HTML report in headless Chromium and saves a screenshot, to check by eye
# that the charts are drawn:  scripts/render-report.sh report.html [out.png]
# Needs Chromium (Debian: apt-get install -y chromium). Tests do not: they check the SVG.
set -eu
report=$(realpath "$1")
out=${2:-${1%.html}.png}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --no-first-run --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --window-size=1200,2400 --screenshot="$out" "file://$report"
echo "wrote $out"
