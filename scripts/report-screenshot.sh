#!/bin/sh
# Builds gssl, writes the HTML report of `gssl labelprop` on the embedded Cora
# and, when Chromium is installed, loads the page headless with no network and
# takes a screenshot of it (look at it: the figure and the tables must show);
# then serves a saved model of the same run on a loopback port and takes a
# screenshot of gssl serve's page (the metadata and the prediction form).
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

# The page gssl serve shows at /: a saved model of the embedded Cora, served
# on a free loopback port for the time of the screenshot.
"$out/gssl" labelprop --save "$out/cora.gssl" > /dev/null
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)
"$out/gssl" serve --model "$out/cora.gssl" --addr "127.0.0.1:$port" 2> "$out/serve.log" &
serve=$!
trap 'kill $serve 2>/dev/null; rm -rf "$profile"' EXIT
for _ in $(seq 50); do
	if curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null 2>&1; then break; fi
	sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/" | grep -q '<form' || { echo "FAIL: the serve page has no form" >&2; exit 1; }
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--screenshot="$out/serve.png" --window-size=1200,900 --virtual-time-budget=3000 \
	"http://127.0.0.1:$port/" > "$out/chromium-serve.log" 2>&1 || {
	cat "$out/chromium-serve.log" >&2
	exit 1
}
test -s "$out/serve.png"
echo "screenshot: $out/serve.png"
