"""Reading a game folder: YAML with line maps, card tables, the manifest model, card templates, the loaded Game, rulebook sources."""
