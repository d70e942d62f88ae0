#!/usr/bin/env bash
# The layers only look down: a folder includes and calls its own files
# and those of the floors below its own, never a floor above nor another
# folder of its floor.  Read twice: from the sources' #include "DIR/..."
# lines, and from the objects make built (build/obj/app, the shim's own
# in build/obj/shim-pic), each object's undefined symbols against the
# folder whose object defines them (nm).  What goes up is named: the file
# and the include, or the object and the symbol.
. "$(dirname "$0")/lib.sh"

# The floors, the top first; the folders of one floor are side by side.
# scan/ (the static scan of a script) reads the engines and common/, and
# only the launcher reads it: its floor is the summary's.
FLOORS='launcher inject
report
advice
summary scan
engines
common
shim'

# "FOLDER FLOOR" a line, 0 the top.
echo "$FLOORS" | awk '{ for (i = 1; i <= NF; i++) print $i, NR - 1 }' \
    > "$T/floors"
FOLDERS=$(awk '{ print $1 }' "$T/floors")

# May FOLDER look at FOLDER2?  Its own, or one on a floor below.
# Reads "FOLDER FOLDER2 WHAT..." lines; prints those that may not.
upward() {
	awk 'NR == FNR { floor[$1] = $2; next }
	    $1 != $2 && ($2 in floor) && floor[$2] <= floor[$1]' "$T/floors" -
}

# The rule itself: a folder above, beside, and below.
is "$(echo 'engines advice engines/apply.c advice/settings.h' | upward)" \
    'engines advice engines/apply.c advice/settings.h' \
    "the check: engines/ reaching advice/ goes up"
is "$(echo 'summary scan summary/x.c scan/scan.h' | upward)" \
    'summary scan summary/x.c scan/scan.h' \
    "the check: summary/ reaching scan/, beside it, is refused too"
is "$(printf '%s\n' 'report summary r s' 'advice advice a a' | upward)" "" \
    "the check: a floor below, and a folder's own files, are not"

# --- the includes --------------------------------------------------------------
# "FOLDER DIR FILE DIR/NAME" for each #include "DIR/NAME" of FOLDER's
# sources.
(cd "$TOP" && for f in $FOLDERS; do ls "$f"/*.[ch] 2>/dev/null; done) |
    (cd "$TOP" && xargs grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/') |
    sed 's|^\(\([a-z_]*\)/[^:]*\):.*"\(\([a-z_]*\)/[^"]*\)".*|\2 \4 \1 \3|' \
    > "$T/includes"
ok "$([ "$(wc -l < "$T/includes")" -gt 100 ]; echo $?)" \
    "the includes of other folders are read ($(wc -l < "$T/includes"))"
upward < "$T/includes" > "$T/includes.up"
for f in $FOLDERS; do
	is "$(awk -v f="$f" '$1 == f { print $3 " includes " $4 }' \
	    "$T/includes.up")" "" "$f/ includes nothing of a floor above it"
done

# --- the objects ---------------------------------------------------------------
# Every folder built into build/obj/app has its floor.
for d in "$B"/obj/app/*/; do
	d=$(basename "$d")
	ok "$(grep -qx "$d" <<< "$FOLDERS"; echo $?)" \
	    "build/obj/app/$d: a floor in this test"
done

# Each source's object (the shim's exec wrappers are built apart).
: > "$T/objects"
missing=
for f in $FOLDERS; do
	for src in "$TOP/$f"/*.c; do
		[ -e "$src" ] || continue
		n=$(basename "$src" .c)
		if [ -e "$B/obj/app/$f/$n.o" ]; then
			echo "$f $B/obj/app/$f/$n.o" >> "$T/objects"
		elif [ -e "$B/obj/shim-pic/$f/$n.o" ]; then
			echo "$f $B/obj/shim-pic/$f/$n.o" >> "$T/objects"
		else
			missing="$missing $f/$n.c"
		fi
	done
done
is "$missing" "" "every source has its object (make builds them)"

# "SYMBOL FOLDER" for each global symbol an object of the programs
# defines (not the shim's wrappers of exec, which only the shim library
# has: the others call libc's); "FOLDER OBJECT SYMBOL" for each symbol an
# object uses and does not define (nm -A prints "build/obj/KIND/FOLDER/
# NAME.o: SYMBOL TYPE ...").
awk '$2 ~ "/obj/app/" { print $2 }' "$T/objects" |
    xargs nm -A -P -g --defined-only |
    awk '{ n = split($1, p, "/"); print $2, p[n - 1] }' | sort -u \
    > "$T/defined"
awk '{ print $2 }' "$T/objects" | xargs nm -A -P -u |
    awk '{ n = split($1, p, "/"); sub(/:$/, "", p[n])
	print p[n - 1], p[n - 1] "/" p[n], $2 }' > "$T/used"
ok "$([ "$(wc -l < "$T/defined")" -gt 500 ]; echo $?)" \
    "the objects' symbols are read ($(wc -l < "$T/defined") defined)"

# "FOLDER DEFINER OBJECT SYMBOL" for each use of another folder's symbol
# (libc's and the libraries' are no folder's): a symbol defined in the
# user's folder is its own, one that several folders define the lowest's.
awk 'FILENAME == ARGV[1] { floor[$1] = $2; next }
    FILENAME == ARGV[2] { def[$1] = def[$1] " " $2; next }
    ($3 in def) { n = split(def[$3], d, " "); low = ""
	for (i = 1; i <= n; i++) {
		if (d[i] == $1)
			next
		if (low == "" || floor[d[i]] > floor[low])
			low = d[i]
	}
	print $1, low, $2, $3 }' "$T/floors" "$T/defined" "$T/used" > "$T/calls"
ok "$([ "$(wc -l < "$T/calls")" -gt 300 ]; echo $?)" \
    "the objects' calls into other folders are read ($(wc -l < "$T/calls"))"
upward < "$T/calls" > "$T/calls.up"
for f in $FOLDERS; do
	is "$(awk -v f="$f" '$1 == f { print $3 " uses " $4 " of " $2 "/" }' \
	    "$T/calls.up" | sort -u)" "" "$f/ calls nothing of a floor above it"
done

done_testing
