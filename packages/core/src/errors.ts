/**
 * Error taxonomy for forge. Every forge error carries a string `code` and the
 * process exit code DESIGN §1.3 asks for (1 runtime, 2 usage). Callers
 * classify by `code`, never by `instanceof` (class identity breaks across
 * bundled copies of a package).
 */

/** Base of every error forge throws on purpose. */
export class ForgeError extends Error {
  readonly code: string;
  readonly exitCode: number;
  /**
   * @param message one line, lower case, no trailing period, no file contents
   * @param code a stable `E_SCREAMING_SNAKE` code
   * @param exitCode 1 (runtime) or 2 (usage)
   */
  constructor(message: string, code = "E_FORGE", exitCode = 1) {
    super(message);
    this.name = "ForgeError";
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** A ref resolves to nothing. */
export class NotFoundError extends ForgeError {
  constructor(message: string) {
    super(message, "E_NOT_FOUND", 1);
    this.name = "NotFoundError";
  }
}

/** A ref prefix matches more than one entity. */
export class AmbiguousRefError extends ForgeError {
  constructor(message: string) {
    super(message, "E_AMBIGUOUS_REF", 1);
    this.name = "AmbiguousRefError";
  }
}

/** A write would clash with what is already there. */
export class ConflictError extends ForgeError {
  constructor(message: string) {
    super(message, "E_CONFLICT", 1);
    this.name = "ConflictError";
  }
}

/** The command line or an input record is malformed (exit 2). */
export class UsageError extends ForgeError {
  constructor(message: string) {
    super(message, "E_USAGE", 2);
    this.name = "UsageError";
  }
}

/**
 * A store file is invalid: unparsable, too big, too deep, missing a required
 * field, or a field of the wrong shape. Names the file (relative to the repo)
 * and the field; never quotes the file's contents (SEC-10).
 */
export class InvalidFileError extends ForgeError {
  readonly file: string;
  readonly field: string | undefined;
  constructor(file: string, message: string, field?: string) {
    super(field ? `${file}: field '${field}': ${message}` : `${file}: ${message}`, "E_INVALID_FILE", 1);
    this.name = "InvalidFileError";
    this.file = file;
    this.field = field;
  }
}

/**
 * Whether `err` is a forge error (by duck type, not class identity).
 * @param err anything thrown
 * @returns true when it has a string `code` and a numeric `exitCode`
 * @example isForgeError(new NotFoundError("no issue #9")) // true
 */
export function isForgeError(err: unknown): err is ForgeError {
  return (
    typeof err === "object" &&
    err !== null &&
    typeof (err as ForgeError).code === "string" &&
    typeof (err as ForgeError).exitCode === "number"
  );
}
