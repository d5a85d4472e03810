#!/bin/sh
# Builds gssl, writes the HTML report of `gssl labelprop` on the embedded Cora
# and, when Chromium is installed, loads the page headless with no network and
# takes a screenshot of it (look at it: the figure and the tables must show).
#
#   scripts/report-screenshot.sh [OUT_DIR]     (default: a new temporary folder)
#
# Without /usr/bin/chromium (Debian's chromium package) it prints a SKIP line
# and exits 0 after checking that the report was written.
set -eu
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go build -o "$out/gssl" ./cmd/gssl
"$out/gssl" labelprop --report "$out/report" --plot "$out/labelprop.png" > "$out/labelprop.txt"
test -s "$out/report/index.html"
# Self-contained: nothing to fetch.
if grep -Eq 'https?:|<script|(src|href)="//' "$out/report/index.html"; then
	echo "FAIL: $out/report/index.html refers to something outside the page" >&2
	exit 1
fi
echo "report: $out/report/index.html"
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
	echo "SKIP: $chromium is not installed (apt-get install chromium); no screenshot"
	exit 0
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# No network: the page must render from the file alone.
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--proxy-server=127.0.0.1:9 --screenshot="$out/report.png" --window-size=1200,2000 \
	"file://$(cd "$out/report" && pwd)/index.html" > "$out/chromium.log" 2>&1 || {
	cat "$out/chromium.log" >&2
	exit 1
}
test -s "$out/report.png"
echo "screenshot: $out/report.png"
