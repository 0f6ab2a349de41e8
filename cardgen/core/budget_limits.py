"""The numbers of the build budget (:mod:`cardgen.core.budget`), in a module of their own so the
command line can show them in ``--help`` without loading the budget's machinery (fork, mmap,
pickle, signals)."""

#: Default memory budget of one game's build (address space of the build process), in MB.
DEFAULT_MEMORY_MB = 4096
#: Default CPU budget of one game's build (CPU seconds of the build process), in seconds.
DEFAULT_CPU_S = 120
#: Seconds between the CPU limit's clean stop (SIGXCPU) and the kernel's SIGKILL.
HARD_GRACE_S = 5
#: Smallest budgets the flags accept (below them Python and the fonts do not even load).
MIN_MEMORY_MB = 256
MIN_CPU_S = 1
#: Largest budgets the flags accept: 1 TiB of address space and a week of CPU time (more is no
#: budget; a number past what ``setrlimit`` takes would stop the build process itself).
MAX_MEMORY_MB = 1024 * 1024
MAX_CPU_S = 7 * 24 * 3600
