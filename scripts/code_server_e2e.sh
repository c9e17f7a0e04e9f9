#!/usr/bin/env bash
# The VS Code extension in a real VS Code: code-server 4.100.3 (the last line
# that runs on node 20), the packaged .vsix installed into it, a test-data PTX
# file opened in headless Chromium, and the checks of code_server_e2e.mjs
# (diagnostics, code lens, inlay hints with live registers, hover), with a
# screenshot. Not run by CI (it downloads code-server and builds its native
# modules, minutes); run it by hand:
#
#   bash scripts/code_server_e2e.sh [OUT_DIR]
#
# Needs: node 20 and npm, Debian's build-essential pkg-config libx11-dev
# libxkbfile-dev libsecret-1-dev libkrb5-dev ripgrep chromium (installed
# with apt-get when missing and running as root), network access to the npm
# registry. code-server is kept in $PTXOPT_CODE_SERVER_DIR (default
# ~/.cache/ptxopt/code-server-4.100.3) and reused.
#
# @vscode/ripgrep downloads rg from GitHub in its postinstall, which fails
# without internet; its postinstall exits early when its bin/ folder exists,
# so the dependencies are installed without scripts, bin/rg is linked to
# Debian's ripgrep, and the scripts (native modules) are run afterwards.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/target/code-server-e2e}"
cs_dir="${PTXOPT_CODE_SERVER_DIR:-$HOME/.cache/ptxopt/code-server-4.100.3}"
port="${PTXOPT_CODE_SERVER_PORT:-8391}"
mkdir -p "$out"

if [ "$(node -p 'process.versions.node.split(".")[0]')" != 20 ]; then
    echo "code_server_e2e.sh: code-server 4.100.3 needs node 20" >&2
    exit 1
fi
missing=()
for pkg in build-essential pkg-config libx11-dev libxkbfile-dev libsecret-1-dev libkrb5-dev ripgrep chromium; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "code_server_e2e.sh: installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 1. code-server, once.
export npm_config_yes=true
vscode="$cs_dir/node_modules/code-server/lib/vscode"
if [ ! -e "$cs_dir/.ready" ]; then
    mkdir -p "$cs_dir"
    npm install --prefix "$cs_dir" code-server@4.100.3 --ignore-scripts --no-audit --no-fund
    (
        cd "$vscode"
        npm install --omit=dev --ignore-scripts --no-audit --no-fund
        mkdir -p node_modules/@vscode/ripgrep/bin
        ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
        npm rebuild
        # What code-server's postinstall.sh does after installing.
        rm -rf node_modules.asar && ln -s node_modules node_modules.asar
        (cd bin/remote-cli && ln -sf code-linux.sh code-server)
        (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
        cd extensions && npm install --omit=dev --no-audit --no-fund
    )
    # argon2 (code-server's password hashing) is hoisted to the top; its
    # prebuilt download fails offline and it builds from source.
    (cd "$cs_dir" && npm rebuild argon2)
    touch "$cs_dir/.ready"
fi
code_server="$cs_dir/node_modules/code-server/out/node/entry.js"

# 2. ptxopt and the extension.
(cd "$root" && cargo build -p ptxopt)
(cd "$root/editors/code" && npm ci --no-audit --no-fund && npm run compile && npm run package </dev/null)
vsix="$(ls "$root"/editors/code/*.vsix | head -n 1)"

# 3. A fresh profile with the extension and its settings, a workspace with a
# PTX file that has one error (an undeclared register).
profile="$out/profile"
rm -rf "$profile" "$out/workspace"
mkdir -p "$profile/User" "$out/workspace"
node "$code_server" --user-data-dir "$profile" --extensions-dir "$profile/extensions" \
    --install-extension "$vsix"
cat >"$profile/User/settings.json" <<JSON
{
  "ptxopt.serverPath": "$root/target/debug/ptxopt",
  "editor.inlayHints.enabled": "on",
  "editor.codeLens": true,
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false
}
JSON
# `%r5` -> `%r9` in `mad.lo.s32 %r1, %r3, %r4, %r5;`: %r9 is not declared.
sed 's/\(mad.lo.s32.*\), %r5;/\1, %r9;/' "$root/test-data/examples/saxpy.ptx" >"$out/workspace/kernel.ptx"
grep -q '%r9;' "$out/workspace/kernel.ptx"

# 4. code-server, and the checks in headless Chromium.
node "$code_server" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
    --disable-update-check --disable-workspace-trust --user-data-dir "$profile" \
    --extensions-dir "$profile/extensions" "$out/workspace" >"$out/code-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
    curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break
    sleep 1
done
e2e="$out/node"
if [ ! -d "$e2e/node_modules/puppeteer-core" ]; then
    mkdir -p "$e2e"
    (cd "$e2e" && PUPPETEER_SKIP_DOWNLOAD=1 npm install puppeteer-core@23 --no-audit --no-fund >/dev/null)
fi
cp "$root/scripts/code_server_e2e.mjs" "$e2e/"
node "$e2e/code_server_e2e.mjs" "http://127.0.0.1:$port/?folder=$out/workspace" kernel.ptx \
    "$out/code-server.png" "$(command -v chromium)"
