#!/usr/bin/env bash
# The base image of deploy/Containerfile made from Debian's packages alone, for machines that reach
# no container registry (`make image` runs it):
#
#     deploy/base-image.sh [IMAGE]        # IMAGE defaults to localhost/maumau-base:bookworm
#
# mmdebstrap builds a minimal Debian bookworm root filesystem (the Essential packages, Debian's
# Python 3.11 with its venv module, CA certificates, passwd for groupadd/useradd and the C++ runtime
# grpcio's wheels link against; no apt, no manuals, no translations) as a tarball, which
# `podman import` turns into IMAGE. The image carries
# this file's hash in the label maumau.base.recipe, so it is rebuilt only when it is missing or
# this recipe changed. Needs root (mmdebstrap's root mode) and Debian's mirrors.
set -euo pipefail

image="${1:-localhost/maumau-base:bookworm}"
recipe="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"

have="$(podman image inspect --format '{{index .Labels "maumau.base.recipe"}}' "$image" 2>/dev/null || true)"
if [ "$have" = "$recipe" ]; then
  echo "base-image: $image is up to date (recipe $recipe)"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "base-image: building $image (recipe $recipe) with mmdebstrap"
# Security updates too: the suite alone would freeze the base at bookworm's last point release.
mmdebstrap --variant=essential \
  --include=python3,python3-venv,ca-certificates,passwd,libstdc++6 \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  bookworm "$work/root.tar" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"

# An imported tarball has no configuration: PATH and LANG as python:3.11-slim sets them, since the
# Containerfile extends PATH and Python reads LANG.
podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change "LABEL maumau.base.recipe=$recipe" \
  --change 'CMD ["python3"]' \
  "$work/root.tar" "$image"
