"""Which rules revision (battle option `rules_revision`, docs/figwars-3.md "Rules
revisions") brings the part-2 rules that ask new questions or roll new dice, so battle
files recorded before them (revision 1) replay as they were played."""

# A passenger taking a dead driver's seat, the entities' leash, a formation's casualties
# stepping up from behind, its direct-fire ranks and a face's free consolidation.
PART2_TABLE_FACTS = 2

# The Hunter's self-destruct (PR-74) rolled against each model's own cover, one level lower
# as for a blast (11.18 step 6, PR-53): under the template and in sight alike. Before it,
# one cover served every model under the template and the 2d rolls ignored cover.
BLAST_COVER_EACH = 3
