"""Foundations every stage uses: problems and errors, units (mm/in → pt), the expression sandbox, number format, atomic output folders."""
