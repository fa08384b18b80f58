"""Host adapters: one module per ruleset the card scheme can run on (spec section 7)."""
