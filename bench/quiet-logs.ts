/**
 * The service's info lines (a "pipeline step done" per step of every job) would interleave with the
 * tables, so a bench logs warnings and errors only unless LOG_LEVEL asks for more. Imported first by
 * bench/run.ts: the logger reads LOG_LEVEL when its module is first loaded.
 */
process.env.LOG_LEVEL ??= 'WARN';
