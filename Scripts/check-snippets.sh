#!/usr/bin/env bash
# Compiles every ```swift block of the user documentation exactly as it stands in the
# Markdown: README.md, the DocC catalogs (Sources/*/*.docc) and the examples' READMEs.
#
# Each block is type-checked on its own as the `main.swift` of a program that can import
# the package's modules (top-level statements, `try` and `await` allowed), in Swift 6
# mode with complete concurrency checking, warnings as errors. Errors point at the
# Markdown file and line (`#sourceLocation`).
#
# Two markings, an HTML comment on the last non-blank line before the fence, and nothing
# else, change that:
#   <!-- snippet: continues -->            the block is compiled after the blocks before it
#                                          (a walkthrough that builds on earlier code)
#   <!-- snippet: not compiled (REASON) --> the block is not Swift that compiles here, on
#                                          purpose (another library's code, an error shown)
#
# Usage: Scripts/check-snippets.sh [FILE.md ...]   (default: every file above), after
# `swift build --build-tests`; BUILD_DIR overrides .build/debug.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/.build/debug}"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Extract: one directory per compiled group, holding its main.swift.
if [ "$#" -gt 0 ]; then files=("$@"); else files=(README.md Sources/*/*.docc/*.md Examples/*/README.md); fi
for file in "${files[@]}"; do
    [ -f "$file" ] || continue
    slug="$(echo "$file" | tr '/.' '__')"
    awk -v file="$file" -v slug="$slug" -v work="$work" '
        function flush_marker() { marker = "" }
        /^[ \t]*```swift[ \t]*$/ && !inside {
            inside = 1
            match($0, /^[ \t]*/); indent = RLENGTH
            if (marker ~ /not compiled/) { skipping = 1; skipped++; next }
            skipping = 0
            if (marker !~ /continues/ || group == 0) {
                group++
                out = work "/" slug "-" group
                system("mkdir -p " out)
                out = out "/main.swift"
                printf "" > out
            }
            printf "#sourceLocation(file: \"%s\", line: %d)\n", file, NR + 1 >> out
            next
        }
        inside && /^[ \t]*```[ \t]*$/ { inside = 0; flush_marker(); next }
        inside {
            if (!skipping) { print substr($0, indent + 1) >> out }
            next
        }
        /^[ \t]*$/ { next }
        { marker = ($0 ~ /^<!-- snippet: /) ? $0 : "" }
        END { if (skipped) printf "%s: %d block(s) marked not compiled\n", file, skipped > "/dev/stderr" }
    ' "$file"
done

# The package's modules, and the module maps of the C modules they depend on.
flags=(-typecheck -swift-version 6 -warnings-as-errors -I "$build/Modules"
    -load-plugin-executable "$build/StitcherMacrosPlugin-tool#StitcherMacrosPlugin")
while IFS= read -r map; do flags+=(-Xcc "-fmodule-map-file=$map"); done < <(
    ls "$build"/*.build/module.modulemap 2>/dev/null | grep -v -- '-tool.build/'
    find "$root/.build/checkouts" -path '*/Sources/*' -name module.modulemap 2>/dev/null | grep -v -i -e bench -e test
)

groups=("$work"/*/main.swift)
echo "Compiling ${#groups[@]} documentation snippets"
failed=0
printf '%s\0' "${groups[@]}" | xargs -0 -P 2 -I{} sh -c '
    swiftc "$@" "{}" > "{}.log" 2>&1 || { echo "FAILED" >> "{}.log"; }
' _ "${flags[@]}"
for group in "${groups[@]}"; do
    if grep -q FAILED "$group.log"; then
        failed=$((failed + 1))
        origin="$(head -1 "$group" | sed -E 's/#sourceLocation\(file: "(.*)", line: ([0-9]+)\)/\1:\2/')"
        echo "The snippet at $origin does not compile:"
        grep -E '^[^ ].*: (error|warning):' "$group.log" | sed "s|^|  |" | head -20
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "error: $failed of ${#groups[@]} documentation snippets do not compile as written (above)." >&2
    echo "To fix this, correct the snippet, or mark it <!-- snippet: continues --> or" >&2
    echo "<!-- snippet: not compiled (reason) --> on the line before its fence." >&2
    exit 1
fi
echo "All ${#groups[@]} documentation snippets compile as written."
