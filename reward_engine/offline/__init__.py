"""The offline rules: no model, no network. ``grader`` (SimpleQA-style grades by normalised
match, aliases, numbers and dates, abstention), ``answer_forms`` (the answer shapes it
compares), ``gold`` (a gold that cannot be graded against) and ``facts`` (rule-based claim splitting
and word-coverage support)."""
