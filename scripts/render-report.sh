#!/usr/bin/env sh
# Renders a backtest HTML report (lendbot backtest --html) in headless Chromium and saves a
# screenshot of the whole page, to check by eye that the Chart.js charts are drawn:
#   scripts/render-report.sh report.html [out.png] [width]
# Needs Chromium (Debian: apt-get install -y chromium). The report inlines Chart.js, so this works
# offline. Tests do not need this script: test/backtest/report-browser.test.ts drives Chromium.
set -eu
report=$(realpath "$1")
out=${2:-${1%.html}.png}
width=${3:-1280}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Tall enough for the charts and tables; the loans list starts folded when it is long.
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --no-first-run --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --virtual-time-budget=5000 --window-size="$width,4000" --screenshot="$out" "file://$report"
echo "wrote $out"
