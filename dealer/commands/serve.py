"""``dealer serve``: placeholder until the API lands (replaced below in this commit series)."""
