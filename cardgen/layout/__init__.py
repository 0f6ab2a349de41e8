"""Pure geometry: card templates → card plans, decks → imposition plans. No drawing here."""
