"""The click command line: options, printing, progress bars, the watch loop; thin over cardgen.api."""
