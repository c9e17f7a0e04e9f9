#!/usr/bin/env bash
# The editor clients' CI job (called from .ci/run):
#  - makes sure Neovim is installed (for crates/ptxopt/tests/nvim_e2e.rs, which
#    .ci/run runs with PTXOPT_REQUIRE_NVIM=1): apt-get on Debian/Ubuntu;
#  - builds and packages the VS Code extension in editors/code:
#    npm ci, npm run compile (tsc), npm run package (vsce package -> .vsix).
# Needs node and npm on PATH. Exits non-zero on any failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v nvim >/dev/null 2>&1; then
    echo "editors/ci.sh: installing neovim" >&2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "editors/ci.sh: nvim is missing and apt-get is not available" >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi
nvim --version | head -n 1

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "editors/ci.sh: $tool is required" >&2
        exit 1
    fi
done

cd "$here/code"
rm -f ./*.vsix
npm ci --no-audit --no-fund
npm run compile
npm run package </dev/null
ls -l ./*.vsix
