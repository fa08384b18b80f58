"""Which rules revision (battle option `rules_revision`, docs/figwars-3.md "Rules
revisions") brings the part-2 rules that ask new questions or roll new dice, so battle
files recorded before them (revision 1) replay as they were played."""

# A passenger taking a dead driver's seat, the entities' leash, a formation's casualties
# stepping up from behind, its direct-fire ranks and a face's free consolidation.
PART2_TABLE_FACTS = 2
