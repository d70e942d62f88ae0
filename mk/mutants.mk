# Mutation testing: each mutant of t/mutants/LIST applied to a scratch
# copy of the tree, built, and its tests run; killed or survived, and the
# score.  Not part of make check.
#
#   make mutants                       every mutant
#   bash t/mutants/run NAME...         some of them

mutants: all
	bash t/mutants/run

.PHONY: mutants
