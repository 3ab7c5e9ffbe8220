#!/usr/bin/env bash
# Generates FeedClient's types and client from openapi.yaml with Apple's swift-openapi-generator
# (1.14.3, the version in the package mirror), into Sources/FeedClient/Generated, and writes the
# document's SHA-256 beside them (GeneratedContract.swift). Run it after editing openapi.yaml
# (scripts/openapi.sh runs it too):
#
#   scripts/openapi-client.sh
#
# The generator is built once into .build-openapi-generator/ (about 2 minutes; not a package
# dependency, so neither `make test` nor an app that uses FeedClient builds it). Set
# OPENAPI_GENERATOR to a built swift-openapi-generator to skip that. FeedClientContractTests
# fails when the digest no longer matches openapi.yaml: the committed code is then stale.
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.14.3
out=Sources/FeedClient/Generated
generator=${OPENAPI_GENERATOR:-}
if [ -z "$generator" ]; then
    src=.build-openapi-generator/swift-openapi-generator
    if [ ! -x "$src/.build/release/swift-openapi-generator" ]; then
        rm -rf "$src"
        git clone --quiet --branch "$version" https://github.com/apple/swift-openapi-generator "$src"
        swift build --package-path "$src" -c release --product swift-openapi-generator >&2
    fi
    generator=$src/.build/release/swift-openapi-generator
fi
tmp=$(mktemp -d "$out.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/config.yaml" <<'YAML'
generate: [types, client]
accessModifier: public
namingStrategy: idiomatic
YAML
"$generator" generate openapi.yaml --config "$tmp/config.yaml" --output-directory "$tmp/code" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
digest=$(sha256sum openapi.yaml | cut -d' ' -f1)
cat >"$tmp/code/GeneratedContract.swift" <<SWIFT
// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator $version read.
    public static let sha256 = "$digest"
}
SWIFT
rm -rf "$out.old"
[ -d "$out" ] && mv "$out" "$out.old"
mv "$tmp/code" "$out"
rm -rf "$out.old"
echo "scripts/openapi-client.sh: $out from openapi.yaml ($digest)"
