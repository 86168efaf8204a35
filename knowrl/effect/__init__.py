"""The effect study: question families with a famous-to-obscure gradient, the base policy's knowledge boundary,
the strict held-out grader, paired statistics and selectivity (issue #42; ``bench/effect.py`` runs it)."""
