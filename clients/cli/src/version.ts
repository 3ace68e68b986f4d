/** The CLI's version, as `--version` prints it: this package's version (a test holds the two equal). */
export const CLI_VERSION = '0.1.0';
