"""Design insight: exact odds from the card data (:mod:`.odds`) and the playtest simulator
(:mod:`.simulate`, turn procedures in :mod:`.games`), with their report and plots."""
