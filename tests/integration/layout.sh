#!/usr/bin/env bash
# The tree's rules that the compiler alone does not check: a component
# reaches another only through its include path (no "../" or "dir/" in an
# include), every library file is in src/meson.build, and every .c file
# includes banned.h as its last header (an X-macro .def may follow).
. "$(dirname "$0")/lib.sh"

src=${CORDON_SOURCE_ROOT:?}
cd "$src" || exit 1

bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src cli |
	head -5)
[ -z "$bad" ]
ok $? "no include names a path into another folder${bad:+: $bad}"

missing=
for f in src/*/*.c; do
	grep -q "'${f#src/}'" src/meson.build || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "every library source is built from src/meson.build${missing:+:$missing}"

stray=$(find src -maxdepth 1 -type f -name '*.[ch]' | head -5)
[ -z "$stray" ]
ok $? "no source file outside a component folder${stray:+: $stray}"

notlast=
for f in src/*/*.c cli/*.c; do
	# X-macro tables (.def) are expanded where they are used: not headers.
	last=$(grep -E '^#[[:space:]]*include' "$f" | grep -v '\.def"' | tail -1)
	case $last in
	*'"banned.h"'*) ;;
	*) notlast="$notlast $f" ;;
	esac
done
[ -z "$notlast" ]
ok $? "every .c includes banned.h last${notlast:+:$notlast}"
done_testing
